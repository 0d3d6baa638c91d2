// wide_characters.h — characters beyond U+FFFF (emoji, rare CJK ideographs) kept through Dear ImGui's text fields.
//
// Debian's Dear ImGui stores a character in 16 bits: a text field holding "😀", a typed 😀 and a pasted one all
// become U+FFFD, although the command line keeps the character (the tokenizer sees it, BERT gives it [UNK]). So
// while a character beyond U+FFFF is inside ImGui it travels as a stand-in — one of Unicode's noncharacters
// U+FDD0…U+FDEF, then the Private Use Area: code points with no meaning of their own — the same stand-in for the
// same character for the whole run, and it is turned back into itself when the text leaves the field, the
// clipboard or the keyboard. (ImGui drops a typed Private Use character, so the first 32 distinct wide
// characters of a run can be typed; any number can be pasted or stored.)
// The field draws a stand-in as ImGui's fallback glyph; the tokens stage names the real character.
//
// What it deliberately does not do: draw the characters (core/display_text.h shows "[U+1F600]" on maps and
// figures), or touch text that never passes through ImGui.
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>

namespace attnviz::ui {

// The stand-in ImGui is given for a typed character: itself up to U+FFFF.
char32_t standInFor(char32_t character);

// Text for an ImGui field (each character beyond U+FFFF replaced by its stand-in), and back.
std::string withStandIns(std::string_view utf8);
std::string withoutStandIns(std::string_view utf8);

// ImGui::InputText over `text` (UTF-8, any character), keeping characters beyond U+FFFF; `text` follows every edit.
// Returns what ImGui::InputText returns: true when edited (with ImGuiInputTextFlags_EnterReturnsTrue: Enter pressed).
bool inputTextKeepingWideCharacters(const char* label, std::string& text, ImGuiInputTextFlags flags = 0);

// A typed character, as GLFW's character callback reports it, into ImGui's input queue.
void typeCharacter(char32_t character);

// Wraps the current ImGui clipboard functions (io.GetClipboardTextFn / SetClipboardTextFn, which the platform
// backend installs) so that pasting and copying keep characters beyond U+FFFF. Call once after the backend.
void keepWideCharactersOnClipboard();

}  // namespace attnviz::ui
