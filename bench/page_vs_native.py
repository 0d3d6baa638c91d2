#!/usr/bin/python3
"""page_vs_native.py [REPEATS] — the bundled model's forward pass in the page ÷ the same pass native, one thread each.

Runs bench_page_forward (bench_page_forward.cpp: core::runModel of the first screen, median of REPEATS passes after
3 warm-ups, default 30; always 30 in chromium) three ways and prints each median and its ratio to the native one:
  native   build/headless/bench/bench_page_forward under `taskset -c 0` (one core: core::usableCores() is 1),
           -O3 -march=native with the desktop's GEMM;
  node     build/web/bench/bench_page_forward.js: the page's WebAssembly build (no threads), Debian's node;
  chromium build/web/bench/bench_page_forward_browser.html in headless chromium (tests/web/devtools.py), the
           engine the page runs in.
Build first: cmake --preset headless && cmake --build --preset headless --target bench_page_forward, and
scripts/web --build-only && cmake --build --preset web --target bench_page_forward bench_page_forward_browser.
The page's budget (issue 38): ≤ 5 × native. One run on a shared machine: a measurement for docs/web.md, not a test.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
from devtools import Chromium, serve_folder  # noqa: E402

NATIVE = os.path.join(ROOT, "build/headless/bench/bench_page_forward")
WEB = os.path.join(ROOT, "build/web/bench")


def median_ms(output):
    found = re.search(r"forward_ms ([0-9.]+)", output)
    if not found:
        sys.exit(f"page_vs_native: no forward_ms in {output!r}")
    return float(found.group(1))


def in_chromium():
    """The browser build's median (its default 30 passes: Emscripten's shell passes no arguments)."""
    with serve_folder(WEB) as url, Chromium() as browser:
        page = browser.open(f"{url}bench_page_forward_browser.html")
        return median_ms(page.wait_for_console("forward_ms", timeout=300))


def main():
    repeats = sys.argv[1] if len(sys.argv) > 1 else "30"
    runs = {
        "native": median_ms(subprocess.run(["taskset", "-c", "0", NATIVE, repeats], capture_output=True, text=True,
                                           check=True, timeout=300).stdout),
        "node": median_ms(subprocess.run(["node", "--no-experimental-fetch", os.path.join(WEB, "bench_page_forward.js"),
                                          repeats], capture_output=True, text=True, check=True, timeout=300).stdout),
        "chromium": in_chromium(),
    }
    for name, ms in runs.items():
        print(f"{name:9s} {ms:8.2f} ms per forward   {ms / runs['native']:5.2f} × native")


if __name__ == "__main__":
    main()
