// drawing.h — the exporters' names for the one drawing list (scene/drawing.h): the raster canvas, the SVG and the
// PDF painter are its players on paper, as ui/views/drawing_player.h is on screen.
#pragma once

#include "scene/drawing.h"

namespace attnviz::exporting {

using scene::Drawing;
using scene::FontFace;
using scene::PixelRect;
using scene::Rgba8;

}  // namespace attnviz::exporting
