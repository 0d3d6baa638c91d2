// session_actions.cpp — AppState ⇄ io::Session, opening, weight folders, recent files, title. See session_actions.h.
#include "ui/session/session_actions.h"

#include "io/model_folder.h"
#include "io/npy.h"

#include <algorithm>
#include <array>

namespace attnviz::ui {
namespace fs = std::filesystem;

namespace {

fs::path existing(const fs::path& folder, const char* name) {
    std::error_code error;
    const fs::path path = folder / name;
    return fs::is_regular_file(path, error) ? path : fs::path();
}

// The d_model W^Q's file says (its row count), if it can be read and differs from the spec's.
std::optional<int> dModelOfWeights(const io::WeightFiles& files, const core::ModelSpec& spec) {
    if (!files.hasWeights()) return std::nullopt;
    try {
        const core::Tensor wq = io::readNpy(files.wq);
        if (wq.rank() != 2 || wq.dim(0) == spec.attention.dModel) return std::nullopt;
        return wq.dim(0);
    } catch (const io::FileError&) {
        return std::nullopt;  // loading reports it, with the file's name
    }
}

// The spec with the files' numbers in; the files replace every trained part (what they lack becomes seeded).
core::ModelSpec withFolder(core::ModelSpec spec, const io::WeightFiles& files) {
    if (core::SeededLayer* seeded = spec.seeded()) {
        seeded->customWeights.reset();
        seeded->embeddingTable.reset();
    }
    try {
        return io::withWeightFiles(std::move(spec), files);
    } catch (const core::InputError& error) {
        throw io::FileError(std::string("These weights need valid sizes first: ") + error.what());
    }
}

std::string loadedParts(const core::ModelSpec& spec, const io::WeightFiles& files) {
    std::string parts;
    if (files.hasWeights()) parts = files.hasBiases() ? "W^Q, W^K, W^V, W^O, biases" : "W^Q, W^K, W^V, W^O";
    if (files.hasEmbeddings()) {
        if (!parts.empty()) parts += " and ";
        parts += std::to_string(spec.seeded()->embeddingTable->rows.rows()) + " embeddings";
    }
    return parts;
}

}  // namespace

io::Session sessionOf(const AppState& state) {
    io::Session session = io::fromModelSpec(state.spec);
    session.view = {static_cast<int>(state.stage), state.batch, state.head, std::string(colormap::name(state.sequential)),
                    std::string(colormap::name(state.diverging))};
    session.weightFiles = state.session.weightFiles;
    session.questions = state.ask.asked;
    return session;
}

bool sameDocument(const io::Session& a, const io::Session& b) {
    io::Session withView = b;
    withView.view = a.view;
    return a == withView;
}

void applyView(const io::ViewState& view, AppState& state) {
    state.stage = static_cast<core::StageId>(std::clamp(view.stage, 0, core::kStageCount - 1));
    state.batch = view.batch;
    state.head = view.head;
    if (const auto map = colormap::findColormap(view.sequentialColormap)) state.sequential = *map;
    if (const auto map = colormap::findColormap(view.divergingColormap)) state.diverging = *map;
}

void applyOpenedSession(io::OpenedSession opened, const fs::path& file, AppState& state) {
    state.spec = std::move(opened.spec);
    state.session.weightFiles = opened.session.weightFiles;
    state.ask.asked = opened.session.questions;  // the opened lesson's questions and score, not the last one's
    applyView(opened.session.view, state);
    state.pinned.reset();
    state.hovered.reset();
    state.session.file = file;
    state.session.saved = std::move(opened.session);
}

void addRecent(std::vector<fs::path>& recent, const fs::path& file) {
    recent.erase(std::remove(recent.begin(), recent.end(), file), recent.end());
    recent.insert(recent.begin(), file);
    if (recent.size() > kMaxRecentFiles) recent.resize(kMaxRecentFiles);
}

std::string windowTitle(const AppState& state) {
    const SessionState& s = state.session;
    if (s.file.empty() && !s.modified) return "attnviz — multi-head attention, one matrix at a time";
    const std::string name = s.file.empty() ? "untitled" : s.file.filename().string();
    return name + (s.modified ? " •" : "") + " — attnviz";
}

bool mayClose(const AppState& state) { return !state.session.modified || state.session.closeConfirmed; }

// A model folder judged by what it is: the files a HuggingFace folder has, looked up by name only (nothing is
// read while the path is typed: a file there could be a FIFO or huge; opening checks the contents).
FolderCheck checkModelFolder(const fs::path& folder) {
    std::error_code error;
    if (!fs::is_directory(folder, error)) return {"No folder here yet.", true};
    const auto has = [&](const char* name) { return fs::is_regular_file(folder / name, error); };
    if (!has("config.json")) return {"No config.json here: a model folder has config.json, model.safetensors and its tokenizer's files.", true};
    const bool weights = has("model.safetensors") || has("model.safetensors.index.json");
    if (!weights) {
        return {has("pytorch_model.bin") ? "Only pytorch_model.bin here: attnviz reads model.safetensors (docs/models.md converts it)."
                                         : "No model.safetensors here.", true};
    }
    const bool tokenizer = has("tokenizer.json") || has("vocab.txt") || (has("vocab.json") && has("merges.txt"));
    if (!tokenizer) return {"No tokenizer here: tokenizer.json, vocab.txt, or vocab.json with merges.txt.", true};
    return {"A model folder: config.json, its weights and its tokenizer."};
}

io::WeightFiles weightFilesIn(const fs::path& folderOrFile) {
    std::error_code error;
    const fs::path folder = fs::absolute(fs::is_directory(folderOrFile, error) ? folderOrFile : folderOrFile.parent_path(), error);
    if (!fs::is_directory(folder, error)) throw io::FileError("'" + folderOrFile.string() + "' is not a folder.");
    io::WeightFiles f;
    f.wq = existing(folder, "w_q.npy"), f.wk = existing(folder, "w_k.npy"), f.wv = existing(folder, "w_v.npy"), f.wo = existing(folder, "w_o.npy");
    f.bq = existing(folder, "b_q.npy"), f.bk = existing(folder, "b_k.npy"), f.bv = existing(folder, "b_v.npy"), f.bo = existing(folder, "b_o.npy");
    f.embeddings = existing(folder, "embeddings.npy");
    f.vocabulary = existing(folder, "vocab.txt");
    if (f == io::WeightFiles{}) {
        throw io::FileError("'" + folder.string() + "' holds none of w_q.npy, w_k.npy, w_v.npy, w_o.npy, embeddings.npy and vocab.txt "
                            "(see docs/loading-weights.md).");
    }
    if (const auto problem = io::incompleteWeightFiles(f)) throw io::FileError("'" + folder.string() + "': " + *problem);
    return f;
}

LoadedWeights loadWeightsFolder(const core::ModelSpec& spec, const fs::path& folder) {
    const io::WeightFiles files = weightFilesIn(folder);
    core::ModelSpec sized = spec;
    std::string resized;
    if (const std::optional<int> dModel = dModelOfWeights(files, spec); dModel && *dModel % spec.attention.heads == 0) {
        sized.attention.dModel = *dModel;
        resized = " (d_model " + std::to_string(spec.attention.dModel) + " → " + std::to_string(*dModel) +
                  " to fit them; the files cannot tell the head count: set h to the trained layer's)";
    }
    core::ModelSpec loaded = withFolder(std::move(sized), files);
    const std::string summary = "Loaded " + loadedParts(loaded, files) + " from " + weightsFolderName(files) + resized + ".";
    return {std::move(loaded), files, summary};
}

void applyLoadedWeights(LoadedWeights loaded, AppState& state) {
    state.spec = std::move(loaded.spec);
    state.session.weightFiles = std::move(loaded.files);
    state.status = std::move(loaded.summary);
}

void useSeededWeights(AppState& state) {
    if (core::SeededLayer* seeded = state.spec.seeded()) {
        seeded->customWeights.reset();
        seeded->embeddingTable.reset();
    }
    state.session.weightFiles = {};
    state.status = "Back to seeded weights and embeddings (seed " + std::to_string(core::seededChoices(state.spec).seed) + ").";
}

void useTrainedModel(std::shared_ptr<const core::TrainedModel> model, AppState& state) {
    core::ModelSpec& spec = state.spec;
    state.session.weightFiles = {};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    spec.attention.dK = 0;
    spec.attention.dV = 0;
    spec.attention.scale.reset();
    const core::NamedHead* featured = model->featuredHead();
    state.head = featured ? featured->head : 0;
    // The question views teach on the seeded layer, except the one that compares a trained model with its untrained self,
    // "How does it copy?", which opens attnviz's own decoder, and "Through the layers" and "Head roles", which read the open model's.
    // Choosing a model while another view is open is the user's own choice: the view closes without undoing it.
    if (state.lesson.open != Lesson::None && state.lesson.open != Lesson::Training && state.lesson.open != Lesson::Copy &&
        state.lesson.open != Lesson::Layers && state.lesson.open != Lesson::Roles) {
        state.lesson.open = Lesson::None;
        state.lesson.returnTo.reset();
    }
    state.status = "Opened " + model->name + ": " + model->familyName() + ", " + std::to_string(model->config().layers) +
                   " layers × " + std::to_string(model->config().heads) + " heads, d_model " + std::to_string(model->config().dModel) + ".";
    const int layer = model->featuredLayer();
    spec.model = core::TrainedLayer{std::move(model), layer};
    spec.headsOff.clear();  // another model's heads
}

void useRandomWeights(AppState& state) {
    core::ModelSpec& spec = state.spec;
    if (!spec.seeded()) spec.model = core::SeededLayer{};
    spec.attention = core::AttentionConfig{};
    spec.headsOff.clear();  // the seeded layer has none to switch off
}

std::string weightsFolderName(const io::WeightFiles& files) {
    const fs::path& any = files.hasWeights() ? files.wq : files.embeddings;
    if (any.empty()) return {};
    return any.parent_path().filename().string() + "/";
}

}  // namespace attnviz::ui
