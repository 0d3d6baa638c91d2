// narrow_range.h — the one rule that flags a probability map whose values barely differ. On the default colour
// range ("0 … map max") such a map still spans the whole colormap: weights of 0.07–0.09 are drawn in strong greens
// and yellows and look structured. The screen and the exporters mark it with the note this returns, so the
// reader sees that the colours stretch a narrow range.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace attnviz::core {

// A probability map whose finite values span less than this is marked.
inline constexpr float kNarrowProbabilitySpan = 0.2f;

// "narrow range: 0.07 … 0.09" when the finite values span less than kNarrowProbabilitySpan (2 decimals, 3 when
// 2 would print both ends alike); nothing for a wider span or no finite value.
std::optional<std::string> narrowRangeNote(std::span<const float> probabilities);

}  // namespace attnviz::core
