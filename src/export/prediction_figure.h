// prediction_figure.h — `attnviz export --kind next`: what the open trained model predicts, as one 16:9 slide
// (kSlideWidth × kSlideHeight at scale 1, drawn kSlideZoom times larger than a stage figure, as the slides are).
//
//   What does <model> predict after “␣mat”?            the question (BERT: … predict for [MASK]?)
//   [the] [␣cat] [␣sat] … [␣mat]                          the sentence's tokens, the one predicted from highlighted
//   the 10 most likely next tokens · temperature T = 1
//        ␣and ██████████████ 24.1%                       the ten most likely pieces as bars, 0 … 100 % across
//          ␣. ███████ 12.9%
//   The last token's row of the last layer … times the LM head …   where the numbers come from
//
// A decoder predicts after its last token, BERT with a masked-word head fills the first [MASK]. Pieces read as the
// prediction panel shows them (core/transformer/prediction_words.h: a leading space as ␣, a piece with no text of
// its own as its raw piece); the source sentence is the one the next-token view shows.
// What this file deliberately does not do: compute the prediction (core), choose files (export_plan.h), or write.
#pragma once

#include "export/figure.h"

namespace attnviz::exporting {

// The bars' colour (the prediction panel's blue, opaque) and the highlighted token's (its newest-row orange).
inline constexpr Rgba8 kPredictionBarColour{70, 120, 180, 255};
inline constexpr Rgba8 kPredictedFromColour{235, 130, 40, 255};

// The position of sentence `batch` the figure predicts from: a decoder's last token, BERT's first [MASK]. Throws
// ExportError with one sentence when there is none: the seeded layer, a model without a prediction head
// (core::whyNoPrediction), a BERT sentence without [MASK].
int predictedPosition(const core::ModelRun& run, int batch);

// Throws ExportError for a temperature outside [core::kMinTemperature, core::kMaxTemperature] (or NaN).
void checkTemperature(float temperature);

// The slide. Throws ExportError as predictedPosition and checkTemperature do.
Figure drawPredictionFigure(const core::ModelRun& run, int batch, float temperature, const FigureStyle& style);

}  // namespace attnviz::exporting
