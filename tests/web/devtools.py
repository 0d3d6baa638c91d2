"""devtools.py — drives Debian's headless chromium through the DevTools protocol, for the web page's tests.

Standard library only (Debian's /usr/bin/python3): chromium listens on a loopback port of its own
(--remote-debugging-port=0, the port read from its DevToolsActivePort file), this module speaks the protocol's JSON
over one WebSocket to it (a minimal RFC 6455 client below), nothing is downloaded. Every wait is bounded: a call or
a wait that takes longer than its timeout raises DevToolsError, and leaving the `with` block closes chromium.

    from devtools import Chromium, serve_folder
    with serve_folder("build/web/page") as url, Chromium(window=(1280, 800), downloads="/tmp/downloads") as browser:
        page = browser.open(url)                               # a new tab, loaded (the load event)
        page.wait_for_console("attnviz: first frame drawn")    # a console line holding this text; returns the line
        page.press("ArrowRight")                               # one key: "F5", "Enter", "Ctrl+z", "Ctrl+=", "a" …
        page.type_text("The cat sat.")                         # characters, as a keyboard types them
        page.frames(5)                                         # waits for the page to draw 5 more frames
        value = page.evaluate("Module.ccall('f', 'string')")  # a JS expression's value (JSON-able); promises awaited
        page.screenshot("shot.png")                            # a PNG of the viewport
        path = browser.wait_for_download()                     # the next finished download's path (in `downloads`)
        page.console                                           # every console line so far (console.* and errors)

Keys go through Input.dispatchKeyEvent as a keyboard's would: each held modifier's own key-down, a key-down carrying
the DOM keyCode (Emscripten's GLFW reads keyCode, and knows Ctrl is held only from Ctrl's own key-down), with its
text for printable characters (the browser then fires the `keypress` that GLFW turns into a typed character), the
key-up, the modifiers' key-ups. Input.insertText is not used: it fires no key events, so GLFW never sees it.
"""
import base64
import contextlib
import functools
import http.server
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time

CHROMIUM = "chromium"
# Software WebGL 2 (SwiftShader): this machine has no GPU in the tests.
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                  "--no-first-run", "--no-default-browser-check", "--disable-background-timer-throttling",
                  "--disable-renderer-backgrounding", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0"]
START_TIMEOUT = 30.0
CALL_TIMEOUT = 60.0

# name: (DOM key, DOM code, Windows virtual key code = the DOM keyCode GLFW maps).
NAMED_KEYS = {
    "ArrowLeft": ("ArrowLeft", "ArrowLeft", 37), "ArrowUp": ("ArrowUp", "ArrowUp", 38),
    "ArrowRight": ("ArrowRight", "ArrowRight", 39), "ArrowDown": ("ArrowDown", "ArrowDown", 40),
    "PageUp": ("PageUp", "PageUp", 33), "PageDown": ("PageDown", "PageDown", 34),
    "End": ("End", "End", 35), "Home": ("Home", "Home", 36), "Delete": ("Delete", "Delete", 46),
    "Backspace": ("Backspace", "Backspace", 8), "Tab": ("Tab", "Tab", 9), "Enter": ("Enter", "Enter", 13),
    "Escape": ("Escape", "Escape", 27), "Space": (" ", "Space", 32),
    **{f"F{n}": (f"F{n}", f"F{n}", 111 + n) for n in range(1, 13)},
}
# Printable characters whose keyCode is not their upper-case code point (US layout).
PUNCTUATION_KEYS = {";": 186, "=": 187, ",": 188, "-": 189, ".": 190, "/": 191, "`": 192, "[": 219, "\\": 220,
                    "]": 221, "'": 222, "+": 187, "?": 191, "!": 49, ":": 186, '"': 222}
MODIFIERS = {"Alt": 1, "Ctrl": 2, "Meta": 4, "Shift": 8}  # Input.dispatchKeyEvent's modifier bits
# Each modifier's own key (GLFW, like a real keyboard's driver, knows Ctrl is held from Ctrl's own key-down).
MODIFIER_KEYS = {"Alt": ("Alt", "AltLeft", 18), "Ctrl": ("Control", "ControlLeft", 17),
                 "Meta": ("Meta", "MetaLeft", 91), "Shift": ("Shift", "ShiftLeft", 16)}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve_folder(folder):
    """http://127.0.0.1:PORT/ serving `folder` (a static server on a port the system picks) until the block ends."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class DevToolsError(RuntimeError):
    """A protocol error, a script's exception, or a wait past its timeout."""


