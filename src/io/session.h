// session.h — a lesson saved to a file: everything that defines the computation and the view, as JSON.
//
// A Session holds what the user chose (the ModelSpec's choices, the stage, head and colormaps on screen), the
// files of trained weights it uses (paths, not numbers) and the typed-in cells. The file is one JSON object:
//   {"schema_version": 1,
//    "inputs":  {"sentences": [...], "decoder_sentences": [], "d_model": 64, "heads": 8, "d_k": 0, "d_v": 0,
//                "seed": 42, "mask": "none|padding|causal|both", "fill": "-1e9|-inf", "softmax": "safe|pytorch",
//                "mask_padded_queries": false, "scale": null, "positional": true, "cls": false, "biases": false,
//                "token_limit": 64, "encoder_self_attention_first": false, "decoder_causal_self_attention_first": false},
//    "view":    {"stage": 0, "batch": 0, "head": 0, "sequential_colormap": "viridis", "diverging_colormap": "coolwarm"},
//    "weights": {"w_q": "w_q.npy", ..., "b_q": ..., "embeddings": "emb.npy", "vocabulary": "vocab.txt"},
//    "edits":   [{"matrix": "x|x_query|w_q|w_k|w_v|w_o", "batch": 0, "row": 1, "col": 2, "value": 0.5}],
//    "model":   {"source": "seeded|bundled|folder", "path": "models/gpt2", "layer": 0},
//    "heads_off": [{"layer": 1, "head": 3, "mode": "zero|mean"}],
//    "questions": [{"kind": "attended", "seed": 3, "batch": 0, "head": 2, "choices": 4, "truth": 1, "picked": 0,
//                   "counts": [5, 12, 4, 3]}]}
// A session without "model" is the seeded model's (as every session before trained models was); one without
// "heads_off" has every head on (it is written only when a head is off, so files without one open in older versions);
// one without "questions" has asked none (written only when a question was revealed, for the same reason).
// schema_version is required; every other member may be left out (it takes the default above); unknown members
// are refused, so a typo ("head" for "heads") is reported, not ignored.
// Paths: saveSession stores a weight file path relative to the session file's directory when the file lies in
// that directory or below it (a lesson folder can move), else absolute; loadSession resolves relative paths
// against the session file's directory. sessionToJson/sessionFromJson keep paths exactly as they are.
//
// ERRORS: every problem with a session is ONE io::FileError (the core's InputError messages are wrapped) whose
// message starts with the file's name and says what is wrong: unreadable file, invalid or truncated JSON (line and
// column), a wrong type ("inputs.heads must be a whole number"), a missing or unknown schema_version, sizes the
// core refuses (h = 10^9, d_model = −1), a view outside the model (head 9 of 8), an unknown colormap, an edit that
// is not finite or names an unknown matrix or a cell outside it, an incomplete set of weight files. Loading
// never changes anything it is given: it returns a fresh Session or throws. saveSession refuses (FileError, the
// old file untouched) a session that loading would refuse, so an autosave can always be opened again.
// What this file deliberately does not do: read the weight files (weight_files.h does; openSession combines
// both), keep window geometry or recent-file lists (the GUI's settings), or migrate other schema versions.
#pragma once

#include "core/model.h"
#include "io/weight_files.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::io {

inline constexpr int kSessionSchemaVersion = 1;

// What is on screen; plain numbers and names so io needs no ui.
struct ViewState {
    int stage = 0;  // core::StageId as its number: 0 (tokens) … core::kStageCount − 1 (output)
    int batch = 0;  // the sentence on screen, 0 … b − 1
    int head = 0;   // the focused head, 0 … h − 1
    std::string sequentialColormap = "viridis";  // colormap::name() of a sequential map (probabilities)
    std::string divergingColormap = "coolwarm";  // colormap::name() of a diverging map (signed values)
    friend bool operator==(const ViewState&, const ViewState&) = default;
};

// Which model the lesson uses: the seeded single layer, attnviz's bundled trained model, or a checkpoint folder.
struct ModelChoice {
    enum class Source { Seeded, Bundled, Folder };
    Source source = Source::Seeded;
    std::filesystem::path folder;  // Source::Folder only (stored relative to the session like weight files)
    int layer = 0;                 // the stepped layer of a trained model
    friend bool operator==(const ModelChoice&, const ModelChoice&) = default;
};

