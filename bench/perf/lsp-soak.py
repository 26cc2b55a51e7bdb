#!/usr/bin/env python3
"""Soak test of `shmem-lint lsp`: saves documents again and again, each
save a real analysis (a save never answers from the cache), and measures
the server's resident memory after a warm-up and at the end.

  lsp-soak.py SHMEM-LINT [--saves 1000] [--max-growth-kib 1024] [FILE...]

Prints the figures; exits 1 when the memory grew more than the limit, or a
save went unanswered. Without FILEs, the repository's examples."""

import argparse
import os
import shutil
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "test", "lit", "lsp",
                                "Inputs"))
from lspclient import Client, uri  # noqa: E402


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shmem_lint")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--saves", type=int, default=1000)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--max-growth-kib", type=int, default=1024)
    a = ap.parse_args()
    files = a.files or [os.path.join(here, "..", "..", "examples", f)
                        for f in ("transpose.cu", "reduction.cu",
                                  "matmul.cu")]
    work = tempfile.mkdtemp(prefix="lsp-soak-")
    docs = []
    for f in files:
        p = os.path.join(work, os.path.basename(f))
        shutil.copy(f, p)
        docs.append(p)
    c = Client([a.shmem_lint, "lsp", "--cuda-path=none"])
    c.initialize(work)
    for p in docs:
        c.open(p)
        c.diagnostics(uri(p))
    start = time.time()
    counts = set()
    warm = mid = None
    for i in range(a.saves):
        if i == a.warmup:
            warm = rss_kib(c.proc.pid)
        if i == (a.warmup + a.saves) // 2:
            mid = rss_kib(c.proc.pid)
        p = docs[i % len(docs)]
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri(p)}})
        d = c.diagnostics(uri(p))
        counts.add((os.path.basename(p), len(d["diagnostics"])))
    took = time.time() - start
    end = rss_kib(c.proc.pid)
    _, status = c.shutdown()
    shutil.rmtree(work)
    growth = end - warm
    print("saves: %d over %d documents in %.1f s (%.1f ms each)" %
          (a.saves, len(docs), took, 1000 * took / a.saves))
    print("diagnostics per document: %s" %
          ", ".join("%s %d" % x for x in sorted(counts)))
    print("server RSS: %d KiB after %d saves, %d KiB after %d, %d KiB "
          "after %d: %+d KiB" % (warm, a.warmup, mid,
                                 (a.warmup + a.saves) // 2, end, a.saves,
                                 growth))
    print("exit status after shutdown: %d" % status)
    if len(counts) != len(docs):
        print("FAIL: a document's diagnostics changed between saves")
        return 1
    if growth > a.max_growth_kib:
        print("FAIL: memory grew by more than %d KiB" % a.max_growth_kib)
        return 1
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
