// fuzz_session.cpp — libFuzzer entry point for the session parser (io::sessionFromJson).
//
// Any bytes must give a Session or an io::FileError, the one error sessions document. What loads must also
// save (checkSession accepts it) and survive sessionToJson → sessionFromJson unchanged; otherwise the entry
// point aborts so the fuzzer reports the input, as it does for an error message that is not valid UTF-8. Every
// other exception escapes on purpose.
// Seeds: tests/fuzz/corpus/session/. What this file deliberately does not do: touch the file system (saveSession,
// loadSession) or read the weight files a session names.
#include "core/unicode.h"
#include "io/session.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const attnviz::io::Session session = attnviz::io::sessionFromJson(text, "fuzz.json");
        attnviz::io::checkSession(session, "fuzz.json");
        if (!(attnviz::io::sessionFromJson(attnviz::io::sessionToJson(session), "fuzz.json") == session)) std::abort();
    } catch (const attnviz::io::FileError& error) {
        // A refused file, the documented outcome; its message is shown as is, so it must be valid UTF-8.
        if (attnviz::core::findInvalidUtf8(error.what()) != std::string_view::npos) std::abort();
    }
    return 0;
}
