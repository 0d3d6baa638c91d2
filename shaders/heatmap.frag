#version 330 core
// heatmap.frag — colors one matrix cell per texel: normalise to [lo, hi], clamp, look the color up.
//
// Mirrors colormap::tableIndex() / colormap::sample() in src/colormap/colormap.cpp exactly:
//   t = clamp((v − lo) / (hi − lo), 0, 1),  index = min(floor(t · 256), 255),  texel centre (index + 0.5) / 256,
//   a degenerate range (hi ≤ lo) gives index 128; NaN, +inf and −inf get their own colors, never a table color.
// Masked cells (mask texel == 0) are drawn hatched in the masked color, whatever their value.
// Does not filter: every texture is NEAREST; downsampling happened on the CPU, to one texel per pixel (downsample.h).

in vec2 v_uv;
out vec4 o_color;

uniform sampler2D t_values;    // GL_R32F, one texel per cell (or per shrunk block)
uniform sampler2D t_colormap;  // 256 × 1 RGBA8 lookup table
uniform sampler2D t_mask;      // GL_R32F, 1 = keep, 0 = masked; 1 × cols broadcasts over rows

uniform float u_lo;
uniform float u_hi;
uniform bool u_hasMask;
uniform vec3 u_nanColor;
uniform vec3 u_positiveInfColor;
uniform vec3 u_negativeInfColor;
uniform vec3 u_maskedColor;

int tableIndex(float v) {
    if (!(u_hi > u_lo)) return 128;
    float t = clamp((v - u_lo) / (u_hi - u_lo), 0.0, 1.0);
    return min(int(floor(t * 256.0)), 255);
}

vec3 hatched(vec3 color) {
    // Diagonal stripes 4 px wide, so "masked" never reads as a colormap value.
    bool stripe = mod(floor((gl_FragCoord.x + gl_FragCoord.y) / 4.0), 2.0) < 1.0;
    return stripe ? color : color * 0.7;
}

void main() {
    if (u_hasMask && texture(t_mask, v_uv).r == 0.0) {
        o_color = vec4(hatched(u_maskedColor), 1.0);
        return;
    }
    float v = texture(t_values, v_uv).r;
    vec3 color;
    if (isnan(v)) {
        color = u_nanColor;
    } else if (isinf(v)) {
        color = v > 0.0 ? u_positiveInfColor : u_negativeInfColor;
    } else {
        color = texture(t_colormap, vec2((float(tableIndex(v)) + 0.5) / 256.0, 0.5)).rgb;
    }
    o_color = vec4(color, 1.0);
}
