#!/usr/bin/env python3
"""Checks editors/helix/languages.toml and plays Helix's part against the
server it names (test/lit/lsp/editor-helix.test). Helix itself is not run
(it is not packaged for Debian 12): this reads the file with tomllib as Helix
reads it, starts [language-server.shmem-lint] as Helix would (command, args,
`config` as initializationOptions, languageId "cpp" for .cu files), and sends
what Helix sends on opening a file, on space-a (code actions, with the
diagnostics under the cursor) and on an edit (full-text didChange).

usage: check.py LANGUAGES.TOML FILE.cu [--arg=ARG ...] [--fix]
  --arg=ARG  append ARG to the server's args (e.g. --cuda-path=none)
  --fix      apply the first code action, send the edit, report again
"""
import json
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import threading
import tomllib


def main():
    toml_path, file_path = sys.argv[1], sys.argv[2]
    extra = [a[len("--arg="):] for a in sys.argv[3:] if a.startswith("--arg=")]
    fix = "--fix" in sys.argv[3:]

    with open(toml_path, "rb") as f:
        cfg = tomllib.load(f)
    server = cfg["language-server"]["shmem-lint"]
    print("command:", server["command"], *server.get("args", []))
    cpp = [l for l in cfg["language"] if l["name"] == "cpp"]
    print("cpp languages:", len(cpp))
    servers = cpp[0]["language-servers"]
    for s in servers:
        if isinstance(s, str):
            print("server:", s, "all features")
        else:
            print("server:", s["name"], "only", ",".join(s.get("only-features", [])))
    # Helix's own languages.toml gives cpp the .cu and .cuh file types.

    exe = shutil.which(server["command"])
    print("found on PATH:", bool(exe))
    proc = subprocess.Popen([exe] + server.get("args", []) + extra,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    inbox = queue.Queue()

    def reader():
        while True:
            length = None
            while True:
                line = proc.stdout.readline()
                if not line:
                    inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode().partition(":")
                if key.lower() == "content-length":
                    length = int(value)
            inbox.put(json.loads(proc.stdout.read(length)))

    threading.Thread(target=reader, daemon=True).start()
    next_id = [0]

    def send(msg):
        body = json.dumps(msg).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        proc.stdin.flush()

    def notify(method, params):
        send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(pred, what):
        while True:
            try:
                msg = inbox.get(timeout=60)
            except queue.Empty:
                msg = None
            if msg is None:
                print("timeout or server gone:", what)
                sys.exit(1)
            if pred(msg):
                return msg

    def request(method, params):
        next_id[0] += 1
        rid = next_id[0]
        send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        msg = wait(lambda m: m.get("id") == rid and "method" not in m, method)
        if "error" in msg:
            print(method, "error:", msg["error"])
            sys.exit(1)
        return msg.get("result")

    path = pathlib.Path(file_path).resolve()
    uri = path.as_uri()
    root = pathlib.Path.cwd().resolve()
    init = {
        "processId": os.getpid(),
        "clientInfo": {"name": "helix", "version": "test"},
        "rootPath": str(root),
        "rootUri": root.as_uri(),
        "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        "capabilities": {
            "textDocument": {
                "publishDiagnostics": {"versionSupport": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["", "quickfix"]}}},
                "hover": {"contentFormat": ["markdown"]},
            },
            "general": {"positionEncodings": ["utf-8", "utf-32", "utf-16"]},
        },
    }
    if "config" in server:
        init["initializationOptions"] = server["config"]
    result = request("initialize", init)
    caps = result["capabilities"]
    print("server:", result.get("serverInfo", {}).get("name"))
    print("position encoding:", caps.get("positionEncoding", "utf-16 (default)"))
    print("code actions:", bool(caps.get("codeActionProvider")))
    notify("initialized", {})

    text = path.read_text()
    version = 0
    notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cpp", "version": version, "text": text}})

    def diagnostics(version):
        msg = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and m["params"]["uri"] == uri
                   and m["params"].get("version", version) == version,
                   "diagnostics of version %d" % version)
        diags = msg["params"]["diagnostics"]
        print("diagnostics:", len(diags))
        for d in diags:
            s = d["range"]["start"]
            print("  %d:%d %s [%s] %s" % (s["line"] + 1, s["character"] + 1,
                                          {1: "error", 2: "warning", 3: "info", 4: "hint"}[d["severity"]],
                                          d.get("code"), d["message"].split(";")[0]))
        return diags

    diags = diagnostics(version)
    if fix and diags:
        d = diags[0]
        actions = request("textDocument/codeAction", {
            "textDocument": {"uri": uri},
            "range": {"start": d["range"]["start"], "end": d["range"]["start"]},
            "context": {"diagnostics": [d], "triggerKind": 1},
        }) or []
        for a in actions:
            print("action:", a["title"], a.get("kind"))
        edits = actions[0]["edit"]["changes"][uri]
        lines = text.split("\n")
        for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                              e["range"]["start"]["character"]), reverse=True):
            s, t = e["range"]["start"], e["range"]["end"]
            assert s["line"] == t["line"]
            line = lines[s["line"]]
            lines[s["line"]] = line[:s["character"]] + e["newText"] + line[t["character"]:]
        text = "\n".join(lines)
        print("line 14:", lines[13])
        version += 1
        notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]})
        diagnostics(version)

    request("shutdown", None)
    notify("exit", None)
    print("exit:", proc.wait(timeout=30))


if __name__ == "__main__":
    main()
