"""Drives `shmem-lint lsp` through a whole session on one document, the way
an editor does, and prints what the server answered for FileCheck."""

import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from lspclient import Client, show, uri  # noqa: E402

server, source, work = sys.argv[1], sys.argv[2], sys.argv[3]
path = os.path.join(work, "transpose.cu")
shutil.copy(source, path)
doc = uri(path)
td = {"uri": doc}

log = os.path.join(work, "server.log")
c = Client([server, "lsp", "--cuda-path=none", "--debounce=1500",
            "--log=" + log])
# Before initialize, a request is refused.
print("before:", c.request("hover", {})["error"]["code"])
caps = c.initialize(work)["result"]
print("capabilities:", json.dumps(caps["capabilities"], sort_keys=True))
print("server:", caps["serverInfo"]["name"])

c.open(path)
diags = c.diagnostics(doc)
print("version:", diags["version"])
show(diags)
conflict = diags["diagnostics"][0]

# The quick fix for the finding under the cursor, and none elsewhere.
actions = c.request("textDocument/codeAction", {
    "textDocument": td, "range": conflict["range"],
    "context": {"diagnostics": [conflict]}})["result"]
for a in actions:
    print("action:", a["title"], a["kind"], a["isPreferred"])
    for u, edits in a["edit"]["changes"].items():
        for e in edits:
            print("  edit %s %d:%d-%d:%d %r" % (
                os.path.basename(u), e["range"]["start"]["line"],
                e["range"]["start"]["character"], e["range"]["end"]["line"],
                e["range"]["end"]["character"], e["newText"]))
none = c.request("textDocument/codeAction", {
    "textDocument": td,
    "range": {"start": {"line": 0, "character": 0},
              "end": {"line": 0, "character": 1}},
    "context": {"diagnostics": []}})["result"]
print("actions on line 0:", none)

hover = c.request("textDocument/hover", {
    "textDocument": td, "position": conflict["range"]["start"]})["result"]
print(hover["contents"]["kind"])
print(hover["contents"]["value"])
print("hover on line 0:",
      c.request("textDocument/hover", {
          "textDocument": td,
          "position": {"line": 0, "character": 0}})["result"])

# Apply the edit as the editor does, and the finding goes away.
text = open(path).read()
lines = text.split("\n")
e = actions[0]["edit"]["changes"][doc][0]
ln = lines[e["range"]["start"]["line"]]
lines[e["range"]["start"]["line"]] = (
    ln[:e["range"]["start"]["character"]] + e["newText"] +
    ln[e["range"]["end"]["character"]:])
c.change(path, "\n".join(lines), 2)
fixed = c.diagnostics(doc, 2)
print("after the fix, version", fixed["version"], ":", fixed["diagnostics"])

# Until the analysis of a newer text is in (after the 1.5 s pause), the
# old findings' actions and hovers are not offered: their places moved.
c.change(path, "// a new first line\n" + text, 3)
print("stale actions:", c.request("textDocument/codeAction", {
    "textDocument": td, "range": conflict["range"],
    "context": {"diagnostics": []}})["result"])
print("stale hover:", c.request("textDocument/hover", {
    "textDocument": td, "position": conflict["range"]["start"]})["result"])
moved = c.diagnostics(doc, 3)
print("moved, version", moved["version"], ":")
show(moved)
# Back to a text analysed before: answered from the cache, at once.
c.change(path, text, 4)
again = c.diagnostics(doc, 4)
print("undone, version", again["version"], ":", len(again["diagnostics"]),
      "diagnostic;",
      [line.split(": ", 1)[1].strip() for line in open(log)
       if "version 4:" in line])

# A save analyses again; a close clears the document's diagnostics.
c.notify("textDocument/didSave", {"textDocument": td})
print("saved:", len(c.diagnostics(doc)["diagnostics"]), "diagnostic")
c.notify("textDocument/didClose", {"textDocument": td})
print("closed:", c.diagnostics(doc)["diagnostics"])
print("hover after close:", c.request("textDocument/hover", {
    "textDocument": td, "position": conflict["range"]["start"]})["result"])

print("unknown method:", c.request("textDocument/definition", {
    "textDocument": td, "position": {"line": 0, "character": 0}})
      ["error"]["code"])
result, status = c.shutdown()
print("shutdown:", result["result"], "exit:", status)

# Without shutdown, `exit` is an error exit (1), as the protocol says.
c2 = Client([server, "lsp", "--cuda-path=none"])
c2.initialize(work)
c2.notify("exit", None)
print("exit without shutdown:", c2.proc.wait(30))
