// page_numbers.h — the page's numbers, read out by its tests (and anyone at the browser's console): the stage it
// shows, and the trained model's hidden states and attention weights exactly as the page computed them.
//
// From JavaScript: JSON.parse(Module.ccall('attnviz_page_numbers', 'string', [], [])) is
//   {"view": {"stage": "softmax", "presenting": false},   // what the page shows (core::stage(id).key)
//    "sentences": [...], "tokens": [[...]],               // the run's
//    "computing": false,                                  // true: a newer run is on its way
//    "layer": 2,                                          // the layer the stages step through
//    "hidden_states":     {"shape": [n_layers + 1, b, l, d_model], "data": [...]},
//    "attention_weights": {"shape": [b, h, l, l], "data": [...]},  // that layer's A (the maps the page draws)
//    "every_layer_attention_weights": {"shape": [n_layers, b, h, l, l], "data": [...]}}
// — the shapes and meanings of `attnviz dump`'s hidden_states.npy, attention_weights.npy and
// all_attention_weights.npy; the last is empty (shape []) until the model view asks for every layer's maps.
// Without a run, or for the seeded layer (no trained pass), {"view": …, "error": "…"}. Each float is written as a
// double holding its exact value. tests/web/check_numbers.py compares them with the desktop's dump (docs/web.md).
// What this file deliberately does not do: change anything in the app (it reads App::state() and App::run()).
#pragma once

namespace attnviz::ui {
class App;
}

namespace attnviz::app {

// Makes `app` the one attnviz_page_numbers() reads; it must outlive the page (web_main.cpp's never-freed Page).
void exposeNumbers(const ui::App& app);

}  // namespace attnviz::app
