// test_session_compare.cpp — the compared sentence (ModelSpec::compareWith, issue 35) in session files: it round-trips
// through JSON and through toModelSpec / fromModelSpec, it is left out of the file while compare is off, a session
// written before it existed opens with compare off, and a compared sentence that is not UTF-8 (a Session built in memory) is refused by name.
// What B is (ModelSpec::compareKind: heads off, untrained) round-trips too, absent for another sentence.
#include "io/session.h"

#include <doctest/doctest.h>

namespace {

using namespace attnviz;

}  // namespace

TEST_CASE("session: the compared sentence round-trips, and is absent from the file while compare is off") {
    core::ModelSpec spec;
    spec.sentences = {"the cat sat"};
    spec.compareWith = "the dog sat";
    const io::Session session = io::fromModelSpec(spec);
    CHECK(session.compareWith == std::optional<std::string>("the dog sat"));
    const std::string text = io::sessionToJson(session);
    CHECK(text.find("\"compare_with\": \"the dog sat\"") != std::string::npos);
    const io::Session read = io::sessionFromJson(text, "compare.json");
    CHECK(read == session);
    CHECK(io::toModelSpec(read).compareWith == spec.compareWith);

    spec.compareWith.reset();
    CHECK(io::sessionToJson(io::fromModelSpec(spec)).find("compare_with") == std::string::npos);
}

TEST_CASE("session: a session written before compare existed opens with compare off, and a bad compared sentence is refused") {
    const io::Session old = io::sessionFromJson(R"({"schema_version": 1, "inputs": {"sentences": ["the cat sat"]}})", "old.json");
    CHECK_FALSE(old.compareWith.has_value());
    CHECK_FALSE(io::toModelSpec(old).compareWith.has_value());
    CHECK_FALSE(io::sessionFromJson(R"({"schema_version": 1, "inputs": {"compare_with": null}})", "null.json").compareWith.has_value());
    CHECK_THROWS_WITH_AS(io::sessionFromJson(R"({"schema_version": 1, "inputs": {"compare_with": 3}})", "bad.json"),
                         doctest::Contains("inputs.compare_with must be a string"), io::FileError);
    io::Session notUtf8;
    notUtf8.compareWith = "\xff";
    CHECK_THROWS_WITH_AS(io::checkSession(notUtf8, "utf8.json"), doctest::Contains("inputs.compare_with is not valid UTF-8"), io::FileError);
}

TEST_CASE("session: what B is (heads off, untrained) round-trips as \"compare\", left out for another sentence, a bad name refused") {
    core::ModelSpec spec;
    spec.sentences = {"the cat sat"};
    spec.compareWith = "the dog sat";
    for (const core::CompareKind kind : {core::CompareKind::HeadsOff, core::CompareKind::Untrained}) {
        spec.compareKind = kind;
        const std::string text = io::sessionToJson(io::fromModelSpec(spec));
        CHECK(text.find("\"compare\": \"" + std::string(core::nameOf(kind)) + "\"") != std::string::npos);
        const core::ModelSpec read = io::toModelSpec(io::sessionFromJson(text, "kind.json"));
        CHECK(read.compareKind == kind);
        CHECK(read.compareWith == spec.compareWith);
    }
    spec.compareKind = core::CompareKind::Sentence;
    CHECK(io::sessionToJson(io::fromModelSpec(spec)).find("\"compare\"") == std::string::npos);  // older attnvizes read it
    CHECK(io::toModelSpec(io::sessionFromJson(R"({"schema_version": 1, "inputs": {"compare_with": "x"}})", "old.json")).compareKind ==
          core::CompareKind::Sentence);
    CHECK_THROWS_WITH_AS(io::sessionFromJson(R"({"schema_version": 1, "inputs": {"compare_with": "x", "compare": "random"}})", "bad.json"),
                         doctest::Contains("\"sentence\", \"heads-off\", \"untrained\""), io::FileError);
}
