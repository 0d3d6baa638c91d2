// cli_options.cpp — the input options every subcommand shares, and their translation into a ModelSpec.
#include "app/cli_options.h"

#include "core/compare.h"
#include "core/display_text.h"
#include "core/names.h"
#include "io/model_folder.h"
#include "io/model_library.h"
#include "io/session.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

namespace attnviz::app {
namespace {

// The value an option's text names in core's table (core/names.h); a name not in it is refused with the choices.
template <typename Enum, std::size_t N>
Enum parseNamed(std::string_view option, std::string_view text, const std::array<core::EnumName<Enum>, N>& names) {
    if (const std::optional<Enum> value = core::valueNamed(text, names)) return *value;
    throw core::InputError(std::string(option) + " must be " + core::namesListed(names) + " (got \"" + std::string(text) + "\").");
}

core::CompareKind parseCompareKind(std::string_view text) { return parseNamed("--compare", text, core::kCompareKindNames); }
core::MaskKind parseMask(std::string_view text) { return parseNamed("--mask", text, core::kMaskKindNames); }
core::MaskFill parseFill(std::string_view text) { return parseNamed("--fill", text, core::kMaskFillNames); }
core::SoftmaxMode parseSoftmax(std::string_view text) { return parseNamed("--softmax", text, core::kSoftmaxModeNames); }

}  // namespace

void addInputOptions(CLI::App& command, InputOptions& o) {
    command.add_option("-s,--sentence", o.sentence, "The sentence to attend over")->capture_default_str();
    command.add_option("--batch", o.batch, "Several sentences padded into one batch (replaces --sentence)");
    command.add_option("--compare-with", o.compareWith, "A second sentence beside --sentence: the window shows A, B and A - B (C toggles); export --kind compare draws them");
    command.add_option("--compare", o.compare,
                       "What B is beside A: sentence (--compare-with, the default) | heads-off (the sentence with every head on, A the run "
                       "with --ablate's heads off, or those switched off in the window) | untrained (the sentence through the same model "
                       "untrained, weights redrawn at initialisation with seed 42; trained models)");
    command.add_option("--cross", o.cross, "Decoder sentence(s) for cross-attention: queries from these, keys/values from --sentence/--batch");
    command.add_option("--d-model", o.dModel, "Model width d_model")->capture_default_str();
    command.add_option("--heads", o.heads, "Number of heads h (must divide d_model unless --d-k/--d-v are given; a trained model's heads are re-split)")->capture_default_str();
    command.add_option("--d-k", o.dK, "Width of each head's queries and keys (default d_model / h)");
    command.add_option("--d-v", o.dV, "Width of each head's values (default d_model / h)");
    command.add_option("--seed", o.seed, "Seed for embeddings and weights")->capture_default_str();
    command.add_option("--mask", o.mask, "none | padding | causal | both")->capture_default_str();
    command.add_option("--fill", o.fill, "Masked score value: -1e9 | -inf")->capture_default_str();
    command.add_option("--softmax", o.softmax, "Fully masked rows: safe (zeros, flagged) | pytorch (as PyTorch computes)")->capture_default_str();
    command.add_option("--score-scale", o.scale, "Multiply scores by this instead of 1/sqrt(d_k)");
    command.add_flag("--cls", o.cls, "Prepend a [CLS] token");
    command.add_flag("--no-positional", o.noPositional, "Leave out the positional encoding");
    command.add_flag("--biases", o.biases, "Linear layers with biases");
    command.add_option("--token-limit", o.tokenLimit, "Most tokens per sentence (1-2048)")->capture_default_str();
    command.add_option("--model", o.model,
                       "A HuggingFace GPT-2, BERT, Llama, Mistral, Qwen2 or Qwen3 folder (config.json, model.safetensors or shards, "
                       "tokenizer files), a Hub repo id such as gpt2 or ORG/NAME[@REVISION] (from the Hugging Face cache; downloaded "
                       "first when not cached), attnviz-mini-llama for attnviz's bundled decoder (a small trained Llama), attnviz-mini-bert "
                       "for its bundled BERT, or \"random\" for the seeded single layer (default: attnviz's bundled BERT)");
    command.add_option("--layer", o.layer, "The layer of a trained model to step through (0-based)");
    // A session holds every input; mixing it with single input options would leave it unclear which wins.
    CLI::Option* session = command.add_option("--session", o.session, "Take every input from a saved session file (.json)");
    o.inputOptionNames.clear();  // the same names for every subcommand
    for (CLI::Option* option : command.get_options()) {
        if (option != session && option->get_group() == session->get_group() && !option->check_name("--help")) {
            session->excludes(option);
            o.inputOptionNames.push_back(option->get_name());
        }
    }
    o.inputOptionNames.push_back(session->get_name());
}

void noteGivenOptions(const CLI::App& command, InputOptions& o) {
    for (const std::string& name : o.inputOptionNames) {
        if (command.count(name) > 0) o.anyGiven = true;
    }
    o.headsGiven = command.count("--heads") > 0;
    // --heads is not among them: with a trained model it re-splits its heads, as the app's head count does.
    for (const char* name : {"--d-model", "--d-k", "--d-v", "--seed", "--mask", "--score-scale", "--cls",
                             "--no-positional", "--biases", "--cross"}) {
        if (command.count(name) > 0) o.seededOptionsGiven = true;
    }
}

namespace {

// The trained model to open, or null for the seeded single layer.
std::shared_ptr<const core::TrainedModel> chosenModel(const InputOptions& o) {
    if (o.model == kRandomModel) return nullptr;
    if (o.model == io::kBundledModelName) return io::loadBundledModel();  // by name: the bundled model, as with no --model
    if (!o.model.empty()) {
        const io::ModelArgument argument = io::parseModelArgument(o.model);
        io::ModelLibrary library;
        return library.openNow(argument.repo ? findOrFetchWithProgressLine(*argument.repo) : argument.folder);
    }
    if (o.seededOptionsGiven) return nullptr;  // --d-model, --seed, --mask, …: the seeded layer's own options
    return io::loadBundledModel();
}

// The seeded model's options make no sense with a trained one: say so rather than ignore them.
void refuseSeededOptions(const InputOptions& o, const core::TrainedModel& model) {
    if (!o.cross.empty()) throw core::InputError("--cross is for the seeded model (--model random): " + model.name + " attends within one sentence.");
}

}  // namespace

void fetchInWindow(InputOptions& inputs, GuiOptions& gui) {
    if (inputs.model.empty() || inputs.model == kRandomModel) return;
    const io::ModelArgument argument = io::parseModelArgument(inputs.model);
    if (!argument.repo || io::findCachedSnapshot(io::hubCacheDir(), *argument.repo)) return;
    gui.fetchRepo = std::exchange(inputs.model, {});
    gui.fetchLayer = std::exchange(inputs.layer, -1);
}

std::string resplitNote(const core::ModelSpec& spec) {
    const core::TrainedModel* trained = spec.trainedModel();
    if (!trained || spec.attention.heads == trained->config().heads) return {};
    const core::TrainedModel& model = *trained;
    return "these " + std::to_string(spec.attention.heads) + " heads are a re-split of the trained W^Q, W^K, W^V (Q, K, V unchanged), not the " +
           std::to_string(model.config().heads) + " heads " + model.name + " learned.";
}

std::vector<std::filesystem::path> inputPaths(const InputOptions& o, const core::ModelSpec& spec) {
    std::vector<std::filesystem::path> paths;
    if (o.session) {
        paths.push_back(*o.session);
        const io::Session session = io::loadSession(*o.session);
        const io::WeightFiles& files = session.weightFiles;
        for (const std::filesystem::path* file : {&files.wq, &files.wk, &files.wv, &files.wo, &files.bq, &files.bk, &files.bv, &files.bo,
                                                   &files.embeddings, &files.vocabulary, &session.model.folder}) {
            if (!file->empty()) paths.push_back(*file);
        }
    }
    if (const core::TrainedModel* model = spec.trainedModel(); model && !model->folder.empty()) paths.emplace_back(model->folder);
    return paths;
}

namespace {

// --compare and --compare-with into spec (whose sentences are set): compare on with B as they say, or off.
void applyCompareOptions(const InputOptions& o, core::ModelSpec& spec) {
    spec.compareWith = o.compareWith;
    if (o.compare.empty()) return;
    spec.compareKind = parseCompareKind(o.compare);
    if (spec.compareKind == core::CompareKind::Sentence) {
        if (!spec.compareWith) throw core::InputError("--compare sentence needs the second sentence: add --compare-with \"…\".");
        return;
    }
    if (spec.compareWith) {
        throw core::InputError("--compare-with is B of --compare sentence; --compare " + o.compare + " compares the sentence with itself: leave one out.");
    }
    spec.compareWith = core::defaultComparedSentence(spec.sentences.front());  // the draft, should the window turn to two sentences
}

// The spec the input options say, before --compare.
core::ModelSpec typedSpec(const InputOptions& o) {
    core::ModelSpec spec;
    if (const auto model = chosenModel(o)) {
        refuseSeededOptions(o, *model);
        spec.sentences = o.batch.empty() ? std::vector<std::string>{o.sentence} : o.batch;
        spec.attention.dModel = model->config().dModel;
        spec.attention.heads = o.headsGiven ? o.heads : model->config().heads;
        spec.attention.fill = parseFill(o.fill);
        spec.attention.softmax = parseSoftmax(o.softmax);
        spec.tokenLimit = o.tokenLimit;
        spec.model = core::TrainedLayer{model, o.layer >= 0 ? o.layer : model->featuredLayer()};
        core::resolveDimensions(spec.attention);
        return spec;
    }
    if (o.layer >= 0) throw core::InputError("--layer picks a layer of a trained model; the seeded model has one layer.");
    spec.sentences = o.batch.empty() ? std::vector<std::string>{o.sentence} : o.batch;
    spec.attention.dModel = o.dModel;
    spec.attention.heads = o.heads;
    spec.attention.dK = o.dK;
    spec.attention.dV = o.dV;
    spec.attention.mask = parseMask(o.mask);
    spec.attention.fill = parseFill(o.fill);
    spec.attention.softmax = parseSoftmax(o.softmax);
    if (o.scale && !std::isfinite(*o.scale)) throw core::InputError("--score-scale must be a finite number.");
    spec.attention.scale = o.scale;
    spec.tokenLimit = o.tokenLimit;
    spec.model = core::SeededLayer{.seed = o.seed, .positional = !o.noPositional, .prependCls = o.cls, .biases = o.biases,
                                   .decoderSentences = o.cross};
    core::resolveDimensions(spec.attention);  // report bad sizes now, with the valid values
    return spec;
}

}  // namespace

core::ModelSpec toModelSpec(const InputOptions& o) {
    if (o.session) return io::openSession(*o.session).spec;
    core::ModelSpec spec = typedSpec(o);
    applyCompareOptions(o, spec);
    return spec;
}

const core::NamedHead* featuredHeadOnScreen(const core::ModelSpec& spec) {
    const core::TrainedLayer* trained = spec.trained();
    const core::NamedHead* featured = trained ? trained->model->featuredHead() : nullptr;
    return featured != nullptr && featured->layer == trained->layer ? featured : nullptr;
}

namespace {

// A whole non-negative decimal number, or nullopt.
std::optional<int> wholeNumber(std::string_view text) {
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    return std::stoi(std::string(text));
}

}  // namespace

std::vector<core::HeadAblation> parseHeadAblations(std::string_view text) {
    const auto bad = [&] {
        return core::InputError("--ablate takes LAYER.HEAD[:mean] separated by commas, e.g. 6.3,6.7:mean (got " + core::echoed(text) + ").");
    };
    std::vector<core::HeadAblation> heads;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string_view item = text.substr(start, comma - start);
        core::HeadAblation head;
        if (const std::size_t colon = item.find(':'); colon != std::string_view::npos) {
            const std::string_view mode = item.substr(colon + 1);
            if (mode != "mean" && mode != "zero") throw bad();
            head.mode = mode == "mean" ? core::HeadOffMode::Mean : core::HeadOffMode::Zero;
            item = item.substr(0, colon);
        }
        const std::size_t dot = item.find('.');
        const std::optional<int> layer = dot == std::string_view::npos ? std::nullopt : wholeNumber(item.substr(0, dot));
        const std::optional<int> index = dot == std::string_view::npos ? std::nullopt : wholeNumber(item.substr(dot + 1));
        if (!layer || !index) throw bad();
        head.layer = *layer;
        head.head = *index;
        if (std::find(heads.begin(), heads.end(), head) == heads.end()) heads.push_back(head);
        start = comma + 1;
    }
    return heads;
}

}  // namespace attnviz::app
