// wide_characters.cpp — stand-ins for characters beyond U+FFFF in ImGui's 16-bit text fields. See wide_characters.h.
#include "ui/widgets/wide_characters.h"

#include "core/unicode.h"

#include <imgui_stdlib.h>

#include <unordered_map>

namespace attnviz::ui {
namespace {

constexpr char32_t kLastBmp = 0xFFFF;
// Stand-ins, in the order they are handed out: Unicode's 32 noncharacters U+FDD0…U+FDEF ("for internal use", and
// the only ones ImGui lets a key type: it drops typed Private Use characters), then the Private Use Area downwards
// (pasted and stored text only).
constexpr char32_t kNoncharacterFirst = 0xFDD0, kNoncharacterLast = 0xFDEF;
constexpr char32_t kPrivateUseFirst = 0xE000, kPrivateUseLast = 0xF8FF;
constexpr char32_t kReplacement = 0xFFFD;  // what ImGui shows once every stand-in is used up

// One table for the whole run: the field, the keyboard and the clipboard must agree on every stand-in.
struct StandInTable {
    std::unordered_map<char32_t, char32_t> standIns;   // wide character → stand-in
    std::unordered_map<char32_t, char32_t> originals;  // stand-in → wide character
    char32_t nextNoncharacter = kNoncharacterFirst;
    char32_t nextPrivateUse = kPrivateUseLast;

    char32_t take() {
        if (nextNoncharacter <= kNoncharacterLast) return nextNoncharacter++;
        if (nextPrivateUse >= kPrivateUseFirst) return nextPrivateUse--;
        return kReplacement;
    }
    char32_t standInFor(char32_t wide) {
        if (const auto found = standIns.find(wide); found != standIns.end()) return found->second;
        const char32_t standIn = take();
        if (standIn == kReplacement) return kReplacement;
        standIns.emplace(wide, standIn);
        originals.emplace(standIn, wide);
        return standIn;
    }
    char32_t originalOf(char32_t character) const {
        const auto found = originals.find(character);
        return found != originals.end() ? found->second : character;
    }
};

StandInTable& table() {
    static StandInTable shared;
    return shared;
}

// The platform backend's clipboard functions, called through our wrappers.
const char* (*backendGetClipboard)(void*) = nullptr;
void (*backendSetClipboard)(void*, const char*) = nullptr;

const char* pasteKeepingWideCharacters(void* userData) {
    static std::string pasted;  // ImGui copies it before the next call
    const char* text = backendGetClipboard != nullptr ? backendGetClipboard(userData) : nullptr;
    if (text == nullptr) return nullptr;
    pasted = withStandIns(text);
    return pasted.c_str();
}

void copyKeepingWideCharacters(void* userData, const char* text) {
    if (backendSetClipboard != nullptr) backendSetClipboard(userData, withoutStandIns(text != nullptr ? text : "").c_str());
}

}  // namespace

char32_t standInFor(char32_t character) { return character <= kLastBmp ? character : table().standInFor(character); }

std::string withStandIns(std::string_view utf8) {
    std::u32string field;
    for (char32_t c : core::decodeUtf8(utf8)) field.push_back(standInFor(c));
    return core::utf8Of(field);
}

std::string withoutStandIns(std::string_view utf8) {
    std::u32string text;
    for (char32_t c : core::decodeUtf8(utf8)) text.push_back(table().originalOf(c));
    return core::utf8Of(text);
}

bool inputTextKeepingWideCharacters(const char* label, std::string& text, ImGuiInputTextFlags flags) {
    const std::string shown = withStandIns(text);
    std::string field = shown;
    const bool returned = ImGui::InputText(label, &field, flags);
    if (field != shown) text = withoutStandIns(field);  // every edit, also when `flags` has InputText return on Enter only
    return returned;
}

void typeCharacter(char32_t character) { ImGui::GetIO().AddInputCharacter(static_cast<unsigned int>(standInFor(character))); }

void keepWideCharactersOnClipboard() {
    ImGuiIO& io = ImGui::GetIO();
    if (io.GetClipboardTextFn == pasteKeepingWideCharacters) return;  // already wrapped
    backendGetClipboard = io.GetClipboardTextFn;
    backendSetClipboard = io.SetClipboardTextFn;
    io.GetClipboardTextFn = pasteKeepingWideCharacters;
    io.SetClipboardTextFn = copyKeepingWideCharacters;
}

}  // namespace attnviz::ui
