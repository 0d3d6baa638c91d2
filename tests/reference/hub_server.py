#!/usr/bin/python3
"""A loopback stand-in for the Hugging Face Hub, for attnviz's fetch tests (tests/hub_test_server.h starts it).

    hub_server.py serve --repo ID=FOLDER [...] [--stats FILE] [fault options]
        Serves 127.0.0.1 on a free port and prints the port on the first line of stdout. It speaks what
        huggingface_hub's hf_api.py and file_download.py expect:
          GET  /api/models/{repo}/revision/{rev}?blobs=true  {"id", "sha", "siblings": [{rfilename, size, blobId, lfs}]}
          HEAD /{repo}/resolve/{rev}/{file}   X-Repo-Commit; small files: 200, ETag = git blob sha1, Content-Length;
                                              *.safetensors (LFS): 302 to http://localhost:PORT/cdn/{sha256} (absolute,
                                              another host name, as the Hub's CDN), X-Linked-Etag,
                                              X-Linked-Size
          GET  the same, and /cdn/{sha256} with Range (206 + Content-Range)
          404 with X-Error-Code RepoNotFound / RevisionNotFound / EntryNotFound; 401 GatedRepo without the token;
          a renamed repo answers 307 with a relative Location, as the Hub does.
        Every request is counted into FILE (JSON: requests, ranges, paths, cdn_authorization).
    hub_server.py write-cache --repo ID=FOLDER --cache DIR
        Writes DIR the way huggingface_hub's hf_hub_download does: blobs/<etag>, snapshots/<commit>/<file> as
        relative links ../../blobs/<etag>, refs/main holding the commit (no newline).

Fault options: --gated ID (needs --token), --rename OLD=NEW, --tag NAME (another revision name for each commit),
--drop-after N (the first GET of each LFS file stops after N bytes, connection closed), --corrupt (LFS bytes served
with one byte flipped), --slow (LFS bytes at about 20 kB/s), --huge (LFS sizes announced as 10^14 bytes),
--hostile-name (the file list holds "../escape.json").
Hostile servers (issue 31): --drip PHASE (listing, head or body: the first such response trickles at 2 bytes/s for
4 s, then the rest comes at once; "drips_completed" counts drips sent to their end), --endless (LFS bodies carry no
Content-Length and run on past their size, up to 8 MB), --nested-answer N (the API answer is N bytes of "["),
--padded-answer N (N spaces after the API answer's JSON), --any-revision (every revision name answers with the
repo's commit), --junk-shards N (the file list adds N shard-like names the repo does not hold).
"""
import argparse
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse


