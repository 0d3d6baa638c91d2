// command_line.cpp — the CLI11 definition of every command and option. See command_line.h.
#include "app/command_line.h"

#include "app/version.h"
#include "core/display_text.h"
#include "core/questions.h"
#include "core/tokenizer.h"
#include "core/transformer/prediction.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <ostream>

namespace attnviz::app {
namespace {

// Every numeric option whose range is known before a model opens, in one place (issue 31): a value outside it, NaN
// or infinity, or a sign an unsigned option would wrap ("--seed -1" was 2^64 − 1) is a bad command line: one line,
// exit 2. Ranges that depend on the model (--layer's and --head's top, --heads dividing d_model) are checked once it
// is open (exit 1); export's --scale and --cell-size by the exporter, which names what is allowed (exit 1).
struct NumericRange {
    const char* option;
    double min, max;
    const char* said;  // the range as --help and the error say it
};
constexpr NumericRange kNumericRanges[] = {
    {"--token-limit", 1, core::kMaxTokenLimit, "1 to 2048"},
    {"--layer", 0, std::numeric_limits<int>::max(), "0 or more (0-based)"},
    {"--head", 0, std::numeric_limits<int>::max(), "0 or more (0-based)"},
    {"--seed", 0, 18446744073709551615.0, "0 to 18446744073709551615"},
    {"--top-k", 1, 1000, "1 to 1000"},
    {"--temperature", 0.05, 5, "0.05 to 5"},  // 0.05 as typed: core::kMinTemperature is the float nearest it
    {"--zoom", -2, 6, "-2 to 6"},
    {"--quit-after-frames", 1, 1'000'000, "1 to 1000000"},
};
static_assert(core::kMaxTokenLimit == 2048 && core::kMinTemperature == 0.05f && core::kMaxTemperature == 5.0f, "update kNumericRanges' words");

CLI::Validator inRange(const NumericRange& range) {
    return CLI::Validator(
        [range](const std::string& text) -> std::string {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0') return {};  // not a number: the option's own conversion says so
            if (std::isfinite(value) && value >= range.min && value <= range.max) return {};
            return std::string(range.option) + " must be " + range.said + " (got " + core::echoed(text) + ")";
        },
        range.said);
}

// Puts kNumericRanges' checks on the options of `command` that have them.
void checkRanges(CLI::App& command) {
    for (const NumericRange& range : kNumericRanges) {
        if (CLI::Option* option = command.get_option_no_throw(range.option)) option->check(inRange(range));
    }
}

// --ablate LAYER.HEAD[:mean],... (dump and export), checked by parseHeadAblations; `what` starts its help.
void addAblateOption(CLI::App& command, std::string& target, const std::string& what) {
    command.add_option("--ablate", target,
                       what + ": LAYER.HEAD[:mean],... (0-based; the head's output zeroed before W^O, or with :mean replaced by its "
                              "mean over the sentence; trained models)")
        ->check(CLI::Validator(
            [](const std::string& text) -> std::string {
                try {
                    parseHeadAblations(text);
                    return {};
                } catch (const core::InputError& error) {
                    return error.what();
                }
            },
            "L.H[:mean][,...]"));
}

void addDumpCommand(CLI::App& cli, CommandLine& line) {
    CLI::App* command = cli.add_subcommand("dump", "Write every matrix of the forward pass as .npy plus manifest.json");
    command->footer(kExitCodesHelp);
    addInputOptions(*command, line.inputs);
    command->add_option("-o,--out", line.dump.out, "Output directory (created if missing; must be empty unless --force)")->required();
    command->add_flag("-f,--force", line.dump.force, "Write into a non-empty directory, replacing files");
    command->add_flag("--logits", line.dump.logits, "Also write logits.npy: a trained model's prediction logits at every position");
    command->add_option("--top-k", line.dump.topK, "How many predicted tokens per position the manifest lists (trained models)")
        ->capture_default_str();
    command->add_option("--temperature", line.dump.temperature, "Temperature of the manifest's prediction probabilities")
        ->capture_default_str();
    addAblateOption(*command, line.dump.ablate, "Switch heads off and dump that run");
    command->add_flag("--logit-lens", line.dump.logitLens,
                      "Also write logit_lens_top_ids.npy and logit_lens_top_logprobs.npy: each layer's top --top-k tokens through the "
                      "final norm and the prediction head (with --logits every log-probability too, logit_lens_logprobs.npy)");
    command->add_flag("--rollout", line.dump.rollout, "Also write rollout.npy: attention rollout (Abnar & Zuidema 2020) through every layer");
    command->add_flag("--head-roles", line.dump.headRoles,
                      "Also write head_roles.json: every head's previous-token, duplicate-token, induction, first-token and self scores");
    command->add_flag("--untrained", line.dump.untrained,
                      "Dump the same model untrained: every weight redrawn at initialisation (seed 42), the B of --compare untrained (trained models)");
}

void addExportCommand(CLI::App& cli, CommandLine& line) {
    ExportOptions& e = line.exportOptions;
    CLI::App* command = cli.add_subcommand("export", "Write heatmap figures as PNG, SVG or PDF, ready for slides");
    command->footer(kExitCodesHelp);
    addInputOptions(*command, line.inputs);
    command->add_option("-o,--out", e.out, "Output directory (created if missing)")->required();
    command->add_option("--stage", e.stage, "all, a stage number (0-10) or a stage name such as softmax; rope: stage 3's RoPE step (not with --kind next)")->capture_default_str();
    command->add_option("--matrix", e.matrix, "One matrix of the stage, by name (e.g. attention_weights)");
    command->add_option("--head", e.head, "One head (0-based)");
    command->add_option("--kind", e.kind, "matrix | stage | heads | poster | slide (16:9, 1920x1080 at scale 1) | lines (token -> token) | "
                        "next (a trained model's ten most likely next tokens, or BERT's fills of a [MASK], as a 16:9 slide; "
                        "no --stage, --matrix or --head) | compare (A beside B, as --compare and --compare-with say, and A - B, as a 16:9 slide) | "
                        "quiz (a question slide and an answer slide for each question the run offers; --stage: those about it)")->capture_default_str();
    command->add_option("--temperature", e.temperature, "--kind next: the softmax temperature T of its probabilities (default 1)");
    command->add_option("--format", e.format, "png | svg | pdf (SVG and PDF keep text as text)")->capture_default_str();
    command->add_option("--scale", e.scale, "Pixel scale 1-4")->capture_default_str();
    command->add_option("--background", e.background, "light | dark | transparent")->capture_default_str();
    command->add_option("--colormap", e.colormap, "viridis | cividis | magma | coolwarm | rdbu (default: per matrix)");
    command->add_option("--probability-range", e.probabilityRange,
                        "Colour range of attention weights: map (0 to the map's max) | row (each row / its max) | fixed (0 to 1)");
    command->add_option("--cell-size", e.cellSize, "Base pixels per cell (0: chosen per figure)")->capture_default_str();
    command->add_flag("!--no-values", e.cellValues, "Leave values out of the cells");
    command->add_flag("-f,--force", e.force, "Overwrite existing files");
    addAblateOption(*command, e.ablate, "Switch heads off and draw that run (its figures say which)");
}

void addFetchCommand(CLI::App& cli, CommandLine& line) {
    FetchCommandOptions& f = line.fetch;
    CLI::App* command = cli.add_subcommand("fetch",
        "Download a model from the Hugging Face Hub into the Hugging Face cache (only the files attnviz reads); "
        "--model REPO_ID then opens it with no network");
    CLI::Option* repo = command->add_option("repo", f.repo, "NAME or ORG/NAME, optionally @REVISION (e.g. gpt2, bert-base-uncased)");
    command->add_option("--revision", f.revision, "A branch, tag or commit (default main)");
    CLI::Option* list = command->add_flag("--list", f.list, "List suggested models and the ones already in the cache");
    repo->excludes(list);
    command->callback([repo, list] {
        if (repo->count() == 0 && list->count() == 0) throw CLI::RequiredError("a repo id (or --list)");
    });
}

void addGuiOptions(CLI::App& cli, GuiOptions& gui) {
    cli.add_option("--screenshot", gui.screenshot, "Render the window for a few frames, save it as PNG, exit");
    cli.add_option("--stage", gui.stage, "Stage to open: a number (0-10) or a name such as softmax; rope: stage 3's RoPE step");
    cli.add_option("--head", gui.head, "Head to focus (0-based)");
    cli.add_option("--size", gui.size, "Window size WxH, e.g. 1600x1000");
    cli.add_flag("--model-view", gui.modelView, "Open the model view: every layer x head of a trained model");
    cli.add_flag("--all-heads", gui.allHeads, "Open on every head's map side by side (A toggles)");
    cli.add_option("--zoom", gui.zoom, "Open zoomed: the number of Ctrl+= steps (-2 to 6; 0 is 100 %)");
    cli.add_flag("--present", gui.present, "Start presenting: full screen, large type, side panels away (F5 toggles, B blanks)");
    cli.add_option("--lesson", gui.lesson,
                   "Open a question view: masks, cross, fused, slicing, rows, scaling, pooling, cost, dims, training, rope, lines, next, copy, layers or roles");
    cli.add_option("--ask", gui.ask, "Open a question before its stage is shown (Q): " + core::questionKeys());
    cli.add_option("--ask-pick", gui.askPick, "The question's choice picked, 1-4")->check(CLI::Range(1, 4));
    cli.add_option("--ask-counts", gui.askCounts, "The class's answers to the question, one count per choice, e.g. 3,9,1,0")
        ->delimiter(',')
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--ask-word", gui.askWord, "The word typed for the prediction question instead of a choice (--ask predict)");
    cli.add_option("--ask-cells", gui.askCells,
                   "The mask question answered by clicking cells: one row of 0 (kept) and 1 (removed) per query, e.g. 0111,0011,0001,0000")
        ->delimiter(',')
        ->check([](const std::string& row) { return row.find_first_not_of("01") == std::string::npos && !row.empty() ? std::string() : "each row is 0s and 1s, e.g. 0111"; });
    cli.add_flag("--reveal", gui.reveal, "Open the question revealed: the truth, the gap and the class's answers beside the model's numbers");
    cli.add_option("--quit-after-frames", gui.quitAfterFrames,
                   "Exit after N frames without reading or saving settings (for measuring startup and memory)");
}

}  // namespace

CommandLine parseCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CommandLine line;
    CLI::App cli{"attnviz — multi-head attention, one matrix at a time", "attnviz"};
    cli.footer(kExitCodesHelp);
    cli.set_version_flag("-V,--version", std::string("attnviz ") + std::string(kVersion));
    addInputOptions(cli, line.inputs);
    addGuiOptions(cli, line.gui);
    addDumpCommand(cli, line);
    addExportCommand(cli, line);
    addFetchCommand(cli, line);
    for (CLI::App* command : {&cli, cli.get_subcommand("dump"), cli.get_subcommand("export")}) checkRanges(*command);

    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes arguments last-first
    if (!reversed.empty()) reversed.pop_back();                     // the program name
    try {
        cli.parse(reversed);
    } catch (const CLI::ParseError& error) {
        line.command = Command::Exit;
        line.exitCode = cli.exit(error, out, err) == 0 ? kExitOk : kExitUsage;  // --help and --version are not errors
        return line;
    }
    if (cli.got_subcommand("dump")) line.command = Command::Dump;
    else if (cli.got_subcommand("export")) line.command = Command::Export;
    else if (cli.got_subcommand("fetch")) line.command = Command::Fetch;
    else line.command = Command::Gui;
    const CLI::App* given = line.command == Command::Dump ? cli.get_subcommand("dump")
                          : line.command == Command::Export ? cli.get_subcommand("export") : &cli;
    noteGivenOptions(*given, line.inputs);
    line.gui.inputsGiven = line.inputs.anyGiven;
    line.gui.session = line.inputs.session;
    return line;
}

}  // namespace attnviz::app
