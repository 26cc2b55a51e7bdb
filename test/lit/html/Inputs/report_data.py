#!/usr/bin/env python3
"""Read the data an HTML report embeds and say what it holds.

    report_data.py REPORT.html [--json FINDINGS.json] [--max-bytes N]

prints the page's size, the number of findings, of distinct layouts and
pictures, kernels and arrays, and the findings per check; with --json (the
same run's --format=json), checks that the page holds exactly the same
findings (check, file, line, column, message, notes, in order) and prints
"same findings as --format=json"; with --max-bytes, fails when the page is
larger.
"""

import argparse
import collections
import json
import os
import re
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("page")
    p.add_argument("--json")
    p.add_argument("--max-bytes", type=int)
    a = p.parse_args()
    size = os.path.getsize(a.page)
    with open(a.page, encoding="utf-8") as f:
        html = f.read()
    m = re.search(r'<script type="application/json" id="shmem-data">(.*?)</script>',
                  html, re.S)
    if not m:
        sys.exit("no data in the page")
    d = json.loads(m.group(1))
    fs = d["findings"]
    print("bytes", size, "(%.1f MB)" % (size / 1e6))
    print("findings", len(fs))
    print("layouts", len(d["layouts"]), "pictures", len(d["pictures"]))
    print("kernels", len(d["kernels"]), "arrays", len(d["arrays"]))
    per = collections.Counter(d["checks"][f[0]] for f in fs)
    for check in sorted(per):
        print("check", check, per[check])
    if a.json:
        with open(a.json, encoding="utf-8") as f:
            ref = [x for x in json.load(f) if x.get("kind", "finding") == "finding"]

        def mine(f):
            notes = [(d["files"][n[0]] if n[0] >= 0 else "", n[1], n[2],
                      d["strings"][n[3]]) for n in f[10]]
            return (d["checks"][f[0]], d["files"][f[1]] if f[1] >= 0 else "",
                    f[2], f[3], f[4], notes)

        def theirs(x):
            notes = [(n["path"], n["line"], n["column"], n["message"])
                     for n in x["notes"]]
            return (x["check"], x["path"], x["line"], x["column"], x["message"],
                    notes)

        a_ = [mine(f) for f in fs]
        b_ = [theirs(x) for x in ref]
        if a_ != b_:
            for i, (x, y) in enumerate(zip(a_, b_)):
                if x != y:
                    sys.exit("finding %d differs:\n  html %r\n  json %r" % (i, x, y))
            sys.exit("%d findings in the page, %d in the JSON" % (len(a_), len(b_)))
        print("same findings as --format=json")
    if a.max_bytes is not None and size > a.max_bytes:
        sys.exit("the page is %d bytes, more than %d" % (size, a.max_bytes))


if __name__ == "__main__":
    main()
