// gui_settings.cpp — the session file (JSON) in the XDG state folder. See gui_settings.h.
#include "app/gui_settings.h"

#include "core/attention.h"
#include "core/display_text.h"
#include "core/names.h"
#include "io/atomic_file.h"
#include "io/model_library.h"
#include "io/safe_read.h"
#include "ui/session/session_actions.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <system_error>

namespace attnviz::app {
namespace {

using nlohmann::json;

template <typename T>
void read(const json& object, const char* key, T& value) {
    if (!object.is_object() || !object.contains(key)) return;
    try {
        value = object.at(key).get<T>();
    } catch (const json::exception&) {
        // Wrong type: keep the default.
    }
}

// Enums are stored by name, so the file reads well and survives reordered enums: core's by core/names.h's tables,
// the projection by its own.
constexpr std::array<core::EnumName<ui::Projection>, 4> kProjections{
    {{ui::Projection::All, "qkv"}, {ui::Projection::Query, "q"}, {ui::Projection::Key, "k"}, {ui::Projection::Value, "v"}}};

template <typename Enum, std::size_t N>
void readEnum(const json& object, const char* key, Enum& value, const std::array<core::EnumName<Enum>, N>& names) {
    std::string text;
    read(object, key, text);
    if (const std::optional<Enum> named = core::valueNamed(text, names)) value = *named;
}

void readColormap(const json& object, const char* key, colormap::Colormap& value) {
    std::string text;
    read(object, key, text);
    if (const auto map = colormap::findColormap(text)) value = *map;
}

void readStage(const json& object, core::StageId& stage) {
    std::string text;
    read(object, "stage", text);
    if (const auto found = core::findStage(text)) stage = *found;
}

json viewJson(const ui::AppState& s) {
    return {{"stage", core::stage(s.stage).key}, {"head", s.head}, {"allHeads", s.allHeads},
            {"projection", std::string(core::nameOf(s.projection, kProjections))}, {"sequential", colormap::name(s.sequential)},
            {"probabilityScale", colormap::name(s.probabilityScale)},
            {"diverging", colormap::name(s.diverging)}, {"showValues", s.showValues}, {"showControls", s.showControls},
            {"showSidePanel", s.showSidePanel}, {"secondsPerStage", s.secondsPerStage}, {"zoom", s.zoom}, {"exportDirectory", s.exportDirectory}};
}

void readView(const json& v, ui::AppState& s) {
    readStage(v, s.stage);
    read(v, "head", s.head);
    read(v, "allHeads", s.allHeads);
    readEnum(v, "projection", s.projection, kProjections);
    readColormap(v, "sequential", s.sequential);
    readColormap(v, "diverging", s.diverging);
    std::string scale;
    read(v, "probabilityScale", scale);
    if (const auto found = colormap::findProbabilityScale(scale)) s.probabilityScale = *found;
    read(v, "showValues", s.showValues);
    read(v, "showControls", s.showControls);
    read(v, "showSidePanel", s.showSidePanel);
    read(v, "secondsPerStage", s.secondsPerStage);
    read(v, "zoom", s.zoom);
    if (!std::isfinite(s.zoom)) s.zoom = 1.0f;
    s.zoom = std::clamp(s.zoom, ui::kZoomSteps[0], ui::kZoomSteps[std::size(ui::kZoomSteps) - 1]);
    read(v, "exportDirectory", s.exportDirectory);
}

// "random", "bundled" or the model folder (SavedSession::model).
std::string modelKey(const core::ModelSpec& spec) {
    const core::TrainedModel* model = spec.trainedModel();
    if (!model) return "random";
    return model->bundled ? "bundled" : model->folder;
}

json inputsJson(const core::ModelSpec& spec) {
    const core::AttentionConfig& a = spec.attention;
    const core::SeededLayer& seeded = core::seededChoices(spec);
    const int layer = spec.trained() ? spec.trained()->layer : 0;
    return {{"model", modelKey(spec)}, {"layer", layer},
            {"sentences", spec.sentences}, {"dModel", a.dModel}, {"heads", a.heads}, {"seed", seeded.seed},
            {"positional", seeded.positional}, {"cls", seeded.prependCls}, {"mask", std::string(core::nameOf(a.mask))},
            {"fill", std::string(core::nameOf(a.fill))}, {"softmax", std::string(core::nameOf(a.softmax))}};
}

void readInputs(const json& in, SavedSession& session) {
    std::string model = "random";  // settings from before trained models were the seeded model's
    read(in, "model", model);
    session.model = model;
    read(in, "layer", session.layer);
    core::ModelSpec& spec = session.state.spec;  // the seeded layer: restoreInputs opens a saved model
    core::AttentionConfig& a = spec.attention;
    core::SeededLayer& seeded = *spec.seeded();
    read(in, "sentences", spec.sentences);
    read(in, "dModel", a.dModel);
    read(in, "heads", a.heads);
    read(in, "seed", seeded.seed);
    read(in, "positional", seeded.positional);
    read(in, "cls", seeded.prependCls);
    readEnum(in, "mask", a.mask, core::kMaskKindNames);
    readEnum(in, "fill", a.fill, core::kMaskFillNames);
    readEnum(in, "softmax", a.softmax, core::kSoftmaxModeNames);
}

json recentJson(const std::vector<std::filesystem::path>& recent) {
    json list = json::array();
    for (const std::filesystem::path& file : recent) list.push_back(file.string());
    return list;
}

// File ▸ Open Recent (key "recent") and Open Recent Model ("recent_models"): absolute paths only (a relative one
// would depend on where attnviz was started), at most ui::kMaxRecentFiles.
void readRecent(const json& root, const char* key, std::vector<std::filesystem::path>& recent) {
    std::vector<std::string> files;
    read(root, key, files);
    for (const std::string& file : files) {
        if (std::filesystem::path(file).is_absolute() && recent.size() < ui::kMaxRecentFiles) recent.emplace_back(file);
    }
}

}  // namespace

std::optional<std::filesystem::path> stateDirectory() {
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg == '/') {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        base = std::filesystem::path(home) / ".local" / "state";
    } else {
        return std::nullopt;
    }
    const std::filesystem::path dir = base / "attnviz";
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) return std::nullopt;
    return dir;
}

