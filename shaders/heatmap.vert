// heatmap.vert — one screen-aligned quad per heatmap, in ImGui's pixel coordinates, made from gl_VertexID and
// the rectangle uniform: no vertex buffer is written per heatmap (under llvmpipe, rewriting one buffer that queued
// draws still read made every heatmap flush the frame drawn so far).
// Does not transform the data: v_uv runs 0 → 1 across the whole source matrix (row 0 at the top).
// No #version line: the renderer puts GLSL 3.30 core's or, in the web page, GLSL ES 3.00's first (render/gl_api.h);
// this source is valid in both.
uniform mat4 u_projection;  // the same orthographic projection ImGui's OpenGL3 backend uses
uniform vec4 u_rect;        // min.x, min.y, max.x, max.y in ImGui screen coordinates (logical pixels)

out vec2 v_uv;

void main() {
    vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);  // a triangle strip: top-left, top-right, bottom-left, bottom-right
    v_uv = corner;
    gl_Position = u_projection * vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
