// gl_framebuffer.cpp — clear and read back the window's framebuffer, wait for the GPU (see framebuffer.h).
#include "render/framebuffer.h"

#include "render/gl_api.h"

#include <algorithm>

namespace attnviz::render {

void clearFramebuffer(int width, int height, float red, float green, float blue) {
    glViewport(0, 0, width, height);
    glClearColor(red, green, blue, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void finishDrawing() { glFinish(); }

RgbaImage readFramebuffer(int width, int height) {
    RgbaImage image{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 4)};
    glFinish();
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
    const std::size_t stride = static_cast<std::size_t>(width) * 4;
    for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom) {
        std::swap_ranges(image.pixels.begin() + static_cast<std::ptrdiff_t>(top * stride),
                         image.pixels.begin() + static_cast<std::ptrdiff_t>((top + 1) * stride),
                         image.pixels.begin() + static_cast<std::ptrdiff_t>(bottom * stride));
    }
    return image;
}

}  // namespace attnviz::render
