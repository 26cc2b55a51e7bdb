#!/usr/bin/env python3
"""Run a pre-commit hook from a manifest the way pre-commit would, for
machines without the pre-commit tool.

Usage: run_hook_manifest.py MANIFEST HOOK-ID FILE... [-- EXTRA-ARGS...]
       run_hook_manifest.py MANIFEST HOOK-ID --staged [-- EXTRA-ARGS...]

Prints the files the hook selects ("selected: F"), then runs
`entry args... EXTRA-ARGS... selected-files` (all at once, as
require_serial asks) and exits with its status. File selection follows
pre-commit: `files` (a regex searched in the path) and `exclude`, then
`types`/`types_or` by extension for the types this project uses.
--staged takes the files of the commit being made, as `git commit` runs
pre-commit: the staged files of the repository in the working directory,
deletions left out. An entry not on the PATH fails as in pre-commit:
"Executable `X` not found", status 1.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

import yaml

# What identify (pre-commit's file classifier) says about these extensions.
TYPES = {
    ".cu": {"text", "cuda"}, ".cuh": {"text", "cuda"},
    ".cpp": {"text", "c++"}, ".cc": {"text", "c++"}, ".hpp": {"text", "c++"},
    ".h": {"text", "header", "c", "c++"}, ".c": {"text", "c"},
    ".md": {"text", "markdown"}, ".py": {"text", "python"},
}


def tags(path):
    return TYPES.get(os.path.splitext(path)[1], {"text"})


def main(argv):
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    else:
        extra = []
    manifest, hook_id, files = argv[1], argv[2], argv[3:]
    if files == ["--staged"]:
        # pre-commit's git.get_staged_files: everything staged except deletions.
        out = subprocess.check_output(
            ["git", "diff", "--staged", "--name-only", "--no-ext-diff", "-z",
             "--diff-filter=ACMRTUXB"], universal_newlines=True)
        files = [f for f in out.split("\0") if f]
    with open(manifest, encoding="utf-8") as f:
        hooks = yaml.safe_load(f)
    hook = next(h for h in hooks if h["id"] == hook_id)
    for key in ("name", "entry", "language"):
        if key not in hook:
            sys.exit("hook %s has no %s" % (hook_id, key))
    include = re.compile(hook.get("files", ""))
    exclude = re.compile(hook.get("exclude", "^$"))
    types = set(hook.get("types", ["file"])) - {"file"}
    types_or = set(hook.get("types_or", []))
    selected = []
    for path in files:
        t = tags(path)
        if not include.search(path) or exclude.search(path):
            continue
        if types and not types <= t:
            continue
        if types_or and not types_or & t:
            continue
        selected.append(path)
    for path in selected:
        print("selected: %s" % path)
    sys.stdout.flush()
    if not selected and not hook.get("always_run", False):
        return 0
    cmd = shlex.split(hook["entry"]) + hook.get("args", []) + extra + selected
    # language: system runs the entry from the PATH; pre-commit reports a
    # missing one as a failed hook with this line (parse_shebang.normexe).
    if hook["language"] == "system" and shutil.which(cmd[0]) is None:
        print("Executable `%s` not found" % cmd[0])
        return 1
    # language: script runs the entry from the hook repository's checkout.
    if hook["language"] == "script":
        cmd[0] = os.path.join(os.path.dirname(os.path.abspath(manifest)),
                              cmd[0])
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
