// colorbar.cpp — scene::colorbar at the figures' sizes, played on the canvas. See colorbar.h.
#include "export/colorbar.h"

#include "export/text.h"

namespace attnviz::exporting {

int colorbarWidth(colormap::Range range, int height) { return scene::colorbarWidth(range, height, kColorbarSizes, paperType()); }

scene::ColorbarSpec colorbarAt(int x, int y, int height, int scale, colormap::Colormap map, colormap::Range range) {
    return {map, range, x, y, height, false, scale};
}

int colorbarBelowHeight() { return scene::colorbarBelowHeight(kColorbarSizes, paperType()); }

int colorbarBelowMinWidth(colormap::Range range) { return scene::colorbarBelowMinWidth(range, kColorbarSizes, paperType()); }

scene::ColorbarSpec colorbarBelowAt(int x, int y, int width, int scale, colormap::Colormap map, colormap::Range range) {
    return {map, range, x, y, width, true, scale};
}

void drawColorbar(Canvas& canvas, const scene::ColorbarSpec& spec, const Theme& theme) {
    const scene::ColorbarPicture picture = scene::colorbar(spec, kColorbarSizes, paperType(), {theme.frame, theme.secondaryText});
    for (const Drawing::Fill& fill : picture.colours) canvas.fillRect(fill.rect, fill.color);
    canvas.strokeRect(picture.frame.rect, picture.frame.color, picture.frame.thickness);
    for (const Drawing::Fill& tick : picture.ticks) canvas.fillRect(tick.rect, tick.color);
    drawLabels(canvas, picture.labels);
}

}  // namespace attnviz::exporting
