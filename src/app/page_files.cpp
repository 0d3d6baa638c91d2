// page_files.cpp — see page_files.h.
#include "app/page_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <system_error>
#include <vector>

namespace attnviz::app {
namespace fs = std::filesystem;

bool Outbox::versionOf(const fs::path& file, Version& version) {
    struct stat status {};
    if (::stat(file.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return false;
    version = {static_cast<std::uint64_t>(status.st_ino),
               static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec,
               static_cast<std::uint64_t>(status.st_size)};
    return true;
}

void Outbox::markDelivered(const fs::path& file) {
    if (Version version; versionOf(file, version)) delivered_[file.filename().string()] = version;
}

void Outbox::deliverChanged(const std::function<void(const fs::path&)>& deliver) {
    std::vector<fs::path> files;
    std::error_code error;
    for (fs::directory_iterator entry(folder_, error); !error && entry != fs::directory_iterator(); entry.increment(error)) {
        if (entry->path().filename().string().starts_with(".")) continue;
        files.push_back(entry->path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        Version version;
        if (!versionOf(file, version)) continue;  // a folder, or gone since it was listed
        const auto [known, added] = delivered_.try_emplace(file.filename().string(), version);
        if (!added && known->second == version) continue;
        known->second = version;
        deliver(file);
    }
}

std::string pageModelRefusal(std::uint64_t fileBytes) {
    if (fileBytes <= kPageModelFileBytes) return {};
    const auto gigabytes = [](std::uint64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(1ull << 30); };
    char sentence[320];
    std::snprintf(sentence, sizeof sentence,
                  "This model's files are %.1f GB; the web page opens models up to %.0f GB (WebAssembly gives it %.0f GB of "
                  "memory, and a model needs up to four times its files' size while it opens), so use the desktop app for it.",
                  gigabytes(fileBytes), gigabytes(kPageModelFileBytes), gigabytes(kPageMemoryBytes));
    return sentence;
}

}  // namespace attnviz::app
