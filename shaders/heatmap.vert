#version 330 core
// heatmap.vert — one screen-aligned quad per heatmap, in ImGui's pixel coordinates.
// Does not transform the data: v_uv runs 0 → 1 across the whole source matrix (row 0 at the top);
// heatmap.frag rescales it for textures that were pooled into partial blocks.
layout(location = 0) in vec2 a_position;  // ImGui screen coordinates (logical pixels)
layout(location = 1) in vec2 a_uv;        // (0, 0) top-left cell … (1, 1) bottom-right cell

uniform mat4 u_projection;  // the same orthographic projection ImGui's OpenGL3 backend uses

out vec2 v_uv;

void main() {
    v_uv = a_uv;
    gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
}
