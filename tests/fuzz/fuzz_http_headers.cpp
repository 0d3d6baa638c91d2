// fuzz_http_headers.cpp — libFuzzer entry point for a Hub server's response headers as libcurl hands them to
// io::addHeaderLine, one line at a time (the input split after each '\n').
//
// Any bytes must leave a status of 0 or 100 to 599, header names lower-case without surrounding spaces, and a
// byte count that stops the transfer past core::limits::kHubMaxHeaderBytes. Otherwise the entry point aborts so the
// fuzzer reports the input. Seeds: tests/fuzz/corpus/http_headers/.
#include "core/limits.h"
#include "io/hub_answers.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    attnviz::io::ResponseHead head;
    std::size_t start = 0;
    while (start < input.size()) {
        const std::size_t end = std::min(input.find('\n', start), input.size() - 1) + 1;
        const bool accepted = attnviz::io::addHeaderLine(head, input.substr(start, end - start));
        if (accepted != (head.bytes <= attnviz::core::limits::kHubMaxHeaderBytes)) std::abort();
        if (!accepted) break;
        start = end;
    }
    if (head.status != 0 && (head.status < 100 || head.status > 599)) std::abort();
    for (const auto& [name, value] : head.headers) {
        for (const char c : name) {
            if (std::isupper(static_cast<unsigned char>(c))) std::abort();
        }
        if (!name.empty() && (std::isspace(static_cast<unsigned char>(name.front())) || std::isspace(static_cast<unsigned char>(name.back())))) std::abort();
    }
    return 0;
}
