// browser_files.cpp — see browser_files.h. The C++ half: the open question (a promise the app's SessionService
// polls), the functions browser_files.js calls when files arrive (exported, extern "C"), the Outbox of downloads.
#include "app/web/browser_files.h"

#include "app/page_files.h"

#include <emscripten.h>

#include <cstdint>
#include <filesystem>
#include <future>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::app::web {
namespace {
namespace fs = std::filesystem;

using Answer = std::optional<fs::path>;

// What the browser has sent since the last frame, and the chooser's open question.
struct BrowserFiles {
    std::optional<std::promise<Answer>> question;   // File ▸ Open… or Open model folder… waiting for the chooser
    bool questionIsFolder = false;                  // Open model folder… / Load weights… (else a session file)
    std::vector<ui::SessionRequest> arrived;        // dropped or chosen unasked: opened next frame
    std::vector<std::string> sentences;             // for the status line
    Outbox downloads{kDownloadsFolder};
};

BrowserFiles& files() {
    static BrowserFiles state;
    return state;
}

void answer(Answer path) {
    if (!files().question) return;
    files().question->set_value(std::move(path));
    files().question.reset();
}

EM_JS(void, chooseInBrowser, (bool folder), { Module.attnvizFiles.choose(folder); });
EM_JS(void, downloadFromPage, (const char* path), { Module.attnvizFiles.download(UTF8ToString(path)); });
EM_JS(void, syncInBrowser, (), { Module.attnvizFiles.sync(); });
EM_JS(bool, storageWasRead, (), { return Module.attnvizFiles.storageRead; });

}  // namespace

ui::FilePicker makeBrowserFilePicker() {
    return [](const ui::PickRequest& request) -> std::future<Answer> {
        if (request.kind == ui::PickKind::SaveFile) {  // no chooser: written into the downloads, then downloaded
            const fs::path name = request.suggested.has_filename() ? request.suggested.filename() : fs::path("attnviz-session.json");
            std::promise<Answer> saved;
            saved.set_value(fs::path(kDownloadsFolder) / name);
            return saved.get_future();
        }
        answer(std::nullopt);  // a question the browser never answered (no "cancel" event) ends here
        files().question.emplace();
        files().questionIsFolder = request.kind == ui::PickKind::Folder;
        chooseInBrowser(files().questionIsFolder);
        return files().question->get_future();
    };
}

void exchangeFiles(ui::AppState& state) {
    BrowserFiles& browser = files();
    browser.downloads.deliverChanged([](const fs::path& file) { downloadFromPage(file.c_str()); });
    if (!browser.arrived.empty() && state.session.request.action == ui::SessionAction::None) {
        state.session.request = browser.arrived.front();
        browser.arrived.erase(browser.arrived.begin());
    }
    if (!browser.sentences.empty()) {
        state.status = browser.sentences.back();
        browser.sentences.clear();
    }
}

void syncStorage() { syncInBrowser(); }

std::string storageProblem() {
    if (storageWasRead()) return {};
    return "This browser gives the page no storage, so settings and unsaved changes last only as long as this tab.";
}

}  // namespace attnviz::app::web

// Called by browser_files.js.
extern "C" {

// Before a chosen or dropped model folder is read: 1 when its files' `bytes` fit the page, else 0 and the refusal
// goes on the status line.
EMSCRIPTEN_KEEPALIVE int attnviz_accept_model_files(double bytes) {
    const std::string refusal = attnviz::app::pageModelRefusal(static_cast<std::uint64_t>(bytes));
    if (refusal.empty()) return 1;
    attnviz::app::web::files().sentences.push_back(refusal);
    attnviz::app::web::answer(std::nullopt);
    return 0;
}

// Files copied into the page: `path` a model folder (`folder`) or a session file in the downloads folder; empty
// when the chooser was cancelled or the copy failed (`problem`, one sentence, or empty).
EMSCRIPTEN_KEEPALIVE void attnviz_files_arrived(const char* path, int folder, const char* problem) {
    using namespace attnviz;
    app::web::BrowserFiles& browser = app::web::files();
    if (*problem != '\0') browser.sentences.emplace_back(problem);
    if (*path == '\0') return app::web::answer(std::nullopt);
    if (!folder) browser.downloads.markDelivered(path);  // already the user's: downloaded again only once saved
    if (browser.question && browser.questionIsFolder == (folder != 0)) return app::web::answer(std::filesystem::path(path));
    browser.arrived.push_back({folder ? ui::SessionAction::OpenRecentModel : ui::SessionAction::OpenRecent, path});
}

}  // extern "C"
