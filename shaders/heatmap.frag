// heatmap.frag — draws one heatmap: its cells were colored on the CPU when the texture was made
// (render/texture_colors.h: colormap::sample, as the PNG export), so each pixel is one texture read, and the
// texels are opaque. Compiled twice (gl_heatmap_renderer.cpp): as it is, for heatmaps without a mask — one texel
// copied per pixel, no branch — and with MASKED defined (inserted after the #version line), where masked cells
// (mask texel == 0) are drawn hatched in the masked color, whatever their value.
// Does not filter: every texture is NEAREST; downsampling happened on the CPU, to one texel per pixel (downsample.h).
// No #version line: the renderer puts GLSL 3.30 core's or GLSL ES 3.00's (and ES's precisions) first (render/gl_api.h).

in vec2 v_uv;
out vec4 o_color;

uniform sampler2D t_colors;  // GL_RGBA8, one opaque texel per cell (or per shrunk block)

#ifdef MASKED
uniform sampler2D t_mask;    // GL_R32F, 1 = keep, 0 = masked; 1 × cols broadcasts over rows
uniform vec3 u_maskedColor;

vec3 hatched(vec3 color) {
    // Diagonal stripes 4 px wide, so "masked" never reads as a colormap value.
    bool stripe = mod(floor((gl_FragCoord.x + gl_FragCoord.y) / 4.0), 2.0) < 1.0;
    return stripe ? color : color * 0.7;
}
#endif

void main() {
#ifdef MASKED
    if (texture(t_mask, v_uv).r == 0.0) {
        o_color = vec4(hatched(u_maskedColor), 1.0);
        return;
    }
#endif
    o_color = texture(t_colors, v_uv);
}
