// dump.h — `attnviz dump`: every number of one forward pass as .npy files plus a manifest.json that explains them.
//
// A dump folder holds one <key>.npy per non-empty Trace tensor (x, q, q_heads, scores, …, output; the key is
// core::tensorInfo(id).key), the biases b_q b_k b_v b_o when the model has them (1-D, as nn.Linear.bias),
// embeddings.npy (b × l_k × d_model, E[ids] without positions), query_embeddings.npy (cross-attention only),
// positions.npy (max(l_q, l_k) × d_model), and manifest.json: program and version, every parameter, the
// sentences, tokens and lengths, and for each file its tensor key, symbol, meaning and shape. A trained model's
// dump (spec.trained) holds the stepped layer's files as above, plus hidden_states.npy ((n_layers + 1) × b × l ×
// d_model) and all_attention_weights.npy (n_layers × b × h × l × l), and the manifest adds token_ids (one list per
// sentence) and model (type, name, path, layer, n_layers, config values). Every file is
// written atomically; manifest.json is written last, so a folder with a manifest is complete.
// What this file deliberately does not do: compute anything (it writes the ModelRun it is given), read dumps
// back, or delete files it did not write in some dump (see writeDump's `force`).
#pragma once

#include "core/model.h"

#include <filesystem>
#include <vector>

namespace attnviz::io {

// Writes the dump of `run` into `dir` (created with its parents when missing) and returns the paths written, in
// order, manifest.json last. A non-empty existing `dir` is refused unless `force`; with `force`, files a dump
// would write are replaced and dump files this run does not produce (say x_query.npy from an earlier
// cross-attention dump) are removed so the folder matches its manifest; other files are left alone.
// Throws FileError naming the path and the reason.
std::vector<std::filesystem::path> writeDump(const core::ModelRun& run, const std::filesystem::path& dir, bool force);

}  // namespace attnviz::io
