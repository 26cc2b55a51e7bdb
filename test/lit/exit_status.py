#!/usr/bin/env python3
"""Run a command, pass its output through, then print 'exit=N' and exit 0,
so a lit test can check a non-zero exit status together with the output."""
import subprocess
import sys

p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT, universal_newlines=True)
sys.stdout.write(p.stdout)
print("exit=%d" % p.returncode)
