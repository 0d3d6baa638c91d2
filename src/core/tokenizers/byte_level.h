// byte_level.h — GPT-2's byte alphabet: every byte as a printable character, so a byte-level BPE vocabulary is text
// (a space is "Ġ"), and the way back from a vocabulary piece to the label a learner reads ("Ġcat" → "␣cat").
// Used by the pipeline's ByteLevel pre-tokenizer (pipeline_steps.cpp) and its ByteLevel labels (pipeline.cpp).
#pragma once

#include <string>
#include <vector>

namespace attnviz::core {

// GPT-2's byte ↔ unicode map: byte b as the UTF-8 of its printable stand-in (33–126, 161–172 and 174–255 stand
// for themselves; the other 68 bytes take U+0100 onwards in order, so a space is "Ġ" U+0120).
const std::vector<std::string>& byteToUnicode();

// The readable label of a byte-level piece: whole characters as text with a space, newline and tab as ␣ ↵ ⇥, the
// bytes of a character split across pieces (half an emoji) in hex: "Ġ" + F0 9F → "␣<F0 9F>". A piece outside the
// byte alphabet (a special token) is its own label.
std::string byteLevelLabel(const std::string& piece);

}  // namespace attnviz::core
