// names.h — the text of every core enum that is written down or typed in, one table each: what the command line,
// sessions, settings, dumps, exports and the history call a mask kind, a masked score's fill, a softmax mode, what
// compare puts beside the run (CompareKind, defined here); the
// float types weights are stored in (Dtype, defined here: safetensors headers and the KV-cache view name them). The
// model families' names (config.json's model_type) are their table's, in transformer/model_family.h.
//
// Each name is spelled here once; readers look a value up (nameOf) or a name up (valueNamed), and list the choices
// for an error message (namesListed: "none, padding, causal or both").
#pragma once

#include "core/attention.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attnviz::core {

template <typename Enum>
struct EnumName {
    Enum value;
    std::string_view name;
};

// The float types attnviz reads weights in, as a safetensors header names them; a model says which held most of its
// values (TransformerModel::storedDtype), and the KV-cache view counts bytes in it.
enum class Dtype { F32, F16, BF16 };
// Bytes of one stored value: F32 4, F16 and BF16 2.
constexpr int bytesPerValue(Dtype dtype) { return dtype == Dtype::F32 ? 4 : 2; }

// What compare puts beside the run on screen (ModelSpec::compareKind, defined here: the command line's --compare and
// sessions name it): another sentence; the same sentence with every head on against the heads switched off; the same
// sentence through the same model untrained (its weights redrawn at initialisation).
enum class CompareKind { Sentence, HeadsOff, Untrained };

inline constexpr std::array<EnumName<MaskKind>, 4> kMaskKindNames{{
    {MaskKind::None, "none"},
    {MaskKind::Padding, "padding"},
    {MaskKind::Causal, "causal"},
    {MaskKind::Both, "both"},
}};
inline constexpr std::array<EnumName<MaskFill>, 2> kMaskFillNames{{{MaskFill::MinusBillion, "-1e9"}, {MaskFill::MinusInfinity, "-inf"}}};
inline constexpr std::array<EnumName<SoftmaxMode>, 2> kSoftmaxModeNames{{{SoftmaxMode::Safe, "safe"}, {SoftmaxMode::PyTorch, "pytorch"}}};
inline constexpr std::array<EnumName<CompareKind>, 3> kCompareKindNames{
    {{CompareKind::Sentence, "sentence"}, {CompareKind::HeadsOff, "heads-off"}, {CompareKind::Untrained, "untrained"}}};
inline constexpr std::array<EnumName<Dtype>, 3> kDtypeNames{{{Dtype::F32, "F32"}, {Dtype::F16, "F16"}, {Dtype::BF16, "BF16"}}};

// The name of `value`, or "unknown" for a value the table lacks.
template <typename Enum, std::size_t N>
constexpr std::string_view nameOf(Enum value, const std::array<EnumName<Enum>, N>& names) {
    for (const EnumName<Enum>& entry : names) {
        if (entry.value == value) return entry.name;
    }
    return "unknown";
}

constexpr std::string_view nameOf(MaskKind value) { return nameOf(value, kMaskKindNames); }
constexpr std::string_view nameOf(MaskFill value) { return nameOf(value, kMaskFillNames); }
constexpr std::string_view nameOf(SoftmaxMode value) { return nameOf(value, kSoftmaxModeNames); }
constexpr std::string_view nameOf(Dtype value) { return nameOf(value, kDtypeNames); }
constexpr std::string_view nameOf(CompareKind value) { return nameOf(value, kCompareKindNames); }

// How the screen and figures write a masked score's fill: "−1e9", "−∞" (typeset minus; nameOf's is typed).
constexpr std::string_view shownText(MaskFill fill) { return fill == MaskFill::MinusInfinity ? "\u2212\u221E" : "\u22121e9"; }

// The value named `name`, or nothing when no entry has that name.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> valueNamed(std::string_view name, const std::array<EnumName<Enum>, N>& names) {
    for (const EnumName<Enum>& entry : names) {
        if (entry.name == name) return entry.value;
    }
    return std::nullopt;
}

// Every name, as a sentence lists choices: "none, padding, causal or both".
template <typename Enum, std::size_t N>
std::string namesListed(const std::array<EnumName<Enum>, N>& names) {
    std::string text;
    for (std::size_t i = 0; i < N; ++i) text += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(names[i].name);
    return text;
}

}  // namespace attnviz::core