def git_blob_sha1(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class Repo:
    def __init__(self, repo_id, folder):
        self.repo_id = repo_id
        self.files = {}
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    self.files[name] = f.read()
        digest = hashlib.sha1(repo_id.encode())
        for name, data in self.files.items():
            digest.update(name.encode() + data)
        self.commit = digest.hexdigest()

    @staticmethod
    def is_lfs(name):
        return name.endswith(".safetensors")

    def etag(self, name):
        data = self.files[name]
        return hashlib.sha256(data).hexdigest() if self.is_lfs(name) else git_blob_sha1(data)


def parse_repos(items):
    repos = {}
    for item in items:
        repo_id, folder = item.split("=", 1)
        repos[repo_id] = Repo(repo_id, folder)
    return repos


def write_cache(args):
    for repo in parse_repos(args.repo).values():
        storage = os.path.join(args.cache, "models--" + repo.repo_id.replace("/", "--"))
        for sub in ("blobs", "refs", os.path.join("snapshots", repo.commit)):
            os.makedirs(os.path.join(storage, sub), exist_ok=True)
        for name, data in repo.files.items():
            etag = repo.etag(name)
            with open(os.path.join(storage, "blobs", etag), "wb") as f:
                f.write(data)
            os.symlink(os.path.join("..", "..", "blobs", etag), os.path.join(storage, "snapshots", repo.commit, name))
        with open(os.path.join(storage, "refs", "main"), "w") as f:
            f.write(repo.commit)


class Hub:
    def __init__(self, args):
        self.args = args
        self.repos = parse_repos(args.repo)
        self.renamed = dict(item.split("=", 1) for item in args.rename)
        self.blobs = {}
        for repo in self.repos.values():
            for name, data in repo.files.items():
                if Repo.is_lfs(name):
                    served = bytearray(data)
                    if args.corrupt:
                        served[len(served) // 2] ^= 0x01
                    self.blobs[repo.etag(name)] = bytes(served)
        self.lock = threading.Lock()
        self.stats = {"requests": 0, "ranges": [], "paths": [], "cdn_authorization": 0, "drips_completed": 0}
        self.dropped = set()
        self.dripped = set()

    def record(self, handler):
        with self.lock:
            self.stats["requests"] += 1
            self.stats["paths"].append(handler.command + " " + handler.path)
            if handler.headers.get("Range"):
                self.stats["ranges"].append(handler.headers["Range"])
            if handler.path.startswith("/cdn/") and handler.headers.get("Authorization"):
                self.stats["cdn_authorization"] += 1
            self.save()

    def save(self):
        if self.args.stats:
            temporary = self.args.stats + ".tmp"
            with open(temporary, "w") as f:
                json.dump(self.stats, f)
            os.replace(temporary, self.args.stats)

    def drips(self, phase):
        """Whether this response of `phase` trickles (only the first one does)."""
        with self.lock:
            if self.args.drip != phase or phase in self.dripped:
                return False
            self.dripped.add(phase)
            return True

    def drip_completed(self):
        with self.lock:
            self.stats["drips_completed"] += 1
            self.save()

    def revision_commit(self, repo, revision):
        if revision in ("main", repo.commit) or revision in self.args.tag or self.args.any_revision:
            return repo.commit
        return None


class Handler(http.server.BaseHTTPRequestHandler):
    hub = None

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.answer(body=False)

    def do_GET(self):
        self.answer(body=True)

    def send(self, status, headers=(), data=b"", body=True, drip=None):
        """Sends a whole response; `drip` "head" trickles its header bytes, "body" its body (see trickle)."""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        if drip == "head":
            self._headers_buffer.append(b"\r\n")
            head = b"".join(self._headers_buffer)
            self._headers_buffer = []
            return self.trickle(head + (data if body else b""))
        self.end_headers()
        if body:
            if drip == "body":
                return self.trickle(data)
            self.wfile.write(data)

    def trickle(self, data):
        """`data` at 2 bytes/s for its first 4 s (8 bytes), then the rest; stops when the client has gone."""
        try:
            for offset in range(min(8, len(data))):
                self.wfile.write(data[offset:offset + 1])
                self.wfile.flush()
                time.sleep(0.5)
            self.wfile.write(data[8:])
            self.wfile.flush()
        except OSError:
            self.close_connection = True
            return
        self.hub.drip_completed()

    def error(self, status, code, body):
        self.send(status, [("X-Error-Code", code)], json.dumps({"error": code}).encode(), body)

    def answer(self, body):
        hub = self.hub
        hub.record(self)
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path)
        if path.startswith("/cdn/"):
            return self.serve_blob(path[len("/cdn/"):], body)
        api = path.startswith("/api/models/")
        rest = path[len("/api/models/"):] if api else path[1:]
        marker = "/revision/" if api else "/resolve/"
        if marker not in rest:
            return self.error(404, "RepoNotFound", body)
        repo_id, tail = rest.split(marker, 1)
        if repo_id in hub.renamed:
            new_path = ("/api/models/" if api else "/") + hub.renamed[repo_id] + marker + urllib.parse.quote(tail)
            return self.send(307, [("Location", new_path + ("?" + url.query if url.query else ""))], b"", body)
        repo = hub.repos.get(repo_id)
        if repo is None:
            return self.error(404, "RepoNotFound", body)
        if repo_id in hub.args.gated and self.headers.get("Authorization") != "Bearer " + hub.args.token:
            return self.error(401, "GatedRepo", body)
        revision, _, filename = tail.partition("/")
        commit = hub.revision_commit(repo, revision)
        if commit is None:
            return self.error(404, "RevisionNotFound", body)
        if api:
            answer = json.dumps(self.model_info(repo)).encode() + b" " * (hub.args.padded_answer or 0)
            if hub.args.nested_answer:
                answer = b"[" * hub.args.nested_answer
            drip = "body" if hub.drips("listing") else None
            return self.send(200, [("Content-Type", "application/json")], answer, body, drip)
        if filename not in repo.files:
            return self.send(404, [("X-Error-Code", "EntryNotFound"), ("X-Repo-Commit", commit)], b"", body)
        data = repo.files[filename]
        etag = repo.etag(filename)
        if Repo.is_lfs(filename):
            size = 10 ** 14 if hub.args.huge else len(data)
            # Another host name for the same server, as the Hub's CDN is another host: the token must not follow.
            location = "http://localhost:%d/cdn/%s" % (self.server.server_address[1], etag)
            return self.send(302, [("Location", location), ("X-Repo-Commit", commit), ("X-Linked-Etag", '"%s"' % etag),
                                   ("X-Linked-Size", str(size)), ("ETag", '"%s"' % git_blob_sha1(b"pointer"))], b"", body)
        drip = "head" if not body and hub.drips("head") else None
        return self.send(200, [("X-Repo-Commit", commit), ("ETag", '"%s"' % etag)], data, body, drip)

    def model_info(self, repo):
        siblings = []
        for name, data in repo.files.items():
            entry = {"rfilename": name, "size": len(data), "blobId": git_blob_sha1(data)}
            if Repo.is_lfs(name):
                entry["lfs"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "pointerSize": 134}
            siblings.append(entry)
        for index in range(self.hub.args.junk_shards):
            name = "model-%05d-of-%05d.safetensors" % (index + 1, self.hub.args.junk_shards)
            siblings.append({"rfilename": name, "size": 4, "blobId": git_blob_sha1(b"junk")})
        if self.hub.args.hostile_name:
            siblings.append({"rfilename": "../escape.json", "size": 2, "blobId": git_blob_sha1(b"{}")})
        return {"id": repo.repo_id, "modelId": repo.repo_id, "sha": repo.commit, "siblings": siblings}

    def serve_blob(self, etag, body):
        hub = self.hub
        data = hub.blobs.get(etag)
        if data is None:
            return self.send(404, [], b"", body)
        start = 0
        requested = self.headers.get("Range", "")
        if requested.startswith("bytes=") and requested.endswith("-"):
            start = int(requested[len("bytes="):-1])
        if start >= len(data) and len(data) > 0:
            return self.send(416, [("Content-Range", "bytes */%d" % len(data))], b"", body)
        self.send_response(206 if start > 0 else 200)
        if start > 0:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        if hub.args.endless:
            self.send_header("Connection", "close")
            self.end_headers()
            return self.run_on(data[start:]) if body else None
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        if not body:
            return
        if hub.drips("body"):
            return self.trickle(data[start:])
        drop = hub.args.drop_after is not None and etag not in hub.dropped
        if drop:
            hub.dropped.add(etag)
            self.wfile.write(data[start:start + hub.args.drop_after])
            self.wfile.flush()
            self.close_connection = True
            return
        chunk = 1024 if hub.args.slow else 1 << 20
        for offset in range(start, len(data), chunk):
            self.wfile.write(data[offset:offset + chunk])
            if hub.args.slow:
                self.wfile.flush()
                time.sleep(0.05)


    def run_on(self, data):
        """`data`, then zeros up to 8 MB in all, with no length announced: a body that does not stop."""
        self.close_connection = True
        try:
            self.wfile.write(data)
            for _ in range(max(0, (8 << 20) - len(data)) >> 16):
                self.wfile.write(bytes(1 << 16))
        except OSError:
            pass


def serve(args):
    Handler.hub = Hub(args)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["serve", "write-cache"])
    parser.add_argument("--repo", action="append", default=[], help="ID=FOLDER")
    parser.add_argument("--cache")
    parser.add_argument("--stats")
    parser.add_argument("--gated", action="append", default=[])
    parser.add_argument("--token", default="")
    parser.add_argument("--rename", action="append", default=[], help="OLD=NEW")
    parser.add_argument("--tag", action="append", default=[])
    parser.add_argument("--drop-after", type=int)
    parser.add_argument("--corrupt", action="store_true")
    parser.add_argument("--slow", action="store_true")
    parser.add_argument("--huge", action="store_true")
    parser.add_argument("--hostile-name", action="store_true")
    parser.add_argument("--drip", choices=["listing", "head", "body"])
    parser.add_argument("--endless", action="store_true")
    parser.add_argument("--nested-answer", type=int)
    parser.add_argument("--padded-answer", type=int)
    parser.add_argument("--any-revision", action="store_true")
    parser.add_argument("--junk-shards", type=int, default=0)
    args = parser.parse_args()
    if args.mode == "write-cache":
        write_cache(args)
    else:
        serve(args)


if __name__ == "__main__":
    sys.exit(main())
