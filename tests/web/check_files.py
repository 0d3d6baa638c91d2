#!/usr/bin/python3
"""check_files.py PAGE_DIR OUT_DIR — the web page's files cross the browser's edge (src/app/web/browser_files.*).

Serves PAGE_DIR on a loopback port of its own, opens it in headless chromium through tests/web/devtools.py (downloads
into OUT_DIR/downloads), and checks, in one visit and a second one:
  1. File ▸ Export this stage… ▸ Export arrives as a download: a PNG whose text chunks say it is the softmax stage of
     the bundled model's sentence (attnviz.stage, attnviz.tokens) and whose pixels hold the map's viridis colours;
  2. File ▸ Save As… arrives as a download: the session's JSON, with the sentence on screen;
  3. a session file given to the page's file chooser (#attnviz-open-file) opens: "Opened NAME." on the status line
     and NAME in the tab's title;
  4. a model folder given to the folder chooser (#attnviz-open-folder: tests/reference/models/gpt2-hf-names) opens by
     the app's model-folder path ("Opened gpt2-hf-names: GPT-2 …"); one whose files are over the page's 1 GB (a
     sparse file: nothing is read) is refused in the one sentence that says the limit; the folder's files dropped on
     the page open as the model "dropped";
  5. the second visit (a reload) finds the browser's storage: the first visit's unsaved changes are offered back
     (its Restore answers on the status line) with the sentence typed last in the first visit (its export's
     attnviz.sentences).
The status line reaches the console as "attnviz status: …" (web_main.cpp). Screenshots go to OUT_DIR (look at them).
Exits 0 when all hold, 1 with the reasons otherwise. Standard library only; every wait bounded.
"""
import json
import os
import shutil
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attnviz_page import COLOUR_TOLERANCE, MAP_COLOURS  # noqa: E402
from devtools import Chromium, DevToolsError, serve_folder  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL_FOLDER = os.path.join(REPO, "tests", "reference", "models", "gpt2-hf-names")
WINDOW = (1280, 800)
TYPED_SENTENCE = "The cat sat on the warm mat."
UNSAVED_SENTENCE = "The dog slept by the door."
# Where the clicks go at WINDOW's size and the default zoom (CSS pixels, read off screenshots of this page): the menu
# bar's File, its "Save As…" and "Export this stage…" items, and the export dialog's Export button. A moved item fails
# step 1 or 2.
FILE_MENU = (22, 12)
SAVE_AS = (45, 104)
BUNDLED_MODEL = (150, 220)
EXPORT_THIS_STAGE = (75, 342)
EXPORT_BUTTON = (306, 475)
RESTORE_BUTTON = (411, 299)
NOWHERE = (720, 500)  # between the two maps: no widget  # the second visit's "Restore unsaved session?" question


