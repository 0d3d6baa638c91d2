// gl_api.h — the OpenGL functions src/render calls, from the one place that knows where they come from: libepoxy's
// loader over desktop OpenGL 3.3 core, or WebGL 2 (OpenGL ES 3.0) linked directly in the web page (Emscripten).
// glslVersionHeader() is the first lines every shader gets: shaders/ holds one source for both, without a #version.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif

#include <cstring>
#include <string>

namespace attnviz::render {

// "#version 330 core" for desktop OpenGL; "#version 300 es" and the precisions ES asks for under OpenGL ES / WebGL 2
// (told apart at run time by GL_VERSION, as a desktop driver may offer ES too). Needs a current context.
inline std::string glslVersionHeader() {
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    const bool es = version != nullptr && (std::strncmp(version, "OpenGL ES", 9) == 0 || std::strncmp(version, "WebGL", 5) == 0);
    return es ? "#version 300 es\nprecision highp float;\nprecision highp sampler2D;\n" : "#version 330 core\n";
}

}  // namespace attnviz::render
