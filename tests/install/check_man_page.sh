#!/usr/bin/env bash
# check_man_page.sh BINARY MAN_PAGE — the manual page names exactly the options `--help` lists, for the window
# and every subcommand: an option added to the program but not to docs/man/attnviz.1.in (or left in the page
# after it was removed) fails here with the names on each side.
set -euo pipefail
binary=$1 man_page=$2

from_help=$( { "$binary" --help; "$binary" export --help; "$binary" dump --help; "$binary" fetch --help; } | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
# In roff a hyphen is written \- : turn those back into plain hyphens first; comment lines do not count.
from_man=$(grep -v '^\.\\"' "$man_page" | sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)

missing=$(comm -23 <(echo "$from_help") <(echo "$from_man"))
stale=$(comm -13 <(echo "$from_help") <(echo "$from_man"))
[[ -z "$missing" ]] || { echo "options in --help but not in $man_page:"; echo "$missing"; }
[[ -z "$stale" ]] || { echo "options in $man_page that --help does not list:"; echo "$stale"; }
[[ -z "$missing" && -z "$stale" ]] || exit 1
echo "$(echo "$from_help" | wc -l) options, the same in --help and the manual page"
man --warnings -l "$man_page" > /dev/null  # the page formats (roff errors fail the test)
