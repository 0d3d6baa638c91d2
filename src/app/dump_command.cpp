// dump_command.cpp — `attnviz dump`: run the model headless and write every matrix with io::writeDump.
//
// Prints each path written, one per line, on stdout (so scripts can pipe the list); on bad input or a file
// problem prints one line "attnviz dump: <message>" on stderr and returns kExitRunError (1); so does a run that ran
// out of memory or overflowed (the message names the layer and head).
// What this file deliberately does not do: parse options (cli_options.cpp) or know the file format (src/io).
#include "app/cli_options.h"

#include "io/atomic_file.h"
#include "io/dump.h"
#include "io/memory_budget.h"

#include <iostream>

namespace attnviz::app {

int runDump(const core::ModelSpec& typed, const DumpOptions& options) {
    try {
        core::ModelSpec spec = typed;
        if (!options.ablate.empty()) spec.headsOff = parseHeadAblations(options.ablate);
        if (spec.compareWith) {
            throw core::InputError("--compare and --compare-with are for the window and export --kind compare; a dump holds one run: dump each on its "
                                   "own (a sentence, --ablate, --untrained).");
        }
        if (options.untrained) {
            core::TrainedLayer* trained = spec.trained();
            if (!trained) throw core::InputError("--untrained needs a trained model (--model): the seeded layer's weights are already random.");
            trained->model = core::untrainedTwin(trained->model);
        }
        const core::ModelRun run = core::runModel(spec);
        const io::AnalysisOptions analyses{options.logitLens, options.rollout, options.headRoles};
        for (const std::filesystem::path& path :
             io::writeDump(run, options.out, options.force, {options.logits, options.topK, options.temperature}, options.inputs, analyses)) {
            std::cout << path.string() << '\n';
        }
        return 0;
    } catch (const core::InputError& error) {
        std::cerr << "attnviz dump: " << error.what() << '\n';
    } catch (const io::FileError& error) {
        std::cerr << "attnviz dump: " << error.what() << '\n';
    } catch (const std::bad_alloc&) {
        std::cerr << "attnviz dump: " << io::outOfMemoryMessage() << '\n';
    }
    return kExitRunError;
}

}  // namespace attnviz::app
