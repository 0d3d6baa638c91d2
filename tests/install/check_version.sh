#!/usr/bin/env bash
# check_version.sh ATTNVIZ MAN_PAGE METAINFO README — the version is written once (packaging/changelog's newest
# entry, which CMake reads): fails when the binary's --version, the built manual page's .TH line or the AppStream
# file's newest <release> says another, or when the README names a versioned package file.
set -euo pipefail
binary=$1 man_page=$2 metainfo=$3 readme=$4

version=$("$binary" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1)
[[ -n $version ]] || { echo "attnviz --version printed no X.Y.Z version"; exit 1; }
status=0

man_version=$(grep -m1 '^\.TH' "$man_page" | grep -oE 'attnviz [0-9]+\.[0-9]+\.[0-9]+' | cut -d' ' -f2 || true)
if [[ $man_version != "$version" ]]; then
  echo "manual page $man_page says version '${man_version}', the program says $version"; status=1
fi

newest_release=$(grep -m1 -oE '<release version="[^"]+"' "$metainfo" | cut -d'"' -f2 || true)
if [[ $newest_release != "$version" ]]; then
  echo "$metainfo: newest <release> is '${newest_release}', the program is $version (add a <release> entry)"; status=1
fi

if grep -nE 'attnviz_[0-9]+\.[0-9]+\.[0-9]+_' "$readme"; then
  echo "$readme names a versioned package file: write attnviz_*_amd64.deb"; status=1
fi
[[ $status -eq 0 ]] && echo "version $version everywhere"
exit $status
