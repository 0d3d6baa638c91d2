// cli_options.h — the command line shared by the GUI, `attnviz dump` and `attnviz export`.
//
// Every subcommand takes the same input options (sentence, sizes, mask, …), turned into a core::ModelSpec
// here, so that `attnviz --sentence S --heads 4`, `dump` and `export` compute the very same numbers.
// Parsing is CLI11's; checking values against each other (heads vs d_model) is core::resolveDimensions's.
#pragma once

#include "core/model.h"
#include "io/hub_cache.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// CLI11 is a large header-only library: only the files that build and parse the command line include it.
namespace CLI {
class App;
}

namespace attnviz::app {

// The options as typed, before they become a ModelSpec.
struct InputOptions {
    std::string sentence{core::kDefaultSentence};
    std::vector<std::string> batch;          // --batch "s1" "s2" …: overrides --sentence
    std::vector<std::string> cross;          // --cross "decoder sentence" (one per batch sentence)
    std::optional<std::string> compareWith;  // --compare-with B: a second sentence beside the first (ModelSpec::compareWith)
    std::string compare;                     // --compare sentence|heads-off|untrained: what B is (ModelSpec::compareKind)
    int dModel = 64;
    int heads = 8;
    int dK = 0;
    int dV = 0;
    std::uint64_t seed = 42;
    std::string mask = "none";               // none|padding|causal|both
    std::string fill = "-1e9";               // -1e9|-inf
    std::string softmax = "safe";            // safe|pytorch
    std::optional<float> scale;
    bool cls = false;
    bool noPositional = false;
    bool biases = false;
    int tokenLimit = core::kDefaultTokenLimit;
    std::optional<std::filesystem::path> session;  // --session FILE: every input from a saved session instead
    // --model DIR or REPO_ID[@REV]: a HuggingFace GPT-2 / BERT folder, or a Hub repo (from the cache, fetched
    // first when not cached: io/hub_cache.h); "random": the seeded single layer; empty: the bundled trained
    // model, unless an option only the seeded model has was given (seededOptionsGiven).
    std::string model;
    int layer = -1;                          // --layer N: the stepped layer of a trained model (-1: its default)
    bool headsGiven = false;                 // --heads was typed (a trained model then re-splits its heads)
    bool seededOptionsGiven = false;         // --d-model, --heads, --seed, … were typed without --model
    bool anyGiven = false;                   // any input option was typed (the GUI then ignores its saved inputs)
    std::vector<std::string> inputOptionNames;  // filled by addInputOptions: the names noteGivenOptions checks
};

// The value of --model that means the seeded single layer with random weights.
inline constexpr std::string_view kRandomModel = "random";

// Adds the input options to a CLI11 (sub)command.
void addInputOptions(CLI::App& command, InputOptions& options);
// After parsing `command`: records which of the seeded model's own options were typed (InputOptions' *Given).
void noteGivenOptions(const CLI::App& command, InputOptions& options);
// Turns parsed options into a spec; throws core::InputError with one clear sentence for a bad combination, or
// io::FileError for a session file that cannot be opened.
core::ModelSpec toModelSpec(const InputOptions& options);
// The trained model's named head (the bundled model's coreference head) when it is on the layer `spec` steps
// through, else null: the app opens on it, at the softmax stage, unless told another stage or head.
const core::NamedHead* featuredHeadOnScreen(const core::ModelSpec& spec);
// For a trained model whose heads --heads re-split: the sentence the app's banner shows ("these 8 heads are a
// re-split of the trained W^Q …"); empty otherwise.
std::string resplitNote(const core::ModelSpec& spec);
// The files and folders a run of `spec` reads (the session file and the weight files it names, a model folder): a
// dump refuses to write over them (io::writeDump's `inputs`).
std::vector<std::filesystem::path> inputPaths(const InputOptions& options, const core::ModelSpec& spec);

// GUI-only options of the top-level command.
struct GuiOptions {
    std::optional<std::filesystem::path> screenshot;  // --screenshot FILE: render a few frames, save, exit
    std::string stage;                                 // --stage N|NAME (GUI start stage / screenshot stage)
    int head = 0;                                      // --head I
    std::string size;                                  // --size WxH
    std::optional<std::filesystem::path> session;      // --session FILE (copied from InputOptions): the GUI also
                                                       // takes its view, and saves back to it
    std::string lesson;                                // --lesson NAME: open a question view (masks, cross, …)
    std::string ask;                                   // --ask KIND: open ask mode's question (attended, shape, …)
    std::optional<int> askPick;                        // --ask-pick N: the choice picked (1-4)
    std::vector<int> askCounts;                        // --ask-counts A,B,C,D: the class's answers
    std::string askWord;                               // --ask-word WORD: the prediction answered by a typed word
    std::vector<std::string> askCells;                 // --ask-cells 0111,0011,…: the mask answered by clicked cells
    bool reveal = false;                               // --reveal: the question's answer shown
    std::optional<int> quitAfterFrames;                // --quit-after-frames N: exit after N frames, settings
                                                       // untouched (startup and memory measurements)
    bool inputsGiven = false;                          // the command line chose the inputs (model, sentence, …)
    bool modelView = false;                            // --model-view: open a trained model's layers × heads
    bool present = false;                              // --present: start in presentation mode (full screen)
    bool allHeads = false;                             // --all-heads: every head's map instead of the focused one
    std::optional<int> zoom;                           // --zoom STEP: Ctrl+= pressed STEP times (−2 … 6; 0 is 100 %)
    std::string fetchRepo;                             // --model REPO_ID not cached: fetched once the window is up
    int fetchLayer = -1;                               // its --layer
};

// The window fetches a `--model REPO_ID` that the Hugging Face cache does not hold with File ▸ Get a model's
// progress bar, once it is up, instead of before it opens: moves that repo id and --layer from `inputs` to `gui`
// (the window starts on the default model). Throws io::FileError for a malformed repo id.
void fetchInWindow(InputOptions& inputs, GuiOptions& gui);

// `attnviz fetch REPO_ID [--revision R]`, `attnviz fetch --list`.
struct FetchCommandOptions {
    std::string repo;                  // NAME or ORG/NAME, optionally @REV
    std::string revision;              // --revision R (overrides @REV)
    bool list = false;                 // --list: the suggested models and the cached ones
};

struct DumpOptions {
    std::filesystem::path out;
    bool force = false;
    bool logits = false;       // --logits: logits.npy beside the manifest's top k
    int topK = 10;             // --top-k
    float temperature = 1.0f;  // --temperature
    std::string ablate;        // --ablate L.H[:mean][,…]: heads switched off (parseHeadAblations)
    bool logitLens = false;    // --logit-lens
    bool rollout = false;      // --rollout
    bool headRoles = false;    // --head-roles
    bool untrained = false;    // --untrained: the model's untrained twin (core::untrainedTwin), compare untrained's B
    std::vector<std::filesystem::path> inputs;  // what the run reads (inputPaths): never written over
};

struct ExportOptions {
    std::filesystem::path out;
    std::string stage = "all";     // all|N|NAME
    std::string matrix;            // a Trace tensor key, e.g. attention_weights
    std::optional<int> head;
    std::string kind = "matrix";   // matrix|stage|heads|poster|slide|lines|next|compare
    std::optional<float> temperature;  // --kind next: softmax(logits / T); nullopt: 1
    std::string format = "png";    // png|svg|pdf
    int scale = 2;                 // 1–4
    std::string background = "light";  // light|dark|transparent
    std::string colormap;          // empty: the stage's default
    std::string probabilityRange = "map";  // map|row|fixed: the colour range of attention weights
    int cellSize = 0;              // base pixels per cell; 0 = chosen per figure
    bool cellValues = true;        // print values inside cells big enough to hold them
    bool force = false;
    std::string ablate;            // --ablate L.H[:mean][,…]: heads switched off (parseHeadAblations)
};

// Exit codes, the same for the window, `dump` and `export` (listed in --help, the man page and docs/robustness.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRunError = 1;   // the input, a file or the run failed: bad sentence, model folder, memory, overflow
inline constexpr int kExitUsage = 2;      // the command line itself: unknown option, missing or malformed value
inline constexpr int kExitNoDisplay = 3;  // the window cannot open (no display, no OpenGL 3.3)
inline constexpr const char* kExitCodesHelp =
    "Exit codes: 0 done; 1 bad input, an unusable model or file, not enough memory, or a run that overflowed; "
    "2 a bad command line; 3 no display for the window.";

// --ablate's text, "L.H[:mean][,L.H[:mean]…]" (layer and head 0-based; ":mean" replaces the head's output by its mean
// over the sentence, else it is zeroed; ":zero" may be said), as the heads to switch off. Throws core::InputError (one
// sentence, the text echoed) for anything else; whether the model has that layer and head is the run's check.
std::vector<core::HeadAblation> parseHeadAblations(std::string_view text);

// Each subcommand: returns the process exit code; prints one clear line to stderr on error.
int runGui(const core::ModelSpec& spec, const GuiOptions& options);
int runDump(const core::ModelSpec& spec, const DumpOptions& options);
int runExport(const core::ModelSpec& spec, const ExportOptions& options);
int runFetch(const FetchCommandOptions& options);

// The snapshot folder of a Hub model: the cache's, else fetched with a progress line on stderr (Ctrl-C cancels).
// Throws io::FileError.
std::filesystem::path findOrFetchWithProgressLine(const io::RepoReference& ref);

}  // namespace attnviz::app
