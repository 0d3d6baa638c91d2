#!/usr/bin/python3
"""Writes assets/icons/attnviz.svg: a 5 × 5 attention map in viridis on a dark rounded square.

Row i is where token i looks: mostly at itself (the bright diagonal), the last row ("it") mostly at the
second token ("animal"), a causal wash below the diagonal. Run once when the design changes; the PNG sizes
are then made from the SVG by render_icons.sh. Needs only the standard library.
"""
import pathlib

VIRIDIS = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"]  # 0, .25, .5, .75, 1
WEIGHTS = [  # index into VIRIDIS, row = query token, column = key token
    [4, 0, 0, 0, 0],
    [2, 4, 0, 0, 0],
    [1, 2, 4, 0, 0],
    [1, 1, 2, 3, 0],
    [1, 4, 1, 1, 2],
]

def svg() -> str:
    size, margin, gap = 256, 36, 6
    cell = (size - 2 * margin - 4 * gap) / 5
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
        "  <title>attnviz</title>",
        f'  <rect x="8" y="8" width="{size - 16}" height="{size - 16}" rx="44" fill="#1b1d2a"/>',
    ]
    for row, weights in enumerate(WEIGHTS):
        for col, level in enumerate(weights):
            x = margin + col * (cell + gap)
            y = margin + row * (cell + gap)
            parts.append(f'  <rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" rx="5" '
                         f'fill="{VIRIDIS[level]}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

if __name__ == "__main__":
    out = pathlib.Path(__file__).resolve().parents[2] / "assets" / "icons" / "attnviz.svg"
    out.write_text(svg())
    print(out)
