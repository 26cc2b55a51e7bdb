#!/usr/bin/env python3
"""Write shmem-lint(1) from the command's own --help, so that the manual
page lists exactly the options the installed command takes.

Usage: make-manpage.py SHMEM_LINT OUT.1 VERSION
"""
import re
import subprocess
import sys


def roff(text):
    """Escape text for a roff line: backslashes, and leading dots/quotes."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def main(lint, out, version):
    help_text = subprocess.run([lint, "--help"], check=True,
                               capture_output=True, text=True).stdout
    lines = help_text.splitlines()
    usage = []
    i = 0
    while i < len(lines) and lines[i].strip():
        usage.append(re.sub(r"^(USAGE:)?\s*", "", lines[i]))
        i += 1
    rest = lines[i:]
    page = [
        '.TH SHMEM\\-LINT 1 "" "shmem-lint %s" "User Commands"' % version,
        ".SH NAME",
        "shmem\\-lint \\- static analyser for CUDA shared memory",
        ".SH SYNOPSIS",
    ]
    for u in usage:
        page += [".br", roff(u)]
    # Paragraphs until the first section heading ("WHAT TO ANALYSE:").
    page.append(".SH DESCRIPTION")
    j = 0
    while j < len(rest) and not re.match(r"^[A-Z][A-Z ,'()]*[A-Z)]:", rest[j]):
        if rest[j].strip():
            page.append(roff(rest[j].strip()))
        else:
            page.append(".PP")
        j += 1
    page.append(".SH OPTIONS")
    entry = None
    tail = []
    for line in rest[j:]:
        if re.match(r"^[A-Z][A-Z ,']*[A-Z]( \(.*\))?:$", line):
            page += [".SS", roff(line.rstrip(":"))]
            entry = None
        elif re.match(r"^  \S", line):
            col = line[2:]
            opt, _, desc = col.partition("  ")
            page += [".TP", "\\fB%s\\fR" % roff(opt.strip())]
            if desc.strip():
                page.append(roff(desc.strip()))
            entry = True
        elif line.startswith("   ") and entry:
            page.append(roff(line.strip()))
        elif line.strip():
            tail.append(line.strip())
            entry = None
        else:
            if tail:
                tail.append("")
            entry = None
    # The closing paragraphs: compile commands and the exit status.
    page.append(".SH NOTES")
    for t in tail:
        page.append(roff(t) if t else ".PP")
    page += [
        ".SH SEE ALSO",
        "clang\\-tidy(1), clang(1); the documentation of each check and of the",
        "integrations (clang\\-tidy module, clang plugin, CI, editors) in",
        "/usr/share/doc/shmem\\-lint or https://github.com/shmem\\-lint/shmem\\-lint.",
    ]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
