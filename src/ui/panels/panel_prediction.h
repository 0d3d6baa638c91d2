// panel_prediction.h — the right panel's "Prediction": what a trained model predicts, and the KV cache growing.
//
// Decoders (GPT-2, the Llama family): the ten most likely next tokens after the last position (or after the token
// hovered in the sentence row) as bars with their probabilities at the temperature the slider sets; a click picks
// one and Append adds its text to the sentence (an ordinary edit of AppState::spec, so undo takes it back). Beside
// them, every layer's cached K/V rows: the cache follows the sentence on screen on a worker thread (KvCacheFollower),
// each new token computing only its own query row against the rows cached before it (core::KvCache), the newest row
// marked new; while it catches up the panel shows how far it got, and frames never wait for a step.
// BERT with a masked-word head: the ten most likely fills of a typed [MASK]. The seeded layer and BERT folders
// without that head: one sentence saying why nothing is predicted.
// What it keeps: the logits of the position shown, until the run, sentence or position changes; the follower keeps
// the cache.
#pragma once

#include "core/transformer/kv_cache.h"
#include "core/transformer/prediction.h"
#include "ui/model_runner.h"
#include "ui/views/view_context.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

// Adds the text of vocabulary piece `id` to the sentence on screen (AppState::spec, so History records it). Returns
// false, changing nothing, for a piece that is part of a character (no text of its own) or a run without a model.
bool appendToken(AppState& state, const core::ModelRun& run, int id);

class PredictionPanel {
public:
    // Draws into a child of `height` (less when it has only a sentence to say).
    void draw(ViewContext& ctx, float height);

    // What the panel showed last frame (tests): the top tokens, the position they follow, the cache.
    const std::vector<core::TokenChoice>& shown() const { return top_; }
    int shownPosition() const { return position_; }
    float shownBarHeight() const { return barHeight_; }  // a bar's height in pixels: a line of text, more when roomy
    // The cache as the worker last left it (a copy), and what the panel showed of its progress last frame.
    core::KvCache cache() const { return follower_->cache(); }
    const KvCacheFollower::Progress& cacheProgress() const { return cacheProgress_; }
    const std::string& message() const { return message_; }
    // What the cache said last frame about the heads switched off (headsOffCacheNote), or empty.
    const std::string& cacheHeadsOffNote() const { return headsOffNote_; }
    // Whether the cache is still catching up with the sentence (the window keeps drawing frames meanwhile).
    bool catchingUp() const { return follower_->catchingUp(); }
    // The cache's worker (tests hold it; screenshots wait for it).
    KvCacheFollower& cacheFollower() const { return *follower_; }

private:
    void computeTop(const ViewContext& ctx, int position);
    void drawSentence(const std::vector<std::string>& labels, core::PredictionKind kind);
    void drawBars(ViewContext& ctx, const core::TrainedModel& model, core::PredictionKind kind, float width);
    void drawCache(float width, float height, const std::vector<core::HeadAblation>& headsOff);
    void drawChoiceControls(ViewContext& ctx, core::PredictionKind kind, float width);
    int pickedToken(const ViewContext& ctx) const;

    // The logits on show and what they came from: the model, the heads switched off, the sentence's ids, the position.
    std::shared_ptr<const core::TrainedModel> logitsModel_;
    std::vector<core::HeadAblation> logitsHeadsOff_;
    std::vector<int> logitsIds_;
    int position_ = -1;
    core::RowVector logits_;
    float topTemperature_ = 0.0f;  // top_ is softmax(logits_ / this)
    std::vector<core::TokenChoice> top_;
    std::optional<int> hovered_;  // the sentence token the pointer is on
    float barHeight_ = 0.0f;

    std::unique_ptr<KvCacheFollower> follower_ = std::make_unique<KvCacheFollower>();
    KvCacheFollower::Progress cacheProgress_;  // read once a frame
    std::string message_;
    std::string headsOffNote_;
};

// What the KV cache's rows are with `headsOff` switched off: the cache (core::KvCache) always runs every head, so the
// rows of the layers up to the lowest one with a head off are the ablated run's too (a head's Z_i is dropped after that
// layer's K and V are made), and every later layer's differ (they read the changed residual stream). Empty when no
// head is off. A mean-replaced head is said to change them all once a token is appended (its mean is over the whole
// sentence, which a cache built one token at a time cannot follow).
std::string headsOffCacheNote(const std::vector<core::HeadAblation>& headsOff, int layers);
// The lowest layer with a head off, or `layers` when none is.
int firstLayerOff(const std::vector<core::HeadAblation>& headsOff, int layers);

}  // namespace attnviz::ui
