"""A small LSP client for the server's tests: starts `shmem-lint lsp`,
speaks JSON-RPC over its stdio, and waits for notifications."""

import json
import os
import queue
import subprocess
import threading
import time


def uri(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


class Client:
    def __init__(self, command, log=None):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=log or subprocess.DEVNULL)
        self.next_id = 1
        self.messages = queue.Queue()
        self.responses = {}
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = json.loads(out.read(length))
            if "id" in body and "method" not in body:
                with self.lock:
                    self.responses[body["id"]] = body
                    self.lock.notify_all()
            else:
                self.messages.put(body)

    def send(self, message):
        data = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=60):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method,
                   "params": params})
        return self.response(rid, timeout)

    def response(self, rid, timeout=60):
        deadline = time.time() + timeout
        with self.lock:
            while rid not in self.responses:
                left = deadline - time.time()
                if left <= 0:
                    raise TimeoutError("no response to request %s" % rid)
                self.lock.wait(left)
            return self.responses.pop(rid)

    def initialize(self, root, options=None):
        r = self.request("initialize", {
            "processId": os.getpid(), "rootUri": uri(root),
            "capabilities": {}, "initializationOptions": options or {}})
        self.notify("initialized", {})
        return r

    def wait_notification(self, method, predicate=lambda p: True,
                          timeout=120):
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no %s notification" % method)
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                raise TimeoutError("no %s notification" % method)
            if m is None:
                raise EOFError("the server closed its output")
            if m.get("method") == method and predicate(m["params"]):
                return m["params"]

    def diagnostics(self, doc_uri, version=None, timeout=120):
        return self.wait_notification(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == doc_uri and
            (version is None or p.get("version") == version), timeout)

    def open(self, path, text=None, version=1, language="cuda-cpp"):
        if text is None:
            with open(path) as f:
                text = f.read()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": language, "version": version,
            "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": text}]})

    def shutdown(self, timeout=30):
        r = self.request("shutdown", None)
        self.notify("exit", None)
        return r, self.proc.wait(timeout)


def show(diags):
    """One line per diagnostic, for FileCheck."""
    for d in diags["diagnostics"]:
        s = d["range"]["start"]
        e = d["range"]["end"]
        print("diag %d:%d-%d:%d severity=%d code=%s fixes=%s: %s" % (
            s["line"], s["character"], e["line"], e["character"],
            d["severity"], d.get("code"), d.get("data", {}).get("fixes"),
            d["message"]))
        for r in d.get("relatedInformation", []):
            loc = r["location"]
            print("  related %s:%d:%d: %s" % (
                os.path.basename(loc["uri"]), loc["range"]["start"]["line"],
                loc["range"]["start"]["character"], r["message"]))
