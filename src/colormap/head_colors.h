// head_colors.h — one color per attention head, the same on every stage, in the GUI and in exported figures.
//
// Head i's column block of W^Q, its tile after the split, its Z_i and its block of the concatenation all wear
// headColor(i) (one W^Q is h stacked matrices: the question "why 3 linear layers, not 3·h?"). Twelve distinguishable hues (Tableau-like) that read
// on both light and dark backgrounds; beyond twelve heads they repeat, with the head number always printed.
#pragma once

#include "colormap/colormap.h"

#include <array>

namespace attnviz::colormap {

inline constexpr std::array<Rgb8, 12> kHeadPalette{{
    {31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40}, {148, 103, 189}, {140, 86, 75},
    {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}, {0, 0, 128}, {128, 128, 0},
}};

inline constexpr Rgb8 headColor(int head) {
    return kHeadPalette[static_cast<std::size_t>(head < 0 ? 0 : head) % kHeadPalette.size()];
}

// The query row a lecture follows ("it"): its outline and bold label, on screen and in exported figures.
inline constexpr Rgb8 kFocusRowColor{215, 80, 0};

}  // namespace attnviz::colormap
