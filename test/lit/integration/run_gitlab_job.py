#!/usr/bin/env python3
"""Run a GitLab CI job template's script locally, to test it: the job's
`variables` as defaults, overridden by the environment, then each `script`
entry with bash in the working directory; exits with the first failing
entry's status.

Usage: run_gitlab_job.py TEMPLATE JOB
"""
import os
import subprocess
import sys

import yaml


def main(path, job):
    with open(path, encoding="utf-8") as f:
        template = yaml.safe_load(f)
    spec = template[job]
    env = {k: str(v) for k, v in spec.get("variables", {}).items()}
    env.update(os.environ)
    for entry in spec["script"]:
        rc = subprocess.run(["bash", "-c", entry], env=env).returncode
        if rc:
            print("job failed: exit %d" % rc)
            return rc
    print("job passed; artifacts:", spec["artifacts"]["reports"]["codequality"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
