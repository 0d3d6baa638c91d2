#!/usr/bin/env bash
# check_rooms.sh LIBRARY... — each layer's static library references only the rooms docs/design.md lets it use:
# no library but attnviz_render_gl and the app may call GL, GLFW or ImGui's backends, and core, io and export
# may not call ImGui at all. Reads the undefined symbols of each archive with nm; fails naming the symbol.
set -euo pipefail
status=0
for archive in "$@"; do
  name=$(basename "$archive" .a); name=${name#lib}
  undefined=$(nm --undefined-only --no-sort "$archive" | awk '{print $NF}' | sort -u)
  forbidden='^(gl[A-Z]|glfw|epoxy_|ImGui_Impl)'
  case $name in
    attnviz_core|attnviz_scene|attnviz_io|attnviz_export|attnviz_colormap) forbidden='(^gl[A-Z]|^glfw|^epoxy_|ImGui|ImVec[24]|ImDrawList|ImFont)';;
  esac
  if found=$(grep -E "$forbidden" <<<"$undefined"); then
    echo "$name calls outside its room:"; sed 's/^/  /' <<<"$found" | head -n 10; status=1
  else
    echo "$name: in its room"
  fi
done
exit $status
