// model_library.cpp — background opening, cancel and sharing of model folders. See model_library.h.
#include "io/model_library.h"

#include "core/portable.h"
#include "io/assets.h"
#include "io/checkpoint.h"
#include "io/memory_budget.h"
#include "io/model_folder.h"

#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include <sys/resource.h>
#include <unistd.h>

namespace attnviz::io {
namespace {

namespace fs = std::filesystem;

// The folder as the cache knows it: symlinks resolved, so two paths to one folder share one model.
fs::path canonicalOf(const fs::path& folder) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(folder, error), error);
    return error ? folder.lexically_normal() : canonical;
}

// The opening thread yields the cores to the window's thread and the GL driver's threads (as ui/model_runner's
// worker does): on 2 cores, frames at equal priority took up to 80 ms while a 500 MB checkpoint was read
// (bench_gui openingModel).
void lowerThisThreadsPriority() { setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19); }

}  // namespace

// Models still held by someone, by canonical folder and whether they are the bundled model (marked so).
struct ModelLibrary::Held {
    std::mutex mutex;
    std::map<std::pair<fs::path, bool>, std::weak_ptr<const core::TrainedModel>> models;

    // The held model of that folder, unless its mapped weights file was cut short on disk since (then its weights
    // read as zeros: the folder is read again, which is what the app's "Reopen the model" asks).
    std::shared_ptr<const core::TrainedModel> find(const fs::path& canonical, bool bundled) {
        const std::lock_guard lock(mutex);
        const auto found = models.find({canonical, bundled});
        std::shared_ptr<const core::TrainedModel> model = found == models.end() ? nullptr : found->second.lock();
        return model != nullptr && weightsCutShort(model->transformer) ? nullptr : model;
    }
    void keep(const fs::path& canonical, bool bundled, const std::shared_ptr<const core::TrainedModel>& model) {
        const std::lock_guard lock(mutex);
        models[{canonical, bundled}] = model;
    }
    // The table every library with the default loader shares.
    static std::shared_ptr<Held> process() {
        static const std::shared_ptr<Held> held = std::make_shared<Held>();
        return held;
    }
};

struct ModelLibrary::Shared {
    Loader load;
    std::shared_ptr<Held> held;
    mutable std::mutex mutex;
    std::uint64_t generation = 0;  // bumped by open() and cancel()
    std::optional<fs::path> opening;
    std::optional<Opened> finished;

    std::shared_ptr<const core::TrainedModel> read(const fs::path& folder, bool bundled) const {
        std::shared_ptr<const core::TrainedModel> model = load ? load(folder) : loadModelFolder(folder);
        if (!bundled || model == nullptr) return model;
        auto marked = std::make_shared<core::TrainedModel>(*model);
        marked->bundled = true;
        return marked;
    }

    // Loads (or finds held), keeps, and says what went wrong in one sentence.
    Opened run(const fs::path& folder, bool bundled = false) {
        Opened opened{folder, nullptr, {}};
        const fs::path canonical = canonicalOf(folder);
        try {
            opened.model = held->find(canonical, bundled);
            if (!opened.model) {
                opened.model = read(folder, bundled);
                if (opened.model) held->keep(canonical, bundled, opened.model);
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

ModelLibrary::ModelLibrary(Loader load) : shared_(std::make_shared<Shared>()) {
    shared_->held = load ? std::make_shared<Held>() : Held::process();
    shared_->load = std::move(load);
}

ModelLibrary::~ModelLibrary() { cancel(); }

void ModelLibrary::open(const fs::path& folder) {
    std::uint64_t generation = 0;
    {
        const std::lock_guard lock(shared_->mutex);
        generation = ++shared_->generation;
        shared_->opening = folder;
        shared_->finished.reset();
    }
    auto openFolder = [shared = shared_, folder, generation] {
        lowerThisThreadsPriority();
        Opened opened = shared->run(folder);
        const std::lock_guard lock(shared->mutex);
        if (shared->generation != generation) return;  // cancelled or replaced: dropped
        shared->opening.reset();
        shared->finished = std::move(opened);
    };
    if (core::kThreadsAvailable) std::thread(std::move(openFolder)).detach();
    else openFolder();  // the web page: no thread to open it on
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

std::shared_ptr<const core::TrainedModel> ModelLibrary::openBundledNow() {
    const std::optional<fs::path> folder = findAsset(fs::path("models") / kBundledModelName);
    if (!folder) return nullptr;
    Opened opened = shared_->run(*folder, true);
    if (!opened.model) throw FileError(opened.error);
    return opened.model;
}

std::shared_ptr<const core::TrainedModel> loadBundledModel() { return ModelLibrary().openBundledNow(); }

std::optional<fs::path> bundledDecoderFolder() { return findAsset(fs::path("models") / kBundledDecoderName); }

}  // namespace attnviz::io
