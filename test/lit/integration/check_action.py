#!/usr/bin/env python3
"""Print what a test asserts about action.yml: that it is composite, that
the inputs its steps read are exactly those it declares, the environment
its run step passes, and how the upload and fail steps are guarded.

Usage: check_action.py ACTION_YML
"""
import re
import sys

import yaml


def main(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    action = yaml.safe_load(text)
    runs = action["runs"]
    print("using:", runs["using"])
    declared = set(action["inputs"])
    read = set(re.findall(r"inputs\.([a-z-]+)", text))
    if declared != read:
        print("declared but not read:", sorted(declared - read))
        print("read but not declared:", sorted(read - declared))
        return 1
    print("inputs read and declared:", " ".join(sorted(read)))
    steps = {s["name"]: s for s in runs["steps"]}
    env = steps["Run shmem-lint"]["env"]
    for k, v in env.items():
        want = "${{ inputs.%s }}" % k[len("INPUT_"):].lower().replace("_", "-")
        if v != want:
            print("run step env %s is %r, not %r" % (k, v, want))
            return 1
    print("run step env:", " ".join(sorted(env)))
    up = steps["Upload to code scanning"]
    cond = up["if"].strip()
    cond = cond[3:-2].strip() if cond.startswith("${{") else cond
    print("upload:", up["uses"], "if", cond)
    fail = steps["Fail on findings"]["if"]
    ok = ("steps.run.outputs.status == '2'" in fail and
          "steps.run.outputs.status == '1' && inputs.fail-on-findings == 'true'"
          in fail)
    print("fail:" if ok else "fail: unexpected condition",
          "status == '2' always; status == '1' when fail-on-findings")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