def png_text(path):
    """The tEXt chunks of a PNG as a dict."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path} is not a PNG")
    text, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, value = data[at + 8:at + 8 + length].partition(b"\0")
            text[key.decode("latin-1")] = value.decode("latin-1")
        at += 12 + length
    return text


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


def has_map_colours(path):
    """Whether the PNG holds viridis's purple and yellow (the softmax map's 0 and 1)."""
    width, height, rows = read_png_rgb(path)
    found = set()
    for row in rows:
        for x in range(0, len(row), 3):
            pixel = row[x:x + 3]
            for name, colour in MAP_COLOURS.items():
                if all(abs(pixel[i] - colour[i]) <= COLOUR_TOLERANCE for i in range(3)):
                    found.add(name)
    return found == set(MAP_COLOURS)


def click(page, at):
    """A left click at `at` (CSS pixels), with a frame between moving there and pressing (ImGui hovers first)."""
    x, y = at
    page.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    page.frames(2)
    page.call("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
    page.frames(2)
    page.call("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)
    page.frames(3)


def status_after(page, seen, text, timeout=60.0):
    """The first status line after the `seen` console lines that holds `text` (or one of the texts of a tuple)."""
    deadline = time.monotonic() + timeout
    texts = text if isinstance(text, tuple) else (text,)
    while True:
        for line in page.console[seen:]:
            if line.startswith("attnviz status: ") and any(each in line for each in texts):
                return line
        if time.monotonic() >= deadline:
            statuses = [line for line in page.console[seen:] if line.startswith("attnviz status: ")]
            raise DevToolsError(f"no status line holding {text!r} in {timeout:.0f} s (saw {statuses})")
        page.frames(5)


def choose_files(page, input_id, paths):
    """Gives `paths` to the page's hidden <input type=file id=input_id>, as the browser's chooser would."""
    document = page.call("DOM.getDocument")["root"]["nodeId"]
    node = page.call("DOM.querySelector", nodeId=document, selector=f"#{input_id}")["nodeId"]
    if not node:
        raise DevToolsError(f"the page has no #{input_id}")
    page.call("DOM.setFileInputFiles", nodeId=node, files=paths)


def type_sentence(page, sentence):
    """Ctrl+L, the sentence typed over the old one, Enter, Escape (out of the field); the mouse first moved off the
    panels (left over a menu item it rests on the model list). Typed a frame per character: typed at once right
    after a model switch, only the first character reached the field in one run of three (issue for later: a fast
    typist on the page, which computes each pass between frames, may see the same)."""
    page.call("Input.dispatchMouseEvent", type="mouseMoved", x=NOWHERE[0], y=NOWHERE[1])
    page.frames(3)
    page.press("Ctrl+l")
    page.press("Ctrl+a")
    for character in sentence:  # a frame after each: see the note above
        page.press(character)
        page.frames(1)
    page.press("Enter")
    page.frames(10)
    page.press("Escape")
    page.frames(3)


def drop_files(page, paths):
    """`paths` dragged from the desktop and dropped on the page's canvas."""
    data = {"items": [], "files": paths, "dragOperationsMask": 1}
    for kind in ("dragEnter", "dragOver", "drop"):
        page.call("Input.dispatchDragEvent", type=kind, x=NOWHERE[0], y=NOWHERE[1], data=data)


def export_this_stage(page, browser):
    """File ▸ Export this stage… ▸ Export; the downloaded file's path."""
    click(page, FILE_MENU)
    click(page, EXPORT_THIS_STAGE)
    click(page, EXPORT_BUTTON)
    return browser.wait_for_download(60)


