// limits.h — attnviz's size limits, each written once, with the reason for its value (issue 31). One section per
// area; a limit belongs here when input from a user, a file or a server could otherwise grow without bound.
// Core may not use io, so every limit lives here, in core, and io, ui and app read it from here.
#pragma once

#include <cstddef>

namespace attnviz::core {

// ── Text drawn on screen (the GUI: labels, notices, tooltips, dialogs) ───────────────────────────────────────────
// Dear ImGui 1.86 (Debian's, built with 16-bit indices) gives a window 65,536 vertices, 4 a glyph, and one call that
// draws a text reserves 4 vertices a byte before it clips: one text of ~16,000 bytes aborts the frame ("Too many
// vertices in ImDrawList using 16-bit indices"), and laying out megabytes each frame costs seconds and gigabytes.
// So no text from a user, a file or a model reaches ImGui longer than these; the cut shows as "…".

// A paragraph: a message, notice, tooltip, dialog, model card or quoted sentence. attnviz's longest own messages
// (the over-the-token-limit advice, a model card's first screen) stay under 1,000 characters; 2,000 characters of
// 4-byte UTF-8 reserve 32,000 vertices, half a window's.
inline constexpr std::size_t kMaxShownCharacters = 2'000;

// A token's label (axes, token boxes, line view, predictions): vocabularies' longest entries are ~100 characters
// (GPT-2's runs of "-" or "=") but a label box holds a few dozen; 2,048 labels of 48 characters at 4 vertices a
// glyph stay inside what one window draws only because labels beyond the box are clipped or left out.
inline constexpr std::size_t kMaxLabelCharacters = 48;

// A value a message quotes from a file or a server (a tensor name, a vocabulary line, a config value): one line on a
// terminal (docs/robustness.md promises it).
inline constexpr std::size_t kMaxEchoedCharacters = 80;

// The window's side in pixels (--size, settings.json, resizing): Mesa's llvmpipe and most GPUs allocate at most
// 16,384 × 16,384 (GL_MAX_RENDERBUFFER_SIZE); at 32,767 × 32,767 Mesa segfaults instead of refusing. At least 200
// for a size asked for (--size, settings.json): below that no panel has room for its first line.
inline constexpr int kMinWindowSide = 200;
inline constexpr int kMaxWindowSide = 16'384;

}  // namespace attnviz::core
