// test_widget_label.cpp — widget text shown whole (issue 32: the WordPiece piece "##e" drew as an empty chip, since
// ImGui reads "##" in a label as the start of a hidden id). ui::widgetLabel keeps the text visible and the id apart;
// a scan of src/ checks that every ImGui widget whose label (and BeginCombo's preview) is not a string literal takes
// it from widgetLabel, so a token, a word or a file name never loses its tail.
#include "ui/widgets/widget_label.h"

#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using attnviz::ui::widgetLabel;

// The part of `label` ImGui draws.
std::string drawn(const std::string& label) { return std::string(label.c_str(), ImGui::FindRenderedTextEnd(label.c_str())); }

std::string withoutJoiners(std::string text) {
    for (std::size_t at; (at = text.find("\u2060")) != std::string::npos;) text.erase(at, 3);
    return text;
}

// The top-level arguments of the call whose '(' is at `open` (strings and nested brackets skipped).
std::vector<std::string> argumentsAt(const std::string& source, std::size_t open) {
    std::vector<std::string> arguments;
    std::string current;
    int depth = 0;
    for (std::size_t i = open + 1; i < source.size(); ++i) {
        const char c = source[i];
        if (c == '"' || c == '\'') {
            const std::size_t start = i;
            for (++i; i < source.size() && source[i] != c; ++i) i += source[i] == '\\' ? 1 : 0;
            current += source.substr(start, i - start + 1);
            continue;
        }
        if (c == '(' || c == '[' || c == '{') ++depth;
        if ((c == ')' || c == ']' || c == '}') && depth-- == 0) break;
        if (c == ',' && depth == 0) {
            arguments.push_back(current);
            current.clear();
            continue;
        }
        current += c;
    }
    arguments.push_back(current);
    for (std::string& a : arguments) a.erase(0, a.find_first_not_of(" \n"));
    return arguments;
}

bool literalOrWidgetLabel(const std::string& argument) {
    return argument.rfind("\"", 0) == 0 || argument.rfind("widgetLabel(", 0) == 0 || argument == "nullptr";
}

}  // namespace

TEST_CASE("widget label: WordPiece pieces and other text with # are drawn whole — the id stays apart") {
    CHECK(drawn("##e").empty());  // the defect: ImGui hides everything after "##"
    CHECK(withoutJoiners(drawn(widgetLabel("##e"))) == "##e");
    CHECK(withoutJoiners(drawn(widgetLabel("##raße", "chip 3"))) == "##raße");
    CHECK(widgetLabel("##raße", "chip 3").ends_with("###chip 3"));  // the id ImGui hashes: "###chip 3" alone
    CHECK(withoutJoiners(drawn(widgetLabel("C# ### x"))) == "C# ### x");
    CHECK(widgetLabel("suitcase") == "suitcase");  // text without "##" is unchanged
}

TEST_CASE("widget label: every ImGui widget whose label is not a literal takes it from widgetLabel") {
    const std::regex widget(R"(ImGui::(SmallButton|Button|Selectable|TreeNode|TreeNodeEx|BeginCombo|MenuItem|BeginMenu|BeginTabItem|TabItemButton|RadioButton|Checkbox|CollapsingHeader|Combo)\()");
    int calls = 0;
    std::vector<std::string> bare;
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(ATTNVIZ_SOURCE_DIR) / "src")) {
        if (entry.path().extension() != ".cpp" && entry.path().extension() != ".h") continue;
        std::ifstream in(entry.path());
        const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (auto m = std::sregex_iterator(source.begin(), source.end(), widget); m != std::sregex_iterator(); ++m) {
            const std::vector<std::string> arguments = argumentsAt(source, static_cast<std::size_t>(m->position() + m->length() - 1));
            const std::size_t checked = (*m)[1] == "BeginCombo" ? 2 : 1;  // a combo's preview is drawn text too
            for (std::size_t a = 0; a < checked && a < arguments.size(); ++a) {
                if (!literalOrWidgetLabel(arguments[a])) bare.push_back(entry.path().filename().string() + ": " + m->str() + arguments[a]);
            }
            ++calls;
        }
    }
    for (const std::string& call : bare) MESSAGE("label not from widgetLabel: " << call);
    CHECK(calls > 100);  // the scan found the widgets
    CHECK(bare.empty());
}
