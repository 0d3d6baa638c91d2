// dump.h — `attnviz dump`: every number of one forward pass as .npy files plus a manifest.json that explains them.
//
// A dump folder holds one <key>.npy per non-empty Trace tensor (x, q, q_heads, scores, …, output; the key is
// core::tensorInfo(id).key), the biases b_q b_k b_v b_o when the model has them (1-D, as nn.Linear.bias),
// embeddings.npy (b × l_k × d_model, E[ids] without positions), query_embeddings.npy (cross-attention only),
// positions.npy (max(l_q, l_k) × d_model), and manifest.json: program and version, every parameter, the
// sentences, tokens and lengths, and for each file its tensor key, symbol, meaning and shape. A trained model's
// dump (spec.trained()) holds the stepped layer's files as above, plus hidden_states.npy ((n_layers + 1) × b × l ×
// d_model) and all_attention_weights.npy (n_layers × b × h × l × l), and the manifest adds token_ids (one list per
// sentence) and model (type, name, path, layer, n_layers, config values), and predictions: what the model predicts
// at every position (decoders: the next token; BERT with a masked-word head: the word there, a [MASK]'s fill), its
// top k at a temperature with probabilities and logits, or for a BERT folder without a head, why not; with
// PredictionOptions::logits also logits.npy (b × l × vocab). Every file is
// written atomically; manifest.json is written last, so a folder with a manifest is complete.
// Issue 35's analyses, when asked (AnalysisOptions; a trained model only): logit_lens_top_ids.npy and
// logit_lens_top_logprobs.npy ((n_layers + 1) × b × l × k, core/transformer/logit_lens.h; padded positions id −1,
// log-probability 0) and with `logits` logit_lens_logprobs.npy ((n_layers + 1) × b × l × vocab, refused over 1 GiB);
// rollout.npy (n_layers × b × l × l, core/transformer/rollout.h); head_roles.json (every layer × head's
// head_detector scores, core/head_measures.h, on sentence 1 and on random tokens repeated twice). A run with heads
// switched off (ModelSpec::headsOff) is dumped as run, and the manifest lists them.
// What this file deliberately does not do: compute anything but the predictions from the run's final hidden
// states (core/transformer/prediction.h), read dumps
// back, or delete files it did not write in some dump (see writeDump's `force`).
#pragma once

#include "core/model.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace attnviz::io {

// A trained model's predictions in the dump: the top k at a temperature in the manifest, the logits when asked.
struct PredictionOptions {
    bool logits = false;  // logits.npy: b × l × vocab
    int topK = 10;
    float temperature = 1.0f;
};

// Issue 35's analyses to add to the dump.
struct AnalysisOptions {
    bool logitLens = false;  // logit_lens_top_*.npy (k = PredictionOptions::topK), with logits: logit_lens_logprobs.npy
    bool rollout = false;    // rollout.npy
    bool headRoles = false;  // head_roles.json
    std::uint64_t maxLensBytes = 1ULL << 30;  // logit_lens_logprobs.npy's cap: 1 GiB (tests lower it)
};

// Writes the dump of `run` into `dir` (created with its parents when missing) and returns the paths written, in
// order, manifest.json last. The dump is written into a new folder beside `dir` and swapped in at the end, so a
// failure or a kill leaves `dir` as it was (and the hidden folder a killed dump left beside `dir` is swept by the
// next dump into `dir`). A non-empty existing `dir` is refused unless `force`; with `force`, the
// old dump files all go (say x_query.npy from an earlier cross-attention dump), so the folder matches its manifest;
// other files and folders are kept. A `dir` that holds any of `inputs` (the files and folders the run read: a
// session, its weight files, a model folder) is refused, forced or not.
// Throws FileError naming the path and the reason; core::InputError, before anything is written, for logits of a
// run that predicts nothing (the seeded layer, BERT without a head) or a bad k or temperature; also for an analysis of
// the seeded layer, a lens of a model that predicts nothing, or every lens log-probability over maxLensBytes (the
// size said).
std::vector<std::filesystem::path> writeDump(const core::ModelRun& run, const std::filesystem::path& dir, bool force,
                                             const PredictionOptions& predictions = {}, const std::vector<std::filesystem::path>& inputs = {},
                                             const AnalysisOptions& analyses = {});

}  // namespace attnviz::io
