#!/usr/bin/python3
"""check_page.py PAGE_DIR SCREENSHOT.png — the web page (scripts/web's build/web/page) runs in a browser.

Serves PAGE_DIR on a loopback port of its own (stopped when the check ends), opens it in Debian's headless chromium
(software WebGL 2: SwiftShader), and checks that
  1. the page says on the console that it drew its first frame ("attnviz: first frame drawn", web_main.cpp), and
     never that it stopped (the shell's "attnviz stopped: …", a WebAssembly abort);
  2. the screenshot chromium takes shows the first screen: not blank, and with the softmax map's colours in it —
     viridis's purple (weight 0) and yellow (weight 1: "it" → "animal", the [SEP] column), drawn by the heatmap shader.
Writes the screenshot to SCREENSHOT.png (look at it). Exits 0 when all hold, 1 with the reasons otherwise.
Standard library only (Debian's /usr/bin/python3); bounded: chromium gets 90 s.
"""
import functools
import http.server
import os
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

FIRST_FRAME = "attnviz: first frame drawn"
# The softmax map's colours (src/colormap): viridis at 0 and at 1; each must cover at least MIN_PIXELS pixels of the
# screenshot (a map cell is some 16 × 16 px).
MAP_COLOURS = {"viridis purple": (68, 1, 84), "viridis yellow": (253, 231, 37)}
COLOUR_TOLERANCE = 12
MIN_PIXELS = 100
MIN_DISTINCT_COLOURS = 200
WINDOW = (1280, 800)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    """A loopback HTTP server for `folder` on a port the system picks, answering on a thread of its own."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_chromium(url, screenshot):
    """chromium's console log (stderr) after loading `url` and writing its screenshot."""
    with tempfile.TemporaryDirectory() as profile:
        command = [
            "chromium", "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
            # Virtual time runs while the page fetches and compiles its files: 30 s of it, never more than 90 s of ours.
            "--virtual-time-budget=30000", f"--screenshot={screenshot}", url,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=90)
        return done.stderr


def read_png_rgb(path):
    """(width, height, rows of (r, g, b) bytes) of an 8-bit RGB or RGBA PNG, as chromium writes them."""
    with open(path, "rb") as file:
        data = file.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    at, chunks, header = 8, [], None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    width, height, depth, colour_type = header[:4]
    assert depth == 8 and colour_type in (2, 6), f"{path}: an 8-bit RGB(A) PNG was expected"
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, up_left = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - up_left
                nearest = min((abs(estimate - left), 0, left), (abs(estimate - up), 1, up), (abs(estimate - up_left), 2, up_left))
                line[x] = (line[x] + nearest[2]) & 255
        rows.append(bytes(line[i] for x in range(width) for i in range(x * channels, x * channels + 3)))
        previous = line
    return width, height, rows


def screenshot_problems(path):
    width, height, rows = read_png_rgb(path)
    colours, counts = set(), dict.fromkeys(MAP_COLOURS, 0)
    for row in rows:
        for x in range(0, len(row), 3):
            pixel = tuple(row[x:x + 3])
            colours.add(pixel)
            for name, wanted in MAP_COLOURS.items():
                if all(abs(a - b) <= COLOUR_TOLERANCE for a, b in zip(pixel, wanted)):
                    counts[name] += 1
    problems = []
    if len(colours) < MIN_DISTINCT_COLOURS:
        problems.append(f"the screenshot ({width}x{height}) has {len(colours)} colours: blank or nearly")
    problems += [f"no {name} in the screenshot: the maps are missing ({count} px)" for name, count in counts.items() if count < MIN_PIXELS]
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_page.py PAGE_DIR SCREENSHOT.png")
    folder, screenshot = sys.argv[1], os.path.abspath(sys.argv[2])
    if not os.path.isfile(os.path.join(folder, "index.html")):
        sys.exit(f"check_page: {folder} has no index.html: build it with scripts/web --build-only")
    server = serve(folder)
    try:
        log = run_chromium(f"http://127.0.0.1:{server.server_address[1]}/", screenshot)
    finally:
        server.shutdown()
    problems = []
    if FIRST_FRAME not in log:
        problems.append(f"the page never logged \"{FIRST_FRAME}\"")
    problems += [f"the page stopped: {line.strip()}" for line in log.splitlines() if "attnviz stopped" in line or "Aborted(" in line]
    if os.path.isfile(screenshot):
        problems += screenshot_problems(screenshot)
    else:
        problems.append("chromium wrote no screenshot")
    for problem in problems:
        print(f"check_page: {problem}", file=sys.stderr)
    if problems:
        console = [line for line in log.splitlines() if "CONSOLE" in line]
        print("check_page: the page's console:\n" + "\n".join(console[-20:]), file=sys.stderr)
        return 1
    print(f"check_page: the page drew its first screen ({screenshot})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
