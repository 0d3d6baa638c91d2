// widget_label.h — the one way to give a Dear ImGui widget text it did not choose (a token, a word of the sentence,
// a model's name, a file path): the label shows the text whole and carries its id separately.
//
// ImGui reads "##" in a label as "the rest is a hidden id" and "###" as "the rest is the whole id", so the WordPiece
// piece "##e" drew as an empty chip (issue 32). widgetLabel puts U+2060 WORD JOINER (no width; DejaVu has it)
// between two '#', so ImGui sees no "##" in the text, and appends "###id" when an id is given (the widget keeps its
// id when its text changes). Every ImGui widget whose label is not a string literal takes its label from here
// (test_widget_label scans src/ for it); BeginCombo's preview text too.
#pragma once

#include <string>
#include <string_view>

namespace attnviz::ui {

// "##e" → "#\u2060#e"; with an id, "##e" + "chip3" → "#\u2060#e###chip3".
std::string widgetLabel(std::string_view text, std::string_view id = {});

}  // namespace attnviz::ui
