// limits.h — the numbers attnviz bounds hostile or accidental input with, each written once, with the reason
// for its value. Sections by subsystem; core may not use io, so only plain numbers live here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::core {

// [SECTION] the Hugging Face Hub downloader (io/hub_fetch.h)

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

// The largest model.safetensors.index.json fetched or read (a model folder's too). Llama-3.1-405B's index (1,138 tensors in 191 shards)
// is 110 kB; 16 MB leaves room for 100x more tensors.
inline constexpr std::uint64_t kMaxShardIndexBytes = 16'000'000;

// The most header bytes one HTTP response may send. The Hub sends ~2 kB; libcurl caps each line at 100 kB but
// not how many lines come.
inline constexpr std::size_t kHubMaxHeaderBytes = 256'000;

}  // namespace attnviz::core
