// number_text.h — numbers as picture text, with a real minus sign: cell values, and the colour bar's ticks and range
// ends (scene/colorbar.h), the same on screen and on paper.
//
// Cell values must fit in a small square, so they are compact ("0.23", "−4.1", "312", "−1e9"); tick labels
// are rounded to the decimals their step needs and written without trailing zeros, so one value reads the same
// on every colorbar ("0" under a step of 0.1 or of 1; "0.25", "0.5" and "1" with step 0.25); range ends keep
// three significant digits so the exact extent of the color scale can be read.
// What this file deliberately does not do: localisation (the decimal point is always '.').
#pragma once

#include <string>

namespace attnviz::scene {

std::string formatCellValue(float value);
std::string formatTick(float value, float step);
std::string formatRangeEnd(float value);
// A "nice" step (1, 2 or 5 times a power of ten) near span / count.
float niceStep(float span, int count);

}  // namespace attnviz::scene
