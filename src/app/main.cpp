// main.cpp — the attnviz binary: the desktop app by default, `dump` and `export` as headless subcommands.
//
//   attnviz [--sentence S --heads N …] [--screenshot FILE --stage N --head I --size WxH]
//   attnviz dump   [input options] --out DIR [--force]
//   attnviz export [input options] --stage all|N|NAME [--matrix M] [--head I] [--kind K] --out DIR …
// Every error a user can cause ends in one line on stderr and a non-zero exit code, never a crash.
#include "app/cli_options.h"
#include "app/version.h"

#include <iostream>

namespace {

using namespace attnviz;

void addDumpCommand(CLI::App& cli, app::InputOptions& inputs, app::DumpOptions& dump) {
    CLI::App* command = cli.add_subcommand("dump", "Write every matrix of the forward pass as .npy plus manifest.json");
    addInputOptions(*command, inputs);
    command->add_option("-o,--out", dump.out, "Output directory (created if missing; must be empty unless --force)")->required();
    command->add_flag("-f,--force", dump.force, "Write into a non-empty directory, replacing files");
}

void addExportCommand(CLI::App& cli, app::InputOptions& inputs, app::ExportOptions& e) {
    CLI::App* command = cli.add_subcommand("export", "Write heatmap figures as PNG, ready for slides");
    addInputOptions(*command, inputs);
    command->add_option("-o,--out", e.out, "Output directory (created if missing)")->required();
    command->add_option("--stage", e.stage, "all, a stage number (0-10) or a stage name such as softmax")->capture_default_str();
    command->add_option("--matrix", e.matrix, "One matrix of the stage, by name (e.g. attention_weights)");
    command->add_option("--head", e.head, "One head (0-based)");
    command->add_option("--kind", e.kind, "matrix | stage | heads | poster")->capture_default_str();
    command->add_option("--scale", e.scale, "Pixel scale 1-4")->capture_default_str();
    command->add_option("--background", e.background, "light | dark | transparent")->capture_default_str();
    command->add_option("--colormap", e.colormap, "viridis | cividis | magma | coolwarm | rdbu (default: per matrix)");
    command->add_flag("-f,--force", e.force, "Overwrite existing files");
}

void addGuiOptions(CLI::App& cli, app::GuiOptions& gui) {
    cli.add_option("--screenshot", gui.screenshot, "Render the window for a few frames, save it as PNG, exit");
    cli.add_option("--stage", gui.stage, "Stage to open: a number (0-10) or a name such as softmax");
    cli.add_option("--head", gui.head, "Head to focus (0-based)");
    cli.add_option("--size", gui.size, "Window size WxH, e.g. 1600x1000");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"attnviz — multi-head attention, one matrix at a time", "attnviz"};
    cli.set_version_flag("-V,--version", std::string("attnviz ") + std::string(app::kVersion));
    app::InputOptions inputs;
    app::GuiOptions gui;
    app::DumpOptions dump;
    app::ExportOptions exportOptions;
    addInputOptions(cli, inputs);
    addGuiOptions(cli, gui);
    addDumpCommand(cli, inputs, dump);
    addExportCommand(cli, inputs, exportOptions);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return cli.exit(error);
    }

    const std::string command = cli.get_subcommands().empty() ? "attnviz" : "attnviz " + cli.get_subcommands().front()->get_name();
    try {
        const core::ModelSpec spec = app::toModelSpec(inputs);
        if (cli.got_subcommand("dump")) return app::runDump(spec, dump);
        if (cli.got_subcommand("export")) return app::runExport(spec, exportOptions);
        return app::runGui(spec, gui);
    } catch (const core::InputError& error) {
        std::cerr << command << ": " << error.what() << '\n';
        return 2;
    } catch (const std::exception& error) {
        std::cerr << command << ": unexpected error: " << error.what() << '\n';
        return 1;
    }
}
