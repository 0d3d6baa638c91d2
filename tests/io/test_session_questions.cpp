// test_session_questions.cpp — the lesson's questions of ask mode (Session::questions, issue 36) in session files: they
// round-trip through JSON and a saved file, are left out of a file that asked none (so it opens in older versions),
// a session written before them opens with none asked, and a question that cannot be (an unknown kind, a truth or
// pick outside its choices, a count per choice missing) is refused by name.
#include "io/session.h"

#include "scratch_dir.h"

#include <doctest/doctest.h>

namespace {

using namespace attnviz;

io::Session withQuestions() {
    io::Session session;
    session.sentences = {"the cat sat on the mat", "the dog sat"};
    session.questions = {{"attended", 3, 0, 2, 4, 1, 1, {5, 12, 4, 3}}, {"scaling", 4, 1, 0, 3, 2, std::nullopt, {}}, {"mask", 5, 0, 0, 4, 0, 3, {}}};
    return session;
}

std::string refusalOf(const std::string& questions) {
    try {
        io::sessionFromJson(R"({"schema_version": 1, "questions": )" + questions + "}", "lesson.json");
    } catch (const io::FileError& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("session: the lesson's questions, picks and class counts round-trip through JSON and a file, absent when none was asked") {
    const io::Session session = withQuestions();
    const std::string text = io::sessionToJson(session);
    CHECK(text.find(R"("kind": "attended")") != std::string::npos);
    CHECK(text.find(R"("picked": null)") != std::string::npos);  // the scaling question had no pick
    CHECK(io::sessionFromJson(text, "lesson.json") == session);
    test::ScratchDir dir("session-questions");
    io::saveSession(dir.path() / "lesson.json", session);
    CHECK(io::loadSession(dir.path() / "lesson.json") == session);
    CHECK(io::sessionToJson(io::Session{}).find("questions") == std::string::npos);  // older versions still read it
    CHECK(session.questions[0].right());
    CHECK_FALSE(session.questions[1].right());
    CHECK_FALSE(session.questions[2].right());
}

TEST_CASE("session: a session written before ask mode opens with no questions asked") {
    const io::Session old = io::sessionFromJson(R"({"schema_version": 1, "inputs": {"sentences": ["the cat sat"]}})", "old.json");
    CHECK(old.questions.empty());
}

TEST_CASE("session: a question that cannot be is refused, naming it and what is wrong") {
    CHECK(refusalOf(R"([{"kind": "colour", "truth": 0}])").find("questions[0].kind must be one of attended") != std::string::npos);
    CHECK(refusalOf(R"([{"truth": 0}])").find("questions[0] has no kind") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "choices": 4, "truth": 4}])").find("questions[0] must have its truth and pick among its 4 choices") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "picked": -1}])").find("among its 4 choices") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "choices": 5}])").find("questions[0].choices must be 3 or 4") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "counts": [1, 2]}])").find("questions[0].counts must have one count per choice") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "counts": [1, -2, 0, 0]}])").find("questions[0].counts must be an array of whole numbers") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "batch": 1}])").find("one of the session's sentences") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "shape", "colour": 1}])").find("questions[0] has an unknown member \"colour\"") != std::string::npos);
    CHECK(refusalOf(R"({"kind": "shape"})").find("questions must be a JSON array") != std::string::npos);
}

TEST_CASE("session: a typed word and clicked cells round-trip with whether they were right, written only when given") {
    io::Session session = withQuestions();
    io::AskedQuestion typed{"predict", 6, 0, 0, 4, 2, std::nullopt, {}};
    typed.typed = "tired";
    typed.answeredRight = true;
    io::AskedQuestion clicked{"mask", 7, 0, 0, 4, 1, std::nullopt, {}};
    clicked.cells = "0111001100010000";
    session.questions.push_back(typed);
    session.questions.push_back(clicked);
    const std::string text = io::sessionToJson(session);
    CHECK(text.find(R"("typed": "tired")") != std::string::npos);
    CHECK(text.find(R"("cells": "0111001100010000")") != std::string::npos);
    CHECK(io::sessionFromJson(text, "lesson.json") == session);
    CHECK(io::sessionToJson(withQuestions()).find("\"right\"") == std::string::npos);  // picks by choice: no member added
    CHECK(session.questions[3].right());
    CHECK_FALSE(session.questions[4].right());
    CHECK(refusalOf(R"([{"kind": "mask", "cells": "0120"}])").find("questions[0].cells must be at most 576 characters, each 0 (kept) or 1 (removed)") != std::string::npos);
    CHECK(refusalOf(R"([{"kind": "predict", "typed": ")" + std::string(200, 'a') + R"("}])").find("questions[0].typed must be one word") != std::string::npos);
}
