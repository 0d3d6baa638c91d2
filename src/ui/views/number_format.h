// number_format.h — how numbers look on screen: short enough for a cell, exact enough for the inspector.
// Special values spell themselves out (NaN, +∞, −∞); −1e9 (the mask fill) prints as −1e9, not −1000000000.
// Does not localise: a dot is the decimal separator everywhere, like the PyTorch lines next to the numbers.
#pragma once

#include <string>

namespace attnviz::ui {

// At most ~5 characters for a value printed inside a heatmap cell: "0.12", "-3.4", "27", "-1e9".
std::string formatCell(float value);
// A weight in [0, 1] in a small cell, as papers print attention maps: ".12", "1" (three characters at most).
std::string formatProbabilityCell(float value);
// Four significant digits for the inspector and colorbar ticks: "0.1234", "-12.35", "-1e9", "1.5e-5".
std::string formatValue(float value);

}  // namespace attnviz::ui
