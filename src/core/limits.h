// limits.h — the limits attnviz puts on untrusted input (a pasted sentence, a tokenizer.json or config.json from the
// internet, a Hub server's answers, text shown on screen), each a number written once here with the reason for its
// value (issue 31). Core may not use io, so io, ui and app read these from here; io's file-size caps are in
// io/safe_read.h. One section per subject; the tests and docs/robustness.md cite these names.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::core::limits {

// ---- a sentence's tokens ----
// The token limit a user may set (--token-limit, the GUI, a session): 64 by default, a short paragraph; at most
// 2,048, the longest context of the models attnviz opens (GPT-2 has 1,024 positions, BERT 512) and where one head's
// l × l map (16 MiB of float) is still drawn within a frame (docs/performance.md).
inline constexpr int kDefaultTokenLimit = 64;
inline constexpr int kMaxTokenLimit = 2'048;
// A sentence over the limit is tokenized only until it holds kTokensCountedPerLimit times the limit, then refused
// (a pasted megabyte of short words took 2.6 s of WordPiece on the worker only to be refused). Up to there the
// refusal counts the tokens exactly and says whether splitting words into letters caused it, so a sentence a few
// words too long learns how many to cut; beyond, it says "more than". 2: the work stays that of two full sentences.
inline constexpr int kTokensCountedPerLimit = 2;

// ---- text drawn on screen (the GUI: labels, notices, tooltips, dialogs) ----
// Dear ImGui 1.86 (Debian's, built with 16-bit indices) gives a window 65,536 vertices, 4 a glyph, and one call that
// draws a text reserves 4 vertices a byte before it clips: one text of ~16,000 bytes aborts the frame ("Too many
// vertices in ImDrawList using 16-bit indices"), and laying out megabytes each frame costs seconds and gigabytes.
// So no text from a user, a file or a model reaches ImGui longer than these; the cut shows as "…".

// A paragraph: a message, notice, tooltip, dialog, model card or quoted sentence. attnviz's longest own messages
// (the over-the-token-limit advice, a model card's first screen) stay under 1,000 characters; 2,000 characters of
// 4-byte UTF-8 reserve 32,000 vertices, half a window's.
inline constexpr std::size_t kMaxShownCharacters = 2'000;

// A sentence quoted above its tokens (the tokens stage, its slide): about three lines of a wide panel, so a pasted
// blob leaves the token boxes on screen; the sentence field and the tokens themselves show the rest.
inline constexpr std::size_t kMaxQuotedSentenceCharacters = 300;

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

// ---- tokenizer.json: the work one encode() may do (issue #31: a hostile file took minutes or all memory) ----
//
// PCRE2 patterns (pre-tokenizer Split, normalizer Replace). PCRE2 counts "steps" (backtracking points) per match call
// but cannot say how many a successful call used, so each call first runs under a small limit and, when that is
// reached, again under one kRegexLimitGrowth times larger, up to kRegexMaxMatchLimit; the text is charged the limit
// each attempt ran under (an upper bound on the steps it used, at most kRegexLimitGrowth times too high).
// kRegexFirstMatchLimit: GPT-2's, Llama-3's and Qwen's patterns match a word of ordinary text in under 100 steps.
inline constexpr std::uint32_t kRegexFirstMatchLimit = 256;
inline constexpr std::uint32_t kRegexLimitGrowth = 16;
// One call: a run of 10,000 spaces under Llama-3's "\s+(?!\S)" needs under 65,536; 10 M is the limit attnviz
// always had, which issue #31's pattern spent in ~40 ms at every character (so ~4 ns a step).
inline constexpr std::uint32_t kRegexMaxMatchLimit = 10'000'000;
// PCRE2's interpreter (used when JIT is unavailable): nesting depth and heap it may take for backtracking.
inline constexpr std::uint32_t kRegexDepthLimit = 100'000;
inline constexpr std::uint32_t kRegexHeapLimitKibibytes = 64 * 1024;  // 64 MiB
// Steps one text may be charged: per byte of the text given to encode(), plus one full-limit call, at most a
// total. Ordinary text is charged ~64 steps a byte by each Split (a 256-step attempt per ~4-byte word), so 2,048
// leaves room for a sequence of many patterns; the total (~1 s at ~4 ns a step) bounds a pasted megabyte.
inline constexpr std::uint64_t kRegexStepsPerTextByte = 2'048;
inline constexpr std::uint64_t kRegexMaxStepsPerText = 250'000'000;

// The text the normalizers and pre-tokenizers make, in bytes, at most kTextGrowth times the text given to encode()
// plus kTextGrowthSlack, checked while each step writes. 16: NFKD's largest expansion (U+FDFA, 3 bytes → 33) and a
// BertNormalizer's spaces around ideographs (3 → 5) stay well inside; the slack covers a Prepend or Metaspace prefix
// on a short text. A chain of "e → ee" Replace steps doubling the text at each is stopped at the step that crosses.
inline constexpr std::size_t kTextGrowth = 16;
inline constexpr std::size_t kTextGrowthSlack = 4'096;

// ---- config.json: the ranges its real numbers may take (issue #31: rms_norm_eps 1e300 became infinity) ----
//
// Every real number is range-checked as a double before it is used or converted to float (converting a double
// beyond float's range is undefined behaviour). A norm's epsilon: real models use 1e-12 … 1e-5; above 1 it would
// swamp the variance, below 1e-30 it is no longer a normal float (float's smallest is ~1.2e-38).
inline constexpr double kMinNormEpsilon = 1e-30;
inline constexpr double kMaxNormEpsilon = 1.0;
// RoPE's base (rope_theta: 10,000 … 1,000,000 in real models; 5e8 in a few long-context ones) and its scaling's
// factors and original context length: beyond 1e12 the angles' float arithmetic loses every digit.
inline constexpr double kMaxRopeNumber = 1e12;

// ---- the Hugging Face Hub downloader (io/hub_fetch.h) ----

// A request ends with an error when it moves fewer than kHubLowSpeedBytesPerSecond bytes a second for
// kHubLowSpeedSeconds seconds in a row. 1 KB/s: the slowest link a student still gets a 90 MB model over in a day,
// and a server dripping bytes to hold a fetch open stays under it. 30 s: a busy Hub or a Wi-Fi hand-over
// recovers within it (libcurl's own default for total silence was 30 s here too).
inline constexpr std::uint32_t kHubLowSpeedBytesPerSecond = 1000;
inline constexpr std::uint32_t kHubLowSpeedSeconds = 30;

// The largest API answer (model info with blobs=true) read into memory. The Hub's answer for a repo of 10,000 files
// is about 3 MB (~300 bytes a file); 16 MB leaves room and keeps the parsed JSON (~10x the text) far below 1 GB.
// Its nesting is capped too (io::requireJsonDepth: 64 levels), so a megabyte of '[' is refused before parsing.
inline constexpr std::size_t kHubMaxAnswerBytes = 16'000'000;

// The most header bytes one HTTP response may send. The Hub sends ~2 kB; libcurl caps each line at 100 kB but
// not how many lines come.
inline constexpr std::size_t kHubMaxHeaderBytes = 256'000;

}  // namespace attnviz::core::limits
