#!/usr/bin/env python3
"""Serves DIR over HTTP on a free loopback port and runs CMD with
SHMEM_LINT_RELEASES set to its address (a stand-in for GitHub's release
downloads); prints CMD's output and `exit=N`.

Usage: serve_release.py DIR CMD...
"""
import functools
import http.server
import os
import subprocess
import sys
import threading


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    root, cmd = sys.argv[1], sys.argv[2:]
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ,
               SHMEM_LINT_RELEASES="http://127.0.0.1:%d" % server.server_port)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(p.stdout.replace(env["SHMEM_LINT_RELEASES"], "URL"))
    print("exit=%d" % p.returncode)
    server.shutdown()


if __name__ == "__main__":
    main()
