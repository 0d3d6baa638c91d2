#!/usr/bin/python3
"""check_page.py PAGE_DIR OUT_DIR — the web page (scripts/web's build/web/page) runs in a browser and obeys its keys.

Serves PAGE_DIR on a loopback port of its own, opens it in Debian's headless chromium (software WebGL 2:
SwiftShader) through the DevTools protocol (devtools.py), and checks, in order:
  1. first screen: the page logs "attnviz: first frame drawn", shows the Softmax stage, and its screenshot
     (OUT_DIR/first-screen.png) holds the softmax map's viridis purple and yellow ("it" → "animal", the [SEP] column)
     and over 200 colours;
  2. ← ← then → →: the page steps to Scale and back to Softmax (the stage it reports), the maps still drawn
     (OUT_DIR/softmax.png);
  3. typing a sentence (Ctrl+L, Ctrl+A, TYPED): the page runs it, and the maps change: its attention weights differ
     and the screenshot (OUT_DIR/typed.png) differs from softmax.png in over 2 % of its pixels, maps still drawn;
  4. F5: the page presents (OUT_DIR/presenting.png); F5 again: it stops presenting;
and that the page never logged an abort. Prints the cold start (tab opened → first frame drawn) for docs/web.md.
Exits 0 when all hold, 1 with the first failure and the page's last console lines otherwise. Look at the screenshots.
"""
import os
import sys

import attnviz_page
from devtools import Chromium, DevToolsError, serve_folder

WINDOW = (1280, 800)
TYPED = "The trophy did not fit in the suitcase because it was too big."
MIN_CHANGED_SHARE = 0.02


class CheckFailed(AssertionError):
    pass


def check(condition, failure):
    if not condition:
        raise CheckFailed(failure)


def check_maps(page, path):
    problems = attnviz_page.map_problems(attnviz_page.screenshot_colours(page, path))
    check(not problems, f"{os.path.basename(path)}: " + "; ".join(problems))


def stage(page):
    return attnviz_page.numbers(page)["view"]["stage"]


def first_screen(page, out):
    check(stage(page) == "softmax", f"the page opened on stage {stage(page)!r}, not softmax")
    check_maps(page, os.path.join(out, "first-screen.png"))


def arrow_keys_step(page, out):
    for key, expected in (("ArrowLeft", "mask"), ("ArrowLeft", "scale"), ("ArrowRight", "mask"), ("ArrowRight", "softmax")):
        page.press(key)
        page.frames(2)
        check(stage(page) == expected, f"after {key} the page shows {stage(page)!r}, not {expected!r}")
    check_maps(page, os.path.join(out, "softmax.png"))


def typed_sentence_changes_maps(page, out):
    before = attnviz_page.numbers(page)
    after = attnviz_page.type_sentence(page, TYPED)
    check(after["attention_weights"] != before["attention_weights"], "the attention weights did not change with the sentence")
    typed = os.path.join(out, "typed.png")
    check_maps(page, typed)
    changed = attnviz_page.changed_pixels(page, os.path.join(out, "softmax.png"), typed)
    check(changed >= MIN_CHANGED_SHARE * WINDOW[0] * WINDOW[1],
          f"typing a sentence changed {changed} pixels of the screenshot, under {MIN_CHANGED_SHARE:.0%}")


def f5_presents(page, out):
    page.press("F5")
    page.frames(3)
    check(attnviz_page.numbers(page)["view"]["presenting"], "F5 did not start presenting")
    page.screenshot(os.path.join(out, "presenting.png"))
    page.press("F5")
    page.frames(3)
    check(not attnviz_page.numbers(page)["view"]["presenting"], "F5 again did not stop presenting")


STEPS = [first_screen, arrow_keys_step, typed_sentence_changes_maps, f5_presents]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_page.py PAGE_DIR OUT_DIR")
    folder, out = sys.argv[1], os.path.abspath(sys.argv[2])
    if not os.path.isfile(os.path.join(folder, "index.html")):
        sys.exit(f"check_page: {folder} has no index.html: build it with scripts/web --build-only")
    os.makedirs(out, exist_ok=True)
    page = None
    with serve_folder(folder) as url, Chromium(window=WINDOW) as browser:
        try:
            page, cold_start = attnviz_page.open_page(browser, url)
            print(f"check_page: cold start to the first drawn frame: {cold_start:.1f} s")
            for step in STEPS:
                step(page, out)
                check(not attnviz_page.stopped_lines(page), f"the page stopped: {attnviz_page.stopped_lines(page)}")
                print(f"check_page: {step.__name__.replace('_', ' ')}: ok")
        except (AssertionError, DevToolsError) as failure:
            print(f"check_page: {failure}", file=sys.stderr)
            if page is not None:
                print("check_page: the page's console:\n  " + "\n  ".join(page.console[-20:]), file=sys.stderr)
            return 1
    print(f"check_page: the page drew its first screen and obeyed its keys (screenshots in {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
