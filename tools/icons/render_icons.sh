#!/usr/bin/env bash
# render_icons.sh — makes the hicolor PNG sizes of the icon from assets/icons/attnviz.svg with rsvg-convert
# (Debian: librsvg2-bin). The PNGs are committed, so building attnviz never needs this; rerun it after
# changing the SVG (tools/icons/make_icon_svg.py).
set -euo pipefail
cd "$(dirname "$0")/../../assets/icons"
for size in 16 24 32 48 64 128 256 512; do
  rsvg-convert --width "$size" --height "$size" attnviz.svg --output "attnviz-$size.png"
done
ls -l attnviz-*.png
