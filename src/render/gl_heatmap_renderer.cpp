// gl_heatmap_renderer.cpp — the OpenGL 3.3 core HeatmapRenderer (ImPlot's GL heatmap recipe).
//
// Per matrix and drawn size: a GL_RGBA8 texture with NEAREST filtering, its cells colored on the CPU
// (texture_colors.h) with the colormap and range it is drawn with; made once per generation, and not at all
// when the matrix is bit for bit what it was in the previous generation. A new colormap or range colors the kept
// copy again (a few milliseconds for the largest); the matrix is not read again. One GLSL 330 program
// (shaders/heatmap.{vert,frag}, embedded copies as fallback) reads one texel per pixel, plus the mask's when
// there is one (GL_R32F): two variants, so a heatmap without a mask (most of them) is drawn by a shader that only
// copies a texel, without the mask's branch. Under a software rasteriser (llvmpipe) that is what a heatmap costs: coloring in the
// shader took three texture reads, one of them dependent, and the special-value branches, for every pixel of
// every frame (docs/performance.md). Drawn from an ImDrawList callback followed by ImDrawCallback_ResetRenderState
// (Mesa crashes without it).
//
// Downsampling, when a heatmap has more cells than pixels along an axis or more than GL_MAX_TEXTURE_SIZE: the
// matrix shrunk to exactly one texel per pixel (downsample.h; its strongest cell or its mean per block, as the
// caller asked), made lazily the first time a size is drawn and cached for the generation; sizes the current
// frame has not drawn are dropped when a new one is made. A CPU copy of each matrix is kept for that, itself
// shrunk to at most kKeptCells per axis: a 2048² map keeps 4 MiB instead of 16 (no screen shows 2048 cells an
// axis); shrinking the copy further folds contiguous blocks of the matrix, as shrinking the matrix would.
//
// What this file does not do: decide ranges, colormaps, labels or layout (src/ui), or talk to GLFW.
#include "core/portable.h"
#include "render/downsample.h"
#include "render/embedded_shaders.h"
#include "render/gl_api.h"
#include "render/gl_heatmap_renderer.h"
#include "render/texture_colors.h"


