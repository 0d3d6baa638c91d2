// model_library.cpp — background opening, cancel and sharing of model folders. See model_library.h.
#include "io/model_library.h"

#include "io/memory_budget.h"
#include "io/model_folder.h"

#include <map>
#include <mutex>
#include <thread>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;

// The folder as the cache knows it: symlinks resolved, so two paths to one folder share one model.
fs::path canonicalOf(const fs::path& folder) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(folder, error), error);
    return error ? folder.lexically_normal() : canonical;
}

}  // namespace

struct ModelLibrary::Shared {
    Loader load;
    mutable std::mutex mutex;
    std::map<fs::path, std::weak_ptr<const core::TrainedModel>> held;  // canonical folder → the model opened from it
    std::uint64_t generation = 0;                                      // bumped by open() and cancel()
    std::optional<fs::path> opening;
    std::optional<Opened> finished;

    std::shared_ptr<const core::TrainedModel> cached(const fs::path& canonical) {
        const std::lock_guard lock(mutex);
        const auto found = held.find(canonical);
        return found == held.end() ? nullptr : found->second.lock();
    }

    // Loads, caches, and says what went wrong in one sentence.
    Opened run(const fs::path& folder) {
        Opened opened{folder, nullptr, {}};
        const fs::path canonical = canonicalOf(folder);
        try {
            opened.model = cached(canonical);
            if (!opened.model) {
                opened.model = load ? load(folder) : loadModelFolder(folder);
                const std::lock_guard lock(mutex);
                held[canonical] = opened.model;
            }
        } catch (const FileError& error) {
            opened.error = error.what();
        } catch (const core::InputError& error) {
            opened.error = error.what();
        } catch (const std::bad_alloc&) {
            opened.error = "Opening " + folder.string() + " ran out of memory. " + outOfMemoryMessage();
        } catch (const std::exception& error) {
            opened.error = "Could not open " + folder.string() + ": " + error.what();
        }
        if (opened.model == nullptr && opened.error.empty()) opened.error = folder.string() + " holds no model.";
        return opened;
    }
};

ModelLibrary::ModelLibrary(Loader load) : shared_(std::make_shared<Shared>()) { shared_->load = std::move(load); }

ModelLibrary::~ModelLibrary() { cancel(); }

void ModelLibrary::open(const fs::path& folder) {
    std::uint64_t generation = 0;
    {
        const std::lock_guard lock(shared_->mutex);
        generation = ++shared_->generation;
        shared_->opening = folder;
        shared_->finished.reset();
    }
    std::thread([shared = shared_, folder, generation] {
        Opened opened = shared->run(folder);
        const std::lock_guard lock(shared->mutex);
        if (shared->generation != generation) return;  // cancelled or replaced: dropped
        shared->opening.reset();
        shared->finished = std::move(opened);
    }).detach();
}

void ModelLibrary::cancel() {
    const std::lock_guard lock(shared_->mutex);
    ++shared_->generation;
    shared_->opening.reset();
    shared_->finished.reset();
}

std::optional<fs::path> ModelLibrary::opening() const {
    const std::lock_guard lock(shared_->mutex);
    return shared_->opening;
}

std::optional<ModelLibrary::Opened> ModelLibrary::take() {
    const std::lock_guard lock(shared_->mutex);
    return std::exchange(shared_->finished, std::nullopt);
}

std::shared_ptr<const core::TrainedModel> ModelLibrary::openNow(const fs::path& folder) {
    Opened opened = shared_->run(folder);
    if (!opened.model) throw FileError(opened.error);
    return opened.model;
}

}  // namespace attnviz::io