def first_visit(page, browser, out, problems):
    page.wait_for_console("attnviz: first frame drawn", 90)
    page.frames(10)
    figure = export_this_stage(page, browser)
    page.screenshot(os.path.join(out, "after-export.png"))
    text = png_text(figure)
    if not (text.get("attnviz.stage") == "7 softmax" and "animal" in text.get("attnviz.tokens", "")):
        problems.append(f"the downloaded {os.path.basename(figure)} is not the softmax stage of the first screen: {text}")
    if not has_map_colours(figure):
        problems.append(f"the downloaded {os.path.basename(figure)} lacks the softmax map's viridis colours")

    type_sentence(page, TYPED_SENTENCE)
    page.screenshot(os.path.join(out, "typed-sentence.png"))
    click(page, FILE_MENU)  # a click, not Ctrl+Shift+S: chromium lets a page download again after a click only
    click(page, SAVE_AS)
    page.frames(5)
    page.screenshot(os.path.join(out, "saved-session.png"))
    session = browser.wait_for_download(60)
    try:
        saved = json.load(open(session))
    except ValueError as error:
        problems.append(f"the saved session {os.path.basename(session)} is not JSON: {error}")
        saved = {}
    if TYPED_SENTENCE not in json.dumps(saved):
        problems.append(f"the saved session {os.path.basename(session)} lacks the typed sentence")

    renamed = os.path.join(out, "lecture-notes.json")
    shutil.copy(session, renamed)
    seen = len(page.console)
    choose_files(page, "attnviz-open-file", [renamed])
    status_after(page, seen, "Opened lecture-notes.json")
    if "lecture-notes.json" not in page.evaluate("document.title"):
        problems.append(f"the opened session's name is not in the tab's title: {page.evaluate('document.title')!r}")

    seen = len(page.console)
    choose_files(page, "attnviz-open-folder", [MODEL_FOLDER])
    status_after(page, seen, "Opened gpt2-hf-names")
    page.screenshot(os.path.join(out, "model-from-disk.png"))

    too_big = os.path.join(out, "too-big-model")
    os.makedirs(too_big, exist_ok=True)
    shutil.copy(os.path.join(MODEL_FOLDER, "config.json"), too_big)
    with open(os.path.join(too_big, "model.safetensors"), "wb") as sparse:
        sparse.truncate(3 << 29)  # 1.5 GiB, no block written
    seen = len(page.console)
    choose_files(page, "attnviz-open-folder", [too_big])
    status_after(page, seen, "This model's files are 1.5 GB; the web page opens models up to 1 GB")
    page.screenshot(os.path.join(out, "model-refused.png"))

    seen = len(page.console)
    drop_files(page, sorted(os.path.join(MODEL_FOLDER, name) for name in os.listdir(MODEL_FOLDER)))
    status_after(page, seen, "Opened dropped: GPT-2")

    # Back to the bundled model: the folder from the disk lives in this tab's memory only, so an autosave naming it
    # could not be restored on the next visit (the app says so); the bundled model's can.
    seen = len(page.console)
    click(page, FILE_MENU)
    click(page, BUNDLED_MODEL)
    status_after(page, seen, "Opened attnviz-mini-bert")
    page.frames(10)
    page.screenshot(os.path.join(out, "bundled-again.png"))
    type_sentence(page, UNSAVED_SENTENCE)  # an unsaved change for the autosave


def second_visit(page, browser, out, problems):
    seen = len(page.console)
    page.call("Page.reload")
    deadline = time.monotonic() + 90
    while not any("attnviz: first frame drawn" in line for line in page.console[seen:]):
        if time.monotonic() >= deadline:
            raise DevToolsError("the reloaded page drew no first frame in 90 s")
        page.connection.pump(deadline, "the reloaded page's first frame")
        page._collect_console()
    page.frames(10)
    page.screenshot(os.path.join(out, "second-visit.png"))
    # The first visit ended with unsaved changes (models opened after the save): the autosave is offered back.
    seen = len(page.console)
    click(page, RESTORE_BUTTON)
    restored = status_after(page, seen, "Restored the unsaved session")
    page.frames(10)
    page.screenshot(os.path.join(out, "restored.png"))
    print(f"check_files: second visit: {restored}")
    page.screenshot(os.path.join(out, "restored.png"))
    figure = export_this_stage(page, browser)
    sentences = png_text(figure).get("attnviz.sentences", "")
    if UNSAVED_SENTENCE not in sentences:
        problems.append(f"the second visit did not get the first visit's sentence back from browser storage: {sentences}")


def main():
    if len(sys.argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    page_dir, out = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    problems = []
    with serve_folder(page_dir) as url, Chromium(window=WINDOW, downloads=os.path.join(out, "downloads")) as browser:
        try:
            page = browser.open(url)
            first_visit(page, browser, out, problems)
            # What the page does when its tab is hidden or closed: settings and autosave into browser storage.
            page.evaluate("Module.ccall('attnviz_page_hidden', null, [], []); Module.attnvizFiles.stored")
            second_visit(page, browser, out, problems)
        except (DevToolsError, AssertionError) as error:
            problems.append(str(error))
        stopped = [line for line in page.console if "attnviz stopped" in line or line.startswith("uncaught")]
        problems += [f"the page stopped: {line}" for line in stopped]
    for problem in problems:
        print(f"check_files: {problem}", file=sys.stderr)
    if not problems:
        print(f"check_files: export, session save/open, model folder and storage work; screenshots in {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
