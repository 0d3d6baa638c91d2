"""attnviz_page.py — what the web page's tests share: opening the page, reading its numbers, typing a sentence into
it, and looking at screenshots (standard library only; the browser itself through devtools.py).

    page, seconds = open_page(browser, url)     # waits for "attnviz: first frame drawn"; seconds since the tab opened
    numbers(page)                               # attnviz_page_numbers()'s JSON (src/app/web/page_numbers.h)
    type_sentence(page, "The cat sat.")          # Ctrl+L, Ctrl+A, the text typed; returns the numbers of its run
    colours = screenshot_colours(page, "a.png") # takes a screenshot; its distinct colours and the map colours' pixels
    map_problems(colours)                       # [] when the screenshot shows the maps (viridis purple and yellow)
    changed_pixels(page, "a.png", "b.png")      # how many pixels differ between two screenshots of the same size

Screenshots are decoded by the browser (createImageBitmap on an OffscreenCanvas): Debian's python3 has no PNG
decoder, and a pure-Python one spent 2 CPU-seconds on each 1280 × 800 screenshot.
"""
import base64
import json
import time

FIRST_FRAME = "attnviz: first frame drawn"
# The page's console says this (shell.html's onAbort) or Emscripten's abort text when the program stopped.
STOPPED = ("attnviz stopped", "Aborted(")
# The softmax map's colours (src/colormap): viridis at 0 and at 1; each must cover at least MIN_MAP_PIXELS pixels of
# the screenshot (a map cell is some 16 × 16 px).
MAP_COLOURS = {"viridis purple": (68, 1, 84), "viridis yellow": (253, 231, 37)}
COLOUR_TOLERANCE = 12
MIN_MAP_PIXELS = 100
MIN_DISTINCT_COLOURS = 200


def open_page(browser, url, timeout=60.0):
    """The page in a new tab once it drew its first frame, and the seconds from opening the tab to that frame."""
    started = time.monotonic()
    page = browser.open(url, timeout)
    page.wait_for_console(FIRST_FRAME, timeout)
    return page, time.monotonic() - started


def stopped_lines(page):
    """The console lines that say the program stopped (an abort), if any."""
    return [line for line in page.console if any(mark in line for mark in STOPPED)]


def numbers(page):
    """The page's numbers and view (src/app/web/page_numbers.h) as a dict."""
    return json.loads(page.evaluate("Module.ccall('attnviz_page_numbers', 'string', [], [])"))


def wait_for_run(page, sentence, timeout=60.0):
    """The page's numbers once its run is of `sentence` alone and nothing newer is computing."""
    deadline = time.monotonic() + timeout
    while True:
        now = numbers(page)
        if now.get("sentences") == [sentence] and not now.get("computing"):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never ran {sentence!r} in {timeout:.0f} s (it shows {now.get('sentences')}, "
                                 f"{now.get('error', 'computing' if now.get('computing') else 'done')})")
        page.frames(2)


def type_sentence(page, sentence, timeout=60.0):
    """Types `sentence` in the page's sentence field, as a user does (Ctrl+L to the field, Ctrl+A, the text), and
    returns the page's numbers once it ran it."""
    page.press("Ctrl+l")
    page.frames(2)  # the field takes the keyboard in the next frame
    page.press("Ctrl+a")
    page.type_text(sentence)
    page.frames(2)
    return wait_for_run(page, sentence, timeout)


# Counts, in the browser, a PNG's distinct colours and its pixels near each wanted colour.
_COLOUR_COUNT_JS = """(async (png, wanted, tolerance) => {
  const pixels = await decodePng(png);
  const distinct = new Set(), near = wanted.map(() => 0);
  for (let i = 0; i < pixels.length; i += 4) {
    const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
    distinct.add((r << 16) | (g << 8) | b);
    wanted.forEach((w, k) => { if (Math.abs(r - w[0]) <= tolerance && Math.abs(g - w[1]) <= tolerance && Math.abs(b - w[2]) <= tolerance) near[k]++; });
  }
  return {distinct: distinct.size, near: near};
})"""
# Counts, in the browser, the pixels that differ between two PNGs of the same size.
_DIFFERENCE_JS = """(async (first, second) => {
  const a = await decodePng(first), b = await decodePng(second);
  if (a.length !== b.length) return -1;
  let differ = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) differ++;
  return differ;
})"""
_DECODE_PNG_JS = """async function decodePng(base64) {
  const bitmap = await createImageBitmap(await (await fetch('data:image/png;base64,' + base64)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height), context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
}"""


def _png_base64(path):
    with open(path, "rb") as file:
        return base64.b64encode(file.read()).decode()


def _in_browser(page, function, *arguments):
    call = ", ".join(json.dumps(argument) for argument in arguments)
    return page.evaluate(f"(() => {{ {_DECODE_PNG_JS}; return {function}({call}); }})()")


def screenshot_colours(page, path):
    """Takes a screenshot to `path`; returns {"distinct": n, "near": {colour name: pixels}} for MAP_COLOURS."""
    page.screenshot(path)
    counted = _in_browser(page, _COLOUR_COUNT_JS, _png_base64(path), list(MAP_COLOURS.values()), COLOUR_TOLERANCE)
    return {"distinct": counted["distinct"], "near": dict(zip(MAP_COLOURS, counted["near"]))}


def map_problems(colours):
    """What is wrong with a screenshot meant to show attention maps (screenshot_colours' answer), if anything."""
    problems = []
    if colours["distinct"] < MIN_DISTINCT_COLOURS:
        problems.append(f"the screenshot has {colours['distinct']} colours: blank or nearly")
    problems += [f"no {name} in the screenshot: the maps are missing ({count} px)"
                 for name, count in colours["near"].items() if count < MIN_MAP_PIXELS]
    return problems


def changed_pixels(page, first, second):
    """How many pixels differ between two screenshots (files) of the same size; -1 when their sizes differ."""
    return _in_browser(page, _DIFFERENCE_JS, _png_base64(first), _png_base64(second))