SavedSession loadSession(const std::filesystem::path& file, const SavedSession& defaults) {
    SavedSession session = defaults;
    std::string text;
    try {
        text = io::readJsonFile(file, io::kMaxSessionBytes);
    } catch (const io::FileError&) {
        return session;
    }
    const json root = json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) return session;
    if (root.contains("window")) {
        read(root["window"], "width", session.window.width);
        read(root["window"], "height", session.window.height);
    }
    if (root.contains("view")) readView(root["view"], session.state);
    if (root.contains("inputs")) readInputs(root["inputs"], session);
    readRecent(root, "recent", session.state.session.recent);
    readRecent(root, "recent_models", session.state.session.recentModels);
    return session;
}

bool saveSession(const std::filesystem::path& file, const SavedSession& session) {
    const json root = {{"window", {{"width", session.window.width}, {"height", session.window.height}}},
                       {"view", viewJson(session.state)},
                       {"inputs", inputsJson(session.state.spec)},
                       {"recent", recentJson(session.state.session.recent)},
                       {"recent_models", recentJson(session.state.session.recentModels)}};
    const std::filesystem::path temporary = file.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        if (!(out << root.dump(2) << '\n')) return false;
    }
    std::error_code error;
    std::filesystem::rename(temporary, file, error);
    return !error;
}

namespace {

// The seeded model's own inputs, as last saved.
void restoreSeededInputs(const SavedSession& saved, ui::AppState& state) {
    const core::ModelSpec& from = saved.state.spec;
    core::ModelSpec& to = state.spec;
    const core::SeededLayer& last = core::seededChoices(from);
    core::SeededLayer& seeded = *to.seeded();  // useRandomWeights made it the seeded layer
    seeded.seed = last.seed;
    seeded.positional = last.positional;
    seeded.prependCls = last.prependCls;
    to.attention.mask = from.attention.mask;
    to.attention.fill = from.attention.fill;
    to.attention.softmax = from.attention.softmax;
    // Sizes only as a valid pair, so an edited file cannot start the app with an error.
    const std::vector<int> valid = core::validHeadCounts(std::clamp(from.attention.dModel, 1, core::kMaxDModel));
    if (std::find(valid.begin(), valid.end(), from.attention.heads) != valid.end() && from.attention.dModel <= core::kMaxDModel) {
        to.attention.dModel = from.attention.dModel;
        to.attention.heads = from.attention.heads;
    }
}

bool isModelFolder(const std::optional<std::string>& model) { return model && *model != "random" && *model != "bundled"; }

// The bundled model when it was last on screen, or null (with a status line) when it cannot be opened any more. A
// model folder is not opened here: requestRememberedModel asks for it once the window is up.
std::shared_ptr<const core::TrainedModel> savedModel(const SavedSession& saved, const ui::AppState& state, std::string& status) {
    if (saved.model != "bundled") return nullptr;
    if (const core::TrainedLayer* trained = state.spec.trained(); trained && trained->model->bundled) return trained->model;
    try {
        return io::loadBundledModel();
    } catch (const io::FileError& error) {
        status = std::string("The model last used could not be opened: ") + error.what();
        return nullptr;
    }
}

}  // namespace