class WebSocket:
    """A client WebSocket (RFC 6455) to a loopback ws:// address: text messages out (masked), text messages in."""

    def __init__(self, host, port, path, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise DevToolsError("chromium closed the DevTools connection during its handshake")
            reply += chunk
        head, self.buffer = reply.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise DevToolsError(f"chromium refused the DevTools WebSocket: {head.decode(errors='replace')}")

    def send(self, text):
        payload, mask = text.encode(), os.urandom(4)
        length = len(payload)
        header = struct.pack("!B", 0x81)  # FIN + text
        if length < 126:
            header += struct.pack("!B", 0x80 | length)
        elif length < 1 << 16:
            header += struct.pack("!BH", 0x80 | 126, length)
        else:
            header += struct.pack("!BQ", 0x80 | 127, length)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(max(65536, count - len(self.buffer)))
            if not chunk:
                raise DevToolsError("chromium closed the DevTools connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self, timeout):
        """The next text message; raises socket.timeout when none arrives within `timeout` seconds."""
        self.sock.settimeout(timeout)
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(length)  # servers never mask
            if opcode == 0x8:
                raise DevToolsError("chromium closed the DevTools connection")
            if opcode == 0x9:  # ping: answer, keep reading
                self.sock.sendall(struct.pack("!BB", 0x8A, 0x80) + b"\0\0\0\0")
                continue
            message += payload
            if first & 0x80:
                return message.decode()

    def close(self):
        self.sock.close()


class Connection:
    """Commands and events over one WebSocket; events wait in a list until someone looks for them."""

    def __init__(self, socket_):
        self.socket = socket_
        self.next_id = 0
        self.events = []

    def call(self, method, session=None, timeout=CALL_TIMEOUT, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while True:
            reply = self._next(deadline, f"{method}'s reply")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for_event(self, matches, timeout, what):
        """The first event (old or new) for which matches(event) holds, removed from the list."""
        deadline = time.monotonic() + timeout
        checked = 0
        while True:
            for index in range(checked, len(self.events)):
                if matches(self.events[index]):
                    return self.events.pop(index)
            checked = len(self.events)
            self.pump(deadline, what)

    def pump(self, deadline, what):
        """Reads one message (waiting until `deadline` at most) and keeps it if it is an event."""
        message = self._next(deadline, what)
        if "method" in message:
            self.events.append(message)

    def _next(self, deadline, what):
        left = deadline - time.monotonic()
        if left <= 0:
            raise DevToolsError(f"timed out waiting for {what}")
        try:
            return json.loads(self.socket.receive(left))
        except socket.timeout:
            raise DevToolsError(f"timed out waiting for {what}") from None


def key_event(name):
    """Input.dispatchKeyEvent's parameters (without `type`) for a key name such as "F5", "Ctrl+z" or "a"."""
    head, _, key = name.rpartition("+")
    if not key:  # the + key itself: "+" or "Ctrl++"
        head, key = head[:-1], "+"
    held = head.split("+") if head else []
    key = "Space" if key == " " else key
    unknown = [modifier for modifier in held if modifier not in MODIFIERS]
    if unknown:
        raise ValueError(f"unknown modifier {unknown[0]!r} in key {name!r} (use {', '.join(MODIFIERS)})")
    modifiers = sum(MODIFIERS[modifier] for modifier in held)
    if key in NAMED_KEYS:
        dom_key, code, key_code = NAMED_KEYS[key]
        event = {"key": dom_key, "code": code, "windowsVirtualKeyCode": key_code, "modifiers": modifiers}
        if key in ("Enter", "Space"):
            event["text"] = "\r" if key == "Enter" else " "
        return event
    if len(key) != 1:
        raise ValueError(f"unknown key {key!r} (a character or one of {', '.join(NAMED_KEYS)})")
    if key.isascii() and key.isalnum():
        key_code, code = ord(key.upper()), ("Key" + key.upper() if key.isalpha() else "Digit" + key)
    else:
        key_code, code = PUNCTUATION_KEYS.get(key, 0), ""
    event = {"key": key, "code": code, "windowsVirtualKeyCode": key_code, "modifiers": modifiers}
    if not modifiers & (MODIFIERS["Ctrl"] | MODIFIERS["Alt"] | MODIFIERS["Meta"]):
        event["text"] = key  # a typed character: the browser fires keypress
    return event


class Page:
    """One tab, attached through a flat session of the browser's connection."""

    def __init__(self, connection, session):
        self.connection = connection
        self.session = session
        self.console = []

    def call(self, method, timeout=CALL_TIMEOUT, **params):
        """Any DevTools command on this tab (https://chromedevtools.github.io/devtools-protocol/); its result."""
        result = self.connection.call(method, self.session, timeout, **params)
        self._collect_console()
        return result

    def _collect_console(self):
        """Moves this tab's console events from the connection's list into self.console (as text lines)."""
        kept = []
        for event in self.connection.events:
            if event.get("sessionId") == self.session and event["method"] in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown"):
                self.console.append(console_line(event))
            else:
                kept.append(event)
        self.connection.events[:] = kept

    def wait_for_console(self, text, timeout=60.0):
        """The first console line (already seen or new) that holds `text`."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            self._collect_console()
            for line in self.console[seen:]:
                if text in line:
                    return line
            seen = len(self.console)
            if time.monotonic() >= deadline:
                raise DevToolsError(f"the page never logged {text!r} in {timeout:.0f} s")
            self.connection.pump(deadline, f"the page to log {text!r} (waited {timeout:.0f} s)")

    def evaluate(self, expression, timeout=CALL_TIMEOUT):
        """The value of a JS expression in the page (returned by value: JSON-able); a promise is awaited."""
        result = self.call("Runtime.evaluate", timeout, expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise DevToolsError(f"{expression[:80]}: {details.get('exception', {}).get('description', details.get('text'))}")
        return result["result"].get("value")

    def frames(self, count=2, timeout=30.0):
        """Waits until the page has drawn `count` more animation frames (input is handled in the next frame)."""
        self.evaluate(f"new Promise(done => {{ let left = {count}; const tick = () => --left > 0 ? "
                      f"requestAnimationFrame(tick) : done(); requestAnimationFrame(tick); }})", timeout)

    def press(self, name):
        """One key pressed and released, inside its modifiers' own presses (Ctrl down, Z down, Z up, Ctrl up);
        `name` as in key_event()."""
        event = key_event(name)
        held = [modifier for modifier, bit in MODIFIERS.items() if event["modifiers"] & bit]
        modifiers = 0
        for modifier in held:
            modifiers |= MODIFIERS[modifier]
            self._modifier_key("rawKeyDown", modifier, modifiers)
        self.call("Input.dispatchKeyEvent", type="keyDown" if "text" in event else "rawKeyDown", **event)
        self.call("Input.dispatchKeyEvent", type="keyUp", **{k: v for k, v in event.items() if k != "text"})
        for modifier in reversed(held):
            modifiers &= ~MODIFIERS[modifier]
            self._modifier_key("keyUp", modifier, modifiers)

    def _modifier_key(self, kind, modifier, modifiers):
        key, code, key_code = MODIFIER_KEYS[modifier]
        self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code, modifiers=modifiers)

    def type_text(self, text):
        """Each character of `text` pressed in turn (Shift is implied by the character, as a keyboard's text)."""
        for character in text:
            self.press(character)

    def screenshot(self, path):
        """Writes a PNG of the page's viewport to `path`."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))


def console_line(event):
    """A console event as one line of text: its arguments joined, or an uncaught exception's description."""
    if event["method"] == "Runtime.exceptionThrown":
        details = event["params"]["exceptionDetails"]
        return "uncaught: " + details.get("exception", {}).get("description", details.get("text", ""))
    parts = [str(argument.get("value", argument.get("description", ""))) for argument in event["params"]["args"]]
    return " ".join(parts)


class Chromium:
    """Headless chromium with the DevTools protocol on loopback; a context manager that always closes it."""

    def __init__(self, window=(1280, 800), downloads=None, extra_flags=()):
        self.window = window
        self.downloads = downloads
        self.extra_flags = list(extra_flags)
        self.process = None
        self.profile = None
        self.connection = None
        self._download_names = {}

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="attnviz-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={self.window[0]},{self.window[1]}", *self.extra_flags, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            port, path = self._read_active_port()
            self.connection = Connection(WebSocket("127.0.0.1", port, path, START_TIMEOUT))
            if self.downloads:
                os.makedirs(self.downloads, exist_ok=True)
                self.connection.call("Browser.setDownloadBehavior", behavior="allow",
                                     downloadPath=os.path.abspath(self.downloads), eventsEnabled=True)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _read_active_port(self):
        """chromium's DevTools port and browser path, from the DevToolsActivePort file it writes once listening."""
        marker = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DevToolsError(f"chromium exited at start (status {self.process.returncode})")
            if os.path.exists(marker):
                lines = open(marker).read().split()
                if len(lines) >= 2:
                    return int(lines[0]), lines[1]
            time.sleep(0.05)
        raise DevToolsError(f"chromium did not open its DevTools port in {START_TIMEOUT:.0f} s")

    def open(self, url, timeout=60.0):
        """A new tab showing `url`, once its load event has fired; console lines are collected from the start."""
        target = self.connection.call("Target.createTarget", url="about:blank",
                                      newWindow=False)["targetId"]
        session = self.connection.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self.connection, session)
        page.call("Page.enable")
        page.call("Runtime.enable")
        width, height = self.window
        page.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=url)
        self.connection.wait_for_event(lambda event: event.get("sessionId") == session and event["method"] == "Page.loadEventFired",
                                       timeout, f"{url} to load")
        return page

    def wait_for_download(self, timeout=60.0):
        """The path of the next download to finish (Browser.setDownloadBehavior put it in `downloads`)."""
        if not self.downloads:
            raise DevToolsError("Chromium(downloads=FOLDER) accepts downloads; this one was started without")
        deadline = time.monotonic() + timeout
        while True:
            event = self.connection.wait_for_event(
                lambda event: event["method"] in ("Browser.downloadWillBegin", "Browser.downloadProgress"),
                deadline - time.monotonic(), "a download")
            params = event["params"]
            if event["method"] == "Browser.downloadWillBegin":
                self._download_names[params["guid"]] = params["suggestedFilename"]
            elif params["state"] == "completed":
                return os.path.join(self.downloads, self._download_names.get(params["guid"], params["guid"]))
            elif params["state"] == "canceled":
                raise DevToolsError(f"the download {self._download_names.get(params['guid'], '')!r} was canceled")

    def __exit__(self, *exception):
        if self.connection:
            try:
                self.connection.call("Browser.close", timeout=5)
            except (DevToolsError, OSError):
                pass
            self.connection.socket.close()
        if self.process:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
        return False
