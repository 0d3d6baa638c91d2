// theme.h — the colors and type sizes every figure shares, for a light, dark or transparent background.
//
// Sizes are in base pixels (scale 1 = 96 DPI); figures multiply them by their scale. The transparent theme
// keeps the light theme's dark text, since slides with a transparent figure are most often light.
// What this file deliberately does not do: heatmap colors (colormap.h) or head colors (head_colors.h).
#pragma once

#include "export/canvas.h"

namespace attnviz::exporting {

enum class Background { Light, Dark, Transparent };

struct Theme {
    Rgba8 background;
    Rgba8 text;           // titles, labels
    Rgba8 secondaryText;  // captions, padding tokens, tick labels
    Rgba8 frame;          // heatmap and colorbar outlines, ticks
    Rgba8 operatorText;   // the · = → between matrices
    Rgba8 hatch;          // lines over masked cells
    Rgba8 separator;      // thin lines between head blocks inside a heatmap
    Rgba8 tokenBox;       // the fill behind each token of the tokens stage
};

inline Theme themeFor(Background background) {
    switch (background) {
        case Background::Dark:
            return {{24, 26, 31, 255}, {236, 236, 236, 255}, {168, 172, 180, 255}, {150, 154, 162, 255},
                    {236, 236, 236, 255}, {60, 60, 60, 255}, {24, 26, 31, 255}, {46, 50, 58, 255}};
        case Background::Transparent:
            return {{255, 255, 255, 0}, {28, 28, 30, 255}, {92, 94, 100, 255}, {70, 70, 76, 255},
                    {28, 28, 30, 255}, {60, 60, 60, 255}, {255, 255, 255, 255}, {236, 239, 244, 255}};
        case Background::Light: break;
    }
    return {{255, 255, 255, 255}, {28, 28, 30, 255}, {92, 94, 100, 255}, {70, 70, 76, 255},
            {28, 28, 30, 255}, {60, 60, 60, 255}, {255, 255, 255, 255}, {236, 239, 244, 255}};
}

// Type sizes (em, base pixels).
inline constexpr float kFigureTitleSize = 20.0f;
inline constexpr float kPanelTitleSize = 15.0f;
inline constexpr float kCaptionSize = 11.5f;
inline constexpr float kLabelSize = 11.0f;
inline constexpr float kMinAxisLabelSize = 7.0f;  // a token axis's labels shrink to this before any is skipped
inline constexpr float kTickSize = 10.5f;
inline constexpr float kOperatorSize = 26.0f;
inline constexpr float kMaxCellValueSize = 11.0f;

// Spacing (base pixels).
inline constexpr int kFigureMargin = 28;

}  // namespace attnviz::exporting
