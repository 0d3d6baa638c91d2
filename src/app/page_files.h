// page_files.h — the web page's rules for files that cross the browser's edge, kept free of the browser so the
// desktop tests them (tests/ui/test_page_files.cpp); src/app/web/browser_files.cpp wires them to the browser.
//   Outbox: a folder whose new or rewritten files are handed to the browser as downloads (figures, saved sessions).
//   pageModelRefusal: the sentence that refuses a model folder too big for the page's memory, before it is read.
// What it deliberately does not do: talk to the browser, or remove delivered files (a saved session stays where the
// app saved it, so Ctrl+S can rewrite it, which delivers it again).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace attnviz::app {

class Outbox {
public:
    explicit Outbox(std::filesystem::path folder) : folder_(std::move(folder)) {}

    const std::filesystem::path& folder() const { return folder_; }
    // A file already with the user (one they chose, copied in): delivered only once it is rewritten.
    void markDelivered(const std::filesystem::path& file);
    // Hands each file of the folder that is new or rewritten since it was last handed over to `deliver`, in name
    // order. Skipped: subfolders and names starting with "." (io::writeFileAtomically's temporary files).
    void deliverChanged(const std::function<void(const std::filesystem::path&)>& deliver);

private:
    // Which write of a file this is: an atomic rewrite makes a new file (inode), a rewrite in place changes the time.
    struct Version {
        std::uint64_t inode = 0;
        std::int64_t modifiedNanoseconds = 0;
        std::uint64_t size = 0;
        bool operator==(const Version&) const = default;
    };
    static bool versionOf(const std::filesystem::path& file, Version& version);

    std::filesystem::path folder_;
    std::map<std::string, Version> delivered_;  // file name → the version handed over
};

// WebAssembly's 32-bit memory: the page can never hold more than 4 GiB.
inline constexpr std::uint64_t kPageMemoryBytes = 4ull << 30;
// The largest model folder the page opens (1 GiB): a model needs up to about four times its files' bytes while it
// opens (the files in the browser's memory, the bytes read, the float32 weights of a 16-bit checkpoint, the runs).
inline constexpr std::uint64_t kPageModelFileBytes = kPageMemoryBytes / 4;

// Empty when `fileBytes` (the model folder's files, summed) fit; else one sentence saying the limit.
std::string pageModelRefusal(std::uint64_t fileBytes);

}  // namespace attnviz::app
