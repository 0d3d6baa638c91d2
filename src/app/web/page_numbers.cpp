// page_numbers.cpp — attnviz_page_numbers(), the page's test and inspection entry (page_numbers.h says what it
// returns); exported from the wasm module by EMSCRIPTEN_KEEPALIVE, called through Module.ccall.
#include "app/web/page_numbers.h"

#include "core/stages.h"
#include "core/transformer/transformer.h"
#include "ui/app.h"

#include <emscripten.h>
#include <nlohmann/json.hpp>

#include <string>

namespace attnviz::app {
namespace {

const ui::App* exposedApp = nullptr;

// {"shape": [...], "data": [...]} of a tensor, its floats widened to doubles (exact).
nlohmann::json tensorJson(const core::Tensor& tensor) {
    return {{"shape", tensor.shape}, {"data", std::vector<double>(tensor.data.begin(), tensor.data.end())}};
}

// The current run's numbers as page_numbers.h describes them.
nlohmann::json numbersJson() {
    if (exposedApp == nullptr) return {{"error", "the page has not started"}};
    const ui::AppState& state = exposedApp->state();
    const nlohmann::json view = {{"stage", core::stage(state.stage).key}, {"presenting", state.presenting}};
    const core::ModelRun* run = exposedApp->run();
    if (run == nullptr) return {{"view", view}, {"error", "the page has no run yet"}};
    if (!run->modelPass) return {{"view", view}, {"error", "the page shows a seeded layer: no trained model's hidden states"}};
    return {{"view", view},
            {"sentences", run->spec.sentences},
            {"computing", exposedApp->computing()},
            {"tokens", run->tokens},
            {"layer", run->spec.trained()->layer},
            {"hidden_states", tensorJson(run->modelPass->hiddenStates)},
            {"attention_weights", tensorJson(run->trace[core::TensorId::AttentionWeights])},
            {"every_layer_attention_weights", tensorJson(run->modelPass->attentionWeights)}};
}

}  // namespace

void exposeNumbers(const ui::App& app) { exposedApp = &app; }

}  // namespace attnviz::app

// The JSON text, valid until the next call (ccall copies it into a JS string at once).
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnviz_page_numbers() {
    static std::string text;
    text = attnviz::app::numbersJson().dump();
    return text.c_str();
}
