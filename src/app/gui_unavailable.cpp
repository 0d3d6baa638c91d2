// gui_unavailable.cpp — runGui for builds configured with ATTNVIZ_BUILD_GUI=OFF (headless servers, CI images
// without GL): says so and points at the headless subcommands.
#include "app/cli_options.h"

#include <iostream>

namespace attnviz::app {

int runGui(const core::ModelSpec&, const GuiOptions&) {
    std::cerr << "attnviz: this build has no GUI (configured with ATTNVIZ_BUILD_GUI=OFF); "
                 "use `attnviz dump` or `attnviz export`.\n";
    return kExitNoDisplay;
}

}  // namespace attnviz::app