// One question of ask mode revealed during the lesson (ui/ask/ask_state.h): what was asked (its kind's word,
// core::questionKey, and where: the seed that dealt it, the sentence, the head), where the truth stood among its
// choices, the pick (none: nothing picked) and the class's counts (empty: none typed). Enough to keep a running
// score without the run, and to ask the same question again of the same run.
struct AskedQuestion {
    std::string kind = "attended";
    std::uint64_t seed = 0;
    int batch = 0;
    int head = 0;
    int choices = 4;  // 3 or 4
    int truth = 0;    // 0 … choices − 1
    std::optional<int> picked;
    std::vector<int> counts;  // empty or one per choice, each ≥ 0
    // Answered other than by a choice (picked empty): the word typed for a prediction ("tired"), or the cells clicked
    // for the mask question, row-major, '1' a cell marked removed ("0111001100010000"); `answeredRight` says whether
    // it was right (the word's first piece the model's most likely; every cell as the mask has it). Empty: not so.
    std::string typed;
    std::string cells;
    bool answeredRight = false;
    bool answered() const { return picked || !typed.empty() || !cells.empty(); }
    bool right() const { return picked ? *picked == truth : answered() && answeredRight; }
    friend bool operator==(const AskedQuestion&, const AskedQuestion&) = default;
};

struct Session {
    // [Inputs] core::ModelSpec's choices, with its defaults (toModelSpec / fromModelSpec translate).
    std::vector<std::string> sentences{std::string(core::kDefaultSentence)};
    std::vector<std::string> decoderSentences;  // empty: self-attention
    int dModel = 64;
    int heads = 8;
    int dK = 0;  // 0 → d_model / h
    int dV = 0;  // 0 → d_model / h
    std::uint64_t seed = 42;
    core::MaskKind mask = core::MaskKind::None;
    core::MaskFill fill = core::MaskFill::MinusBillion;
    core::SoftmaxMode softmax = core::SoftmaxMode::Safe;
    bool maskPaddedQueries = false;
    std::optional<float> scale;  // nullopt: 1/√d_k
    bool positional = true;
    bool prependCls = false;
    bool biases = false;  // with weight files: true exactly when bias files are given
    int tokenLimit = core::kDefaultTokenLimit;
    bool encoderSelfAttentionFirst = false;
    bool decoderCausalSelfAttentionFirst = false;
    std::optional<std::string> compareWith;  // "compare_with": the second sentence compared (none: compare off)
    core::CompareKind compareKind = core::CompareKind::Sentence;  // "compare": what B is (absent: another sentence)

    ViewState view;
    WeightFiles weightFiles;              // empty paths: seeded weights and embeddings
    std::vector<core::CellEdit> edits;    // X, X_query, W^Q, W^K, W^V, W^O cells, applied in order
    ModelChoice model;

    // [Heads off] core::ModelSpec::headsOff (a trained model only; layer and head checked against it on opening).
    std::vector<core::HeadAblation> headsOff;

    // [Questions] The lesson's questions revealed so far, in order (the running score counts their right picks).
    std::vector<AskedQuestion> questions;

    friend bool operator==(const Session&, const Session&) = default;
};

// Pretty-printed JSON (2-space indent, members in the order above, a final newline). Never throws for a
// session checkSession accepts.
std::string sessionToJson(const Session& session);
// Parses and checks; `fileNameForErrors` starts every error message.
Session sessionFromJson(std::string_view text, std::string_view fileNameForErrors);
// Everything sessionFromJson checks after parsing, for a Session built in memory (throws FileError naming `name`).
void checkSession(const Session& session, std::string_view name);

// Checks, then writes atomically (the old file survives any failure), with paths made relative (see above).
void saveSession(const std::filesystem::path& path, const Session& session);
// Reads and checks, with relative paths resolved against the file's directory.
Session loadSession(const std::filesystem::path& path);

// The inputs as the core takes them: sentences, sizes, and the seeded layer's options and cell edits (no file is
// read; weight files stay paths in the Session, and a trained model is opened apart: see openSession).
core::ModelSpec toModelSpec(const Session& session);
// The inputs of a spec (its trained model as a ModelChoice, with the seeded layer's defaults), with the default
// view and no weight files. The numbers of the seeded layer's customWeights and embeddingTable are not kept: a
// session names their files, which the caller sets in weightFiles.
Session fromModelSpec(const core::ModelSpec& spec);

// What "Open…" and `--session FILE` need, all or nothing: the loaded session and its ModelSpec with the weight
// files' numbers in (withWeightFiles). Throws FileError naming the session or the weight file at fault.
struct OpenedSession {
    Session session;
    core::ModelSpec spec;
};
OpenedSession openSession(const std::filesystem::path& path);
// openSession in its steps, for the GUI, which opens a named model folder on a worker (io/model_library.h):
// the model `choice` names through the model library (null for the seeded model; throws FileError naming
// `session`), then the session with that model, its layer checked (throws FileError).
std::shared_ptr<const core::TrainedModel> openSessionModel(const ModelChoice& choice, const std::filesystem::path& session);
OpenedSession openedSession(Session session, std::shared_ptr<const core::TrainedModel> model, const std::filesystem::path& path);
// "'<session>': names a model that cannot be opened: <error>".
std::string unopenedModelProblem(const std::filesystem::path& session, std::string_view error);

}  // namespace attnviz::io
