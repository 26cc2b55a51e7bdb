"""The language server under what editors and half-typed code do to it:
files that do not parse, messages that are not JSON, changes faster than
analyses, documents that are not files, a compile database found or
vanished, an analysis that runs too long. Prints what came back."""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from lspclient import Client, show, uri  # noqa: E402

server, inputs, work = sys.argv[1], sys.argv[2], sys.argv[3]
project = os.path.join(work, "project")
shutil.copytree(os.path.join(inputs, "project"), project)
db = os.path.join(project, "build", "compile_commands.json")
with open(db + ".in") as f:
    text = f.read().replace("@DIR@", project)
with open(db, "w") as f:
    f.write(text)
main = os.path.join(project, "src", "main.cu")
log = os.path.join(work, "server.log")

c = Client([server, "lsp", "--cuda-path=none", "--debounce=300",
            "--log=" + log])
c.initialize(project)

print("== the compile database under build/, found from the file")
c.open(main)
show(c.diagnostics(uri(main)))

print("== a message that is not JSON, then one without a length")
c.send_raw(b"Content-Length: 9\r\n\r\n{not json")
c.send_raw(b"Content-Type: x\r\n\r\n")
print("hover still answered:", "result" in c.request("textDocument/hover", {
    "textDocument": {"uri": uri(main)},
    "position": {"line": 0, "character": 0}}))

print("== half-typed code: the first error, where it is")
broken = open(main).read().replace("t[threadIdx.x][0] = 1.0f;",
                                   "t[threadIdx.x][0] = ;")
c.change(main, broken, 2)
show(c.diagnostics(uri(main), 2))

print("== fifty changes faster than analyses: only the last is shown")
good = open(main).read()
for v in range(3, 53):
    c.change(main, good.replace("1.0f", "%d.0f" % v), v)
last = c.diagnostics(uri(main), 52)
print("version", last["version"], "with", len(last["diagnostics"]),
      "diagnostics")
c.request("textDocument/hover", {"textDocument": {"uri": uri(main)},
                                  "position": {"line": 0, "character": 0}})
# Each change restarts the 300 ms pause: the stale texts are not analysed
# to the end (a few may start on a slow machine, and are cancelled).
finished = [l for l in open(log) if "diagnostics in" in l and
            any(" version %d:" % v in l for v in range(3, 52))]
print("stale versions analysed to the end:", len(finished))

print("== a document that is not a file gets nothing, and breaks nothing")
c.notify("textDocument/didOpen", {"textDocument": {
    "uri": "untitled:Untitled-1", "languageId": "cuda-cpp", "version": 1,
    "text": "__global__ void k() {}"}})

print("== the compile database vanishes: the file is analysed without it")
os.remove(db)
c.notify("textDocument/didSave", {"textDocument": {"uri": uri(main)}})
show(c.diagnostics(uri(main)))
print(c.shutdown())

print("== a compile database that is not there, named by the client")
c = Client([server, "lsp", "--cuda-path=none"])
c.initialize(project, {"compilationDatabasePath": "nowhere"})
c.open(main)
show(c.diagnostics(uri(main)))
print(c.shutdown())

print("== an analysis over its time is stopped")
heavy = os.path.join(work, "heavy.cu")
subprocess.run([sys.executable, os.path.join(inputs, "..", "..", "..", "..",
                "bench", "perf", "gen.py"), "--kernels", "3000", heavy],
               check=True)
c = Client([server, "lsp", "--cuda-path=none", "--timeout=1"])
c.initialize(work)
start = time.time()
c.open(heavy)
show(c.diagnostics(uri(heavy)))
print("stopped within 20 s:", time.time() - start < 20)
print(c.shutdown())