#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnviz::render {
namespace {

// [SECTION] Shader program

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// `source` has no #version line: glslVersionHeader() puts the one this context speaks first.
GLuint compileShader(GLenum kind, const std::string& source, std::string& log) {
    const GLuint shader = glCreateShader(kind);
    const std::string header = glslVersionHeader();
    const std::array<const char*, 2> texts{header.c_str(), source.c_str()};
    glShaderSource(shader, static_cast<GLsizei>(texts.size()), texts.data(), nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return shader;
    std::array<char, 2048> buffer{};
    glGetShaderInfoLog(shader, static_cast<GLsizei>(buffer.size()), nullptr, buffer.data());
    log += buffer.data();
    glDeleteShader(shader);
    return 0;
}

// Links a program from vertex + fragment source; 0 (and the reason appended to `log`) on failure.
GLuint linkProgram(const std::string& vertex, const std::string& fragment, std::string& log) {
    const GLuint vs = compileShader(GL_VERTEX_SHADER, vertex, log);
    const GLuint fs = compileShader(GL_FRAGMENT_SHADER, fragment, log);
    if (vs == 0 || fs == 0) {
        if (vs != 0) glDeleteShader(vs);
        if (fs != 0) glDeleteShader(fs);
        return 0;
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok == GL_TRUE) return program;
    std::array<char, 2048> buffer{};
    glGetProgramInfoLog(program, static_cast<GLsizei>(buffer.size()), nullptr, buffer.data());
    log += buffer.data();
    glDeleteProgram(program);
    return 0;
}

// The fragment shader with `#define MASKED` after its #version line: the variant that draws a mask.
std::string withMask(const std::string& fragment) {
    const std::size_t lineEnd = fragment.find('\n');
    if (lineEnd == std::string::npos) return fragment;
    return fragment.substr(0, lineEnd + 1) + "#define MASKED\n" + fragment.substr(lineEnd + 1);
}

// The files beside the binary first (so a shader can be edited without rebuilding), the embedded copy else.
GLuint loadHeatmapProgram(const std::filesystem::path& dir, bool masked) {
    std::string log;
    const auto variant = [masked](std::string fragment) { return masked ? withMask(fragment) : fragment; };
    const std::string vertex = readFile(dir / "heatmap.vert");
    const std::string fragment = readFile(dir / "heatmap.frag");
    if (!vertex.empty() && !fragment.empty()) {
        if (const GLuint program = linkProgram(vertex, variant(fragment), log)) return program;
        log = "shaders in " + dir.string() + " failed, using the embedded copies: " + log;
    }
    if (const GLuint program = linkProgram(std::string(kHeatmapVert), variant(std::string(kHeatmapFrag)), log)) return program;
    throw std::runtime_error("attnviz: the heatmap shader does not compile: " + log);
}

// One variant of the heatmap program and where its uniforms are (−1: the variant has none of that name).
struct HeatmapProgram {
    GLuint id = 0;
    GLint projection, rect, maskedColor;
    GLint colors, mask;
};

HeatmapProgram loadProgram(const std::filesystem::path& dir, bool masked) {
    const GLuint program = loadHeatmapProgram(dir, masked);
    auto at = [program](const char* name) { return glGetUniformLocation(program, name); };
    return {program, at("u_projection"), at("u_rect"), at("u_maskedColor"), at("t_colors"), at("t_mask")};
}

void setColor(GLint location, colormap::Rgb8 c) {
    glUniform3f(location, static_cast<float>(c.r) / 255.0f, static_cast<float>(c.g) / 255.0f, static_cast<float>(c.b) / 255.0f);
}

// [SECTION] Textures

struct GlTexture {
    GLuint id = 0;
    int width = 0;
    int height = 0;
};

GlTexture makeTexture(GLint internalFormat, int width, int height, GLenum format, GLenum type, const void* pixels) {
    GlTexture texture{0, width, height};
    glGenTextures(1, &texture.id);
    glBindTexture(GL_TEXTURE_2D, texture.id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, width, height, 0, format, type, pixels);
    if (glGetError() != GL_NO_ERROR) {
        glDeleteTextures(1, &texture.id);
        return {};
    }
    return texture;
}

constexpr int kKeptCells = 1024;  // most cells per axis of a matrix's CPU copy

// What a texture of a matrix was made for: its size in texels and how its cells are colored (a colormap and the
// range's bit patterns), or raw values (`colormap` −1: a mask, read by the shader as numbers).
struct TextureVariant {
    int rows = 0;
    int cols = 0;
    int colormap = -1;
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
    friend auto operator<=>(const TextureVariant&, const TextureVariant&) = default;
};

TextureVariant variantOf(int rows, int cols, const HeatmapStyle* coloring) {
    if (!coloring) return {rows, cols};
    return {rows, cols, static_cast<int>(coloring->map), core::bitCast<std::uint32_t>(coloring->lo), core::bitCast<std::uint32_t>(coloring->hi)};
}

// A texture made from a matrix, and the last frame that drew it.
struct VariantTexture {
    GlTexture texture;
    std::uint64_t drawnInFrame = 0;
};

// One matrix of this generation: its values (transposed if asked), shrunk to at most kKeptCells per axis, and the
// textures made from them at the sizes drawn.
struct CachedMatrix {
    PooledMatrix kept;     // ≤ kKeptCells (and the texture limit) per axis, row-major
    int rows = 0;          // of the matrix itself
    int cols = 0;
    Downsample how = Downsample::Strongest;
    std::map<TextureVariant, VariantTexture> textures;
};

// [SECTION] Drawing

class GlHeatmapRenderer;

// Everything one draw callback needs, alive until the next beginFrame() (ImGui renders before that).
struct DrawRequest {
    GlHeatmapRenderer* renderer;
    ImVec2 min, max;
    GLuint colors, mask;
};

void drawCallback(const ImDrawList* list, const ImDrawCmd* command);

class GlHeatmapRenderer final : public HeatmapRenderer {
public:
    explicit GlHeatmapRenderer(const GlRendererOptions& options)
        : plain_(loadProgram(options.shaderDir, false)), masked_(loadProgram(options.shaderDir, true)) {
        GLint limit = 0;
        glGetIntegerv(GL_MAX_TEXTURE_SIZE, &limit);
        maxTextureSize_ = options.maxTextureSize > 0 ? std::min(options.maxTextureSize, static_cast<int>(limit)) : limit;
        glGenVertexArrays(1, &vao_);  // no attributes: heatmap.vert makes the quad from gl_VertexID
    }

    ~GlHeatmapRenderer() override {
        dropMatrices();
        dropPrevious();
        glDeleteVertexArrays(1, &vao_);
        glDeleteProgram(plain_.id);
        glDeleteProgram(masked_.id);
    }

    // A new generation keeps the old matrices for one frame, so those whose values did not change (the weights
    // after a sentence edit; X, Q, K, V after a mask change) keep their textures instead of uploading again.
    void beginFrame(std::uint64_t generation) override {
        requests_.clear();
        ++frame_;
        dropPrevious();  // what the first frame of this generation did not take
        if (started_ && generation == generation_) return;
        started_ = true;
        generation_ = generation;
        for (auto& [key, handle] : handles_) previous_.emplace(key, std::move(matrices_[handle.id - 1]));
        matrices_.clear();
        handles_.clear();
    }

    HeatmapHandle heatmap(const TextureKey& key, const MatrixSlice& slice, bool transpose, Downsample how) override {
        if (const auto found = handles_.find(key); found != handles_.end()) return found->second;
        if (slice.rows <= 0 || slice.cols <= 0) return {};
        CachedMatrix matrix = keptCopy(slice, transpose, how);
        if (!takeUnchangedTextures(key, matrix)) ++stats_.uploads;
        matrices_.push_back(std::move(matrix));
        const HeatmapHandle handle{static_cast<std::uint32_t>(matrices_.size())};
        handles_.emplace(key, handle);
        return handle;
    }

    HeatmapHandle find(const TextureKey& key) const override {
        const auto found = handles_.find(key);
        return found == handles_.end() ? HeatmapHandle{} : found->second;
    }

    void draw(ImDrawList& list, HeatmapHandle handle, ImVec2 min, ImVec2 max, const HeatmapStyle& style) override {
        if (!handle || handle.id > matrices_.size() || max.x <= min.x || max.y <= min.y) return;
        const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
        const ImVec2 pixels{(max.x - min.x) * scale.x, (max.y - min.y) * scale.y};
        DrawRequest request{this, min, max, textureFor(handle, pixels, &style), 0};
        if (!request.colors) return;
        if (style.mask && style.mask.id <= matrices_.size()) request.mask = textureFor(style.mask, pixels, nullptr);
        requests_.push_back(request);
        list.AddCallback(drawCallback, &requests_.back());
        list.AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    }

    std::uint64_t texturesColored() const { return texturesColored_; }

    RendererStats stats() const override {
        RendererStats s = stats_;
        for (const CachedMatrix& m : matrices_) {
            s.liveTextures += static_cast<int>(m.textures.size());
            s.keptValues += m.kept.values.size();
        }
        s.maxTextureSize = maxTextureSize_;
        return s;
    }

    // Called from drawCallback while ImGui's OpenGL3 backend renders: viewport and blending are set up.
    void execute(const DrawRequest& r, const ImDrawCmd& command) {
        const ImDrawData* data = ImGui::GetDrawData();
        if (data == nullptr || !applyScissor(*data, command.ClipRect)) return;
        const HeatmapProgram& program = r.mask != 0 ? masked_ : plain_;
        glUseProgram(program.id);
        glDisable(GL_BLEND);  // every texel is opaque: llvmpipe then writes the pixels without reading them first
        setUniforms(program, *data, r);
        bindTexture(0, r.colors);
        if (r.mask != 0) bindTexture(1, r.mask);
        glActiveTexture(GL_TEXTURE0);
        glBindVertexArray(vao_);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }

private:
    // Moves the previous generation's textures of `key` into `matrix` when its values are the same, bit for bit.
    bool takeUnchangedTextures(const TextureKey& key, CachedMatrix& matrix) {
        const auto found = previous_.find(key);
        if (found == previous_.end()) return false;
        CachedMatrix& old = found->second;
        const bool same = old.rows == matrix.rows && old.cols == matrix.cols && old.how == matrix.how &&
                          old.kept.values.size() == matrix.kept.values.size() &&
                          std::memcmp(old.kept.values.data(), matrix.kept.values.data(), old.kept.values.size() * sizeof(float)) == 0;
        if (!same) return false;
        matrix.textures = std::move(old.textures);
        previous_.erase(found);
        ++stats_.reusedTextures;
        return true;
    }

    void dropPrevious() {
        for (auto& [key, m] : previous_) {
            for (auto& [size, sized] : m.textures) glDeleteTextures(1, &sized.texture.id);
        }
        previous_.clear();
    }

    void dropMatrices() {
        for (CachedMatrix& m : matrices_) {
            for (auto& [size, sized] : m.textures) glDeleteTextures(1, &sized.texture.id);
        }
        matrices_.clear();
        handles_.clear();
    }

    // The CPU copy of a slice (transposed if asked), shrunk to at most kKeptCells (and the texture limit) per axis.
    CachedMatrix keptCopy(const MatrixSlice& slice, bool transpose, Downsample how) const {
        CachedMatrix m;
        m.rows = transpose ? slice.cols : slice.rows;
        m.cols = transpose ? slice.rows : slice.cols;
        m.how = how;
        const int limit = std::min(kKeptCells, maxTextureSize_);
        std::vector<float> values = transpose ? transposed(slice) : std::vector<float>(slice.values.begin(), slice.values.end());
        m.kept = m.rows > limit || m.cols > limit ? shrink({values, m.rows, m.cols}, limit, limit, how)
                                                  : PooledMatrix{std::move(values), m.rows, m.cols};
        return m;
    }

    // The texture to draw a matrix into `pixels`: the kept copy shrunk to one texel per pixel on any axis with more
    // cells than pixels, colored with `coloring`'s colormap and range (raw values without one: a mask). A new size
    // or coloring drops the variants this frame has not drawn (the window is being resized, the range changed), so
    // a drag leaves one texture behind, not one per size it passed through.
    GLuint textureFor(HeatmapHandle handle, ImVec2 pixels, const HeatmapStyle* coloring) {
        CachedMatrix& m = matrices_[handle.id - 1];
        const int rows = std::min(m.kept.rows, std::max(1, static_cast<int>(pixels.y)));
        const int cols = std::min(m.kept.cols, std::max(1, static_cast<int>(pixels.x)));
        const TextureVariant variant = variantOf(rows, cols, coloring);
        auto found = m.textures.find(variant);
        if (found == m.textures.end()) {
            std::erase_if(m.textures, [&](auto& entry) {
                const bool stale = entry.second.drawnInFrame != frame_;
                if (stale) glDeleteTextures(1, &entry.second.texture.id);
                return stale;
            });
            const bool smallerThanKept = rows < m.kept.rows || cols < m.kept.cols;
            const PooledMatrix smaller = smallerThanKept ? shrink({m.kept.values, m.kept.rows, m.kept.cols}, rows, cols, m.how) : PooledMatrix{};
            const PooledMatrix& p = smallerThanKept ? smaller : m.kept;
            const GlTexture texture = coloring ? coloredTexture(p, *coloring) : makeTexture(GL_R32F, p.cols, p.rows, GL_RED, GL_FLOAT, p.values.data());
            if (!texture.id) return 0;
            if (rows < m.rows || cols < m.cols) ++stats_.pooledUploads;
            found = m.textures.emplace(variant, VariantTexture{texture, frame_}).first;
        }
        found->second.drawnInFrame = frame_;
        return found->second.texture.id;
    }

    GlTexture coloredTexture(const PooledMatrix& p, const HeatmapStyle& coloring) {
        const std::vector<std::uint8_t> rgba = colorRgba(coloring.map, p.values, coloring.lo, coloring.hi);
        ++texturesColored_;
        return makeTexture(GL_RGBA8, p.cols, p.rows, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    }

    static bool applyScissor(const ImDrawData& data, const ImVec4& clip) {
        const ImVec2 scale = data.FramebufferScale;
        const float fbHeight = data.DisplaySize.y * scale.y;
        const ImVec2 lo{(clip.x - data.DisplayPos.x) * scale.x, (clip.y - data.DisplayPos.y) * scale.y};
        const ImVec2 hi{(clip.z - data.DisplayPos.x) * scale.x, (clip.w - data.DisplayPos.y) * scale.y};
        if (hi.x <= lo.x || hi.y <= lo.y) return false;
        glEnable(GL_SCISSOR_TEST);
        glScissor(static_cast<GLint>(lo.x), static_cast<GLint>(fbHeight - hi.y), static_cast<GLsizei>(hi.x - lo.x),
                  static_cast<GLsizei>(hi.y - lo.y));
        return true;
    }

    static void setUniforms(const HeatmapProgram& program, const ImDrawData& data, const DrawRequest& r) {
        // ImGui's orthographic projection: DisplayPos at the top-left, y down.
        const float left = data.DisplayPos.x, right = data.DisplayPos.x + data.DisplaySize.x;
        const float top = data.DisplayPos.y, bottom = data.DisplayPos.y + data.DisplaySize.y;
        const std::array<float, 16> projection{
            2.0f / (right - left), 0.0f, 0.0f, 0.0f,
            0.0f, 2.0f / (top - bottom), 0.0f, 0.0f,
            0.0f, 0.0f, -1.0f, 0.0f,
            (right + left) / (left - right), (top + bottom) / (bottom - top), 0.0f, 1.0f};
        glUniformMatrix4fv(program.projection, 1, GL_FALSE, projection.data());
        glUniform4f(program.rect, r.min.x, r.min.y, r.max.x, r.max.y);
        glUniform1i(program.colors, 0);
        if (r.mask == 0) return;
        setColor(program.maskedColor, colormap::kMaskedColor);
        glUniform1i(program.mask, 1);
    }

    static void bindTexture(int unit, GLuint texture) {
        glActiveTexture(static_cast<GLenum>(GL_TEXTURE0 + unit));
        glBindTexture(GL_TEXTURE_2D, texture);
    }

    HeatmapProgram plain_;   // heatmap.frag as it is: one texel per pixel
    HeatmapProgram masked_;  // with MASKED: the mask's cells hatched
    GLuint vao_ = 0;  // empty: core profile draws need one bound
    int maxTextureSize_ = 0;
    std::uint64_t generation_ = 0;
    std::uint64_t frame_ = 0;  // counts beginFrame() calls: which textures the current frame has drawn
    bool started_ = false;
    std::vector<CachedMatrix> matrices_;                       // handle id − 1 → matrix
    std::unordered_map<TextureKey, CachedMatrix, TextureKeyHash> previous_;  // the last generation's, during its successor's first frame
    std::unordered_map<TextureKey, HeatmapHandle, TextureKeyHash> handles_;  // caller's key → handle
    std::deque<DrawRequest> requests_;                          // stable addresses for the callbacks
    RendererStats stats_;
    std::uint64_t texturesColored_ = 0;
};

void drawCallback(const ImDrawList* /*list*/, const ImDrawCmd* command) {
    const auto* request = static_cast<const DrawRequest*>(command->UserCallbackData);
    request->renderer->execute(*request, *command);
}

}  // namespace

std::unique_ptr<HeatmapRenderer> createGlRenderer(const GlRendererOptions& options) {
    return std::make_unique<GlHeatmapRenderer>(options);
}

std::uint64_t texturesColored(const HeatmapRenderer& renderer) {
    const auto* gl = dynamic_cast<const GlHeatmapRenderer*>(&renderer);
    return gl ? gl->texturesColored() : 0;
}

}  // namespace attnviz::render
