#!/usr/bin/env bash
# check_install.sh BUILD_DIR SCRATCH — installs the build as a user or a packager would and checks the result:
#   1. `cmake --install` puts the binary, assets, desktop entry, icons, AppStream metadata and man page where
#      the desktop expects them, and the validators (desktop-file-validate, appstreamcli) accept them;
#   2. the installed tree, moved to another folder, still runs `attnviz dump` (on its own bundled model, not
#      the source tree's), `attnviz export` and the window (--screenshot; needs a display: ctest runs under xvfb);
#   3. `cpack -G DEB` makes attnviz_<version>_amd64.deb, which lists those files, and lintian finds no
#      error or warning (packaging/lintian-overrides explains each info tag it silences).
set -euo pipefail
build=$1 scratch=$2
id=io.github.attnviz.attnviz
rm -rf "$scratch" && mkdir -p "$scratch"
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== 1. cmake --install"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
for file in bin/attnviz share/applications/$id.desktop share/metainfo/$id.metainfo.xml share/man/man1/attnviz.1.gz \
            share/icons/hicolor/scalable/apps/$id.svg share/icons/hicolor/48x48/apps/$id.png \
            share/icons/hicolor/256x256/apps/$id.png share/attnviz/shaders/heatmap.frag \
            share/attnviz/models/attnviz-mini-bert/config.json share/doc/attnviz/copyright; do
  [[ -f "$scratch/prefix/$file" ]] || fail "cmake --install did not install $file"
done
desktop-file-validate "$scratch/prefix/share/applications/$id.desktop"
appstreamcli validate --no-net --pedantic "$scratch/prefix/share/metainfo/$id.metainfo.xml"
grep -q '^Categories=.*Education;.*Science;' "$scratch/prefix/share/applications/$id.desktop" || fail "desktop entry lacks Education;Science"

echo "== 2. the installed tree, moved"
mv "$scratch/prefix" "$scratch/moved"
app="$scratch/moved/bin/attnviz"
cd "$scratch"  # not the source or build tree
env -u ATTNVIZ_ASSETS "$app" dump --sentence "The animal was tired" --out "$scratch/dump" > /dev/null
grep -q "\"path\": \"$scratch/moved/share/attnviz/models/attnviz-mini-bert\"" "$scratch/dump/manifest.json" ||
  fail "the moved install did not open its own bundled model: $(grep -o '"path": "[^"]*"' "$scratch/dump/manifest.json")"
env -u ATTNVIZ_ASSETS "$app" export --sentence "The animal was tired" --stage softmax --kind stage --out "$scratch/export" > /dev/null
[[ -s "$scratch/export/07-softmax-head0.png" ]] || fail "the moved install's export wrote no figure: $(ls "$scratch/export")"
[[ -n "${DISPLAY:-}" ]] || fail "no DISPLAY: run under xvfb-run (scripts/test does)"
env -u ATTNVIZ_ASSETS "$app" --size 800x600 --screenshot "$scratch/window.png" > /dev/null
[[ "$(file -b "$scratch/window.png")" == "PNG image data, 800 x 600,"* ]] || fail "the moved install's window: $(file -b "$scratch/window.png")"

echo "== 3. cpack -G DEB"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/package" > "$scratch/cpack.log" 2>&1 || { cat "$scratch/cpack.log"; fail "cpack"; }
deb=$(ls "$scratch"/package/attnviz_*_amd64.deb)
contents=$(dpkg-deb -c "$deb")
for file in usr/bin/attnviz usr/share/applications/$id.desktop usr/share/metainfo/$id.metainfo.xml \
            usr/share/man/man1/attnviz.1.gz usr/share/icons/hicolor/256x256/apps/$id.png; do
  grep -q "\./$file\$" <<< "$contents" || fail "$deb lacks $file"
done
depends=$(dpkg-deb -f "$deb" Depends)
for package in libglfw3 libpng16-16 fonts-dejavu-core fonts-droid-fallback fonts-nanum; do
  [[ "$depends" == *"$package"* ]] || fail "Depends lacks $package: $depends"
done
lintian --fail-on error,warning "$deb" > "$scratch/lintian.log" 2>&1 || { cat "$scratch/lintian.log"; fail "lintian"; }
echo "installed, moved, ran, packaged: $(basename "$deb"), Depends: $depends"
