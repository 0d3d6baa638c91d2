// portable.h — the few C++20 library pieces the web page's compiler lacks, in one place, and whether this build can
// start threads. The desktop (GCC 12, clang 16) uses the standard ones; Debian's emscripten 3.1.6 (the `web` preset,
// its libc++ 14) has no std::jthread, no std::bit_cast and no floating-point std::to_chars / std::from_chars.
// The page is built without threads (it works from any static host): code that would start a thread asks
// kThreadsAvailable and does the work on the calling thread instead.
#pragma once

#include <bit>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attnviz::core {

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kThreadsAvailable = false;  // the page without SharedArrayBuffer: one thread, the browser's
#else
inline constexpr bool kThreadsAvailable = true;
#endif

// std::bit_cast: the same bits read as another type of the same size.
template <typename To, typename From>
To bitCast(const From& from) {
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
    return std::bit_cast<To>(from);
#else
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
#endif
}

// std::jthread without stop tokens: a thread joined when it goes.
#if defined(__cpp_lib_jthread)
using JoiningThread = std::jthread;
#else
class JoiningThread {
public:
    template <typename Work>
    explicit JoiningThread(Work&& work) : thread_(std::forward<Work>(work)) {}
    JoiningThread(JoiningThread&&) noexcept = default;
    JoiningThread& operator=(JoiningThread&& other) noexcept {
        if (thread_.joinable()) thread_.join();
        thread_ = std::move(other.thread_);
        return *this;
    }
    ~JoiningThread() {
        if (thread_.joinable()) thread_.join();
    }

private:
    std::thread thread_;
};
#endif

namespace detail {

// The fewest significant digits that read back exactly (9 always do), written as std::to_chars writes them: the
// shorter of fixed and scientific notation, fixed on a tie ("100", not "1e+02"). tests/core/test_portable.cpp checks
// it against std::to_chars on the desktop.
inline std::string shortestTextBySearch(float value) {
    if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value < 0 ? "-inf" : "inf");
    char scientific[32];
    int digits = 1;
    for (; digits < 9; ++digits) {
        std::snprintf(scientific, sizeof scientific, "%.*e", digits - 1, static_cast<double>(value));
        if (std::strtof(scientific, nullptr) == value) break;
    }
    std::snprintf(scientific, sizeof scientific, "%.*e", digits - 1, static_cast<double>(value));
    const int exponent = std::atoi(std::strchr(scientific, 'e') + 1);  // of the rounded digits (log10 of 0.01f is below −2)
    char fixed[64];
    std::snprintf(fixed, sizeof fixed, "%.*f", std::max(0, digits - 1 - exponent), static_cast<double>(value));
    return std::strlen(fixed) <= std::strlen(scientific) ? std::string(fixed) : std::string(scientific);
}

// strtof over all of `text`, refusing what std::from_chars refuses (leading spaces, '+', hexadecimal).
inline std::errc parseFloatByStrtof(std::string_view text, float& value) {
    if (text.empty() || text.front() == ' ' || text.front() == '+' || text.find_first_of("xX") != std::string_view::npos) {
        return std::errc::invalid_argument;
    }
    const std::string copy(text);  // strtof wants a terminated string
    char* end = nullptr;
    errno = 0;
    const float parsed = std::strtof(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) return std::errc::invalid_argument;
    if (errno == ERANGE && std::isinf(parsed)) return std::errc::result_out_of_range;
    value = parsed;
    return std::errc();
}

}  // namespace detail

// The shortest text that reads back as exactly `value` (std::to_chars(float) without a precision).
inline std::string shortestText(float value) {
#if defined(__cpp_lib_to_chars)
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
#else
    return detail::shortestTextBySearch(value);
#endif
}

// std::from_chars(float) over all of `text`: std::errc() and the value, or std::errc::invalid_argument (not a number,
// or text after it) or std::errc::result_out_of_range (beyond ±3.4e38; the desktop's from_chars also for underflow).
inline std::errc parseFloat(std::string_view text, float& value) {
#if defined(__cpp_lib_to_chars)
    const auto [end, code] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (code != std::errc()) return code;
    return end == text.data() + text.size() ? std::errc() : std::errc::invalid_argument;
#else
    return detail::parseFloatByStrtof(text, value);
#endif
}

}  // namespace attnviz::core
