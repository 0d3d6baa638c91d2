// model_library.h — the one owner of opened trained models: opens a model folder on a worker thread with cancel,
// shares the loaded model when the same folder (by canonical path) is opened again, and turns every way opening
// can fail (FileError, std::bad_alloc, anything else) into one message.
//
// Every opener of a trained model goes through it: the command line (`--model`, dump, export, the GUI's start),
// session files that name a model (io/session.h), the GUI's Open model / Open Recent Model / the model
// remembered in settings / a model fetched from the Hub (src/ui's session service polls it once a frame), and
// the question views that need attnviz's bundled model. Libraries built with the default loader share one table
// of held models for the whole process, so a folder already open anywhere is never read again (unless its mapped
// weights file was cut short on disk since: io/checkpoint.h weightsCutShort).
// In the GUI: open(), then take() each frame until it returns the result. A cancelled open's result is dropped;
// the worker is not interrupted (a folder's files cannot block, io/safe_read.h) and finishes in the background,
// holding nothing the caller sees.
// What it deliberately does not do: show anything, remember recent folders (gui_settings), or choose a folder.
#pragma once

#include "core/transformer/trained_model.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace attnviz::io {

class ModelLibrary {
public:
    using Loader = std::function<std::shared_ptr<const core::TrainedModel>(const std::filesystem::path&)>;

    // The result of one open: a model, or the one-sentence error (never both).
    struct Opened {
        std::filesystem::path folder;  // as asked
        std::shared_ptr<const core::TrainedModel> model;
        std::string error;
    };

    // `load` reads a folder (default loadModelFolder, sharing the process's held models; tests pass a slow or
    // failing one, which shares only within this library).
    explicit ModelLibrary(Loader load = nullptr);
    ~ModelLibrary();  // drops an open in progress without waiting for it
    ModelLibrary(const ModelLibrary&) = delete;
    ModelLibrary& operator=(const ModelLibrary&) = delete;

    // Starts opening `folder` in the background, cancelling any open in progress. A folder whose model is still
    // held (by anyone) is not read again: take() returns that same model at once.
    void open(const std::filesystem::path& folder);
    // Forgets the open in progress: take() will not return it.
    void cancel();
    // The folder being opened, if any.
    std::optional<std::filesystem::path> opening() const;
    // The finished open, once; nullopt while it runs or when nothing was asked.
    std::optional<Opened> take();
    // Opens on the calling thread (the command line), sharing held models; throws io::FileError with the message.
    std::shared_ptr<const core::TrainedModel> openNow(const std::filesystem::path& folder);
    // attnviz's bundled model (io/assets.h finds its folder), marked bundled, shared like any folder; null when
    // this install has none. Throws io::FileError with the message.
    std::shared_ptr<const core::TrainedModel> openBundledNow();

private:
    struct Held;
    struct Shared;
    std::shared_ptr<Shared> shared_;
};

// attnviz's bundled model through the process's model library (ModelLibrary::openBundledNow).
std::shared_ptr<const core::TrainedModel> loadBundledModel();

// The folder of attnviz's bundled decoder (io/assets.h finds it), or nullopt when this install has none.
std::optional<std::filesystem::path> bundledDecoderFolder();

}  // namespace attnviz::io