void restoreInputs(const SavedSession& saved, ui::AppState& state) {
    if (!saved.model) return;  // nothing saved yet: the command line's (or the bundled) model and sentence
    if (!saved.state.spec.sentences.empty()) state.spec.sentences = saved.state.spec.sentences;
    if (saved.model == "random") {
        ui::useRandomWeights(state);
        restoreSeededInputs(saved, state);
        return;
    }
    if (isModelFolder(saved.model)) return;  // opened in the background once the window is up
    std::string status;
    std::shared_ptr<const core::TrainedModel> model = savedModel(saved, state, status);
    if (!model) {
        state.status = status;
        return;  // the command line's model stays
    }
    if (model.get() != state.spec.trainedModel()) ui::useTrainedModel(model, state);
    if (saved.layer >= 0 && saved.layer < model->config().layers) state.spec.trained()->layer = saved.layer;
}

void requestRememberedModel(const SavedSession& saved, const std::filesystem::path& marker, ui::AppState& state) {
    if (!isModelFolder(saved.model)) return;
    std::error_code error;
    if (std::filesystem::exists(marker, error)) {
        std::filesystem::remove(marker, error);
        state.status = "attnviz ended while opening " + core::echoed(*saved.model) +
                       " at its last start, so it opened the bundled model this time (Open Recent Model tries that folder again).";
        return;
    }
    try {
        io::writeFileAtomically(marker, *saved.model);
    } catch (const io::FileError&) {
        // No marker (a read-only state folder): the folder still opens, only a crash would go unnoticed.
    }
    state.session.request = {ui::SessionAction::OpenRecentModel, *saved.model, {}, saved.layer};
}

void followRememberedModel(const std::filesystem::path& marker, const ui::AppState& state) {
    if (state.session.request.action == ui::SessionAction::OpenRecentModel || !state.session.openingModel.empty()) return;
    std::error_code error;
    std::filesystem::remove(marker, error);
}

DrawingMarker::DrawingMarker(std::filesystem::path file) : file_(std::move(file)) {
    std::error_code error;
    lastStartDied_ = std::filesystem::exists(file_, error);
    try {
        io::writeFileAtomically(file_, "the inputs of this start have not been drawn yet\n");
        armed_ = true;
    } catch (const io::FileError&) {
        // A read-only state folder: this start still runs, only a crash in it would go unnoticed.
    }
}

void DrawingMarker::afterFrame(const ui::AppState& state, bool computing) {
    if (!armed_) return;
    const bool opening = state.session.request.action == ui::SessionAction::OpenRecentModel || !state.session.openingModel.empty();
    settledFrames_ = !computing && !opening ? settledFrames_ + 1 : 0;
    if (settledFrames_ >= 3) remove();
}

void DrawingMarker::remove() {
    std::error_code error;
    std::filesystem::remove(file_, error);
    armed_ = false;
}

void restoreView(const SavedSession& saved, ui::AppState& state) {
    const ui::AppState& from = saved.state;
    state.stage = from.stage;
    state.head = from.head;
    state.allHeads = from.allHeads;
    state.projection = from.projection;
    state.sequential = from.sequential;
    state.diverging = from.diverging;
    state.probabilityScale = from.probabilityScale;
    state.showValues = from.showValues;
    // The side panels are not restored: hidden for one lecture, they would greet the next start stripped down with
    // nothing saying how to get them back.
    state.secondsPerStage = from.secondsPerStage;
    state.zoom = from.zoom;
    state.exportDirectory = from.exportDirectory;
}

}  // namespace attnviz::app
