#!/usr/bin/env python3
"""Run one step of a GitHub Actions workflow locally, to test the commands
an example workflow gives.

Usage: run_workflow_step.py WORKFLOW JOB STEP-NAME [EXPR=VALUE...]

Prints the step's `run:` script with each ${{ EXPR }} replaced by its VALUE
(an expression without a VALUE is an error), then runs it with bash in the
working directory and exits with its status. The workflow's `env:` is not
applied: the test sets up what the commands need.
"""
import re
import subprocess
import sys

import yaml


def main(argv):
    path, job, step_name = argv[1:4]
    values = dict(a.split("=", 1) for a in argv[4:])
    with open(path, encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    steps = workflow["jobs"][job]["steps"]
    step = next(s for s in steps if s.get("name") == step_name)
    script = step["run"]

    def expand(m):
        expr = m.group(1).strip()
        if expr not in values:
            sys.exit("no value for ${{ %s }}" % expr)
        return values[expr]

    script = re.sub(r"\$\{\{(.*?)\}\}", expand, script)
    print("run: %s" % script.strip())
    sys.stdout.flush()
    return subprocess.call(["bash", "-e", "-c", script])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
