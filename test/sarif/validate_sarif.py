#!/usr/bin/env python3
"""Validate SARIF logs against the SARIF 2.1.0 JSON schema.

Usage: validate_sarif.py [--github] SCHEMA SARIF [SARIF...]

SCHEMA is test/sarif/sarif-schema-2.1.0.json (see README.md there). Every
SARIF file must validate against it. Two constraints that the OASIS errata 01
schema adds to the one shipped here are checked as well:
  * a region names where it starts: startLine, charOffset or byteOffset;
  * runs is an array.
With --github, also what GitHub code scanning needs to show a result: a
ruleId, message.text, a physicalLocation with a relative artifactLocation.uri
and a region with startLine, and partialFingerprints; every rule with an id
and a shortDescription.

Exit status: 0 valid, 1 invalid, 2 usage or unreadable input, 77 the Python
module jsonschema is missing (Debian: apt-get install python3-jsonschema).
"""

import json
import re
import sys

SKIP = 77


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot read JSON: {e}", file=sys.stderr)
        sys.exit(2)


def where(path):
    return "/" + "/".join(str(p) for p in path)


def errata_errors(log):
    """Constraints of the errata 01 schema beyond the one shipped here."""
    errors = []
    if not isinstance(log.get("runs"), list):
        errors.append(("/runs", "runs must be an array"))

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("region", "contextRegion", "deletedRegion") and isinstance(value, dict):
                    if not any(k in value for k in ("startLine", "charOffset", "byteOffset")):
                        errors.append((where(path + [key]),
                                       "a region needs startLine, charOffset or byteOffset"))
                walk(value, path + [key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + [i])

    walk(log, [])
    return errors


def github_errors(log):
    """What GitHub code scanning needs from each rule and result."""
    errors = []
    for r, run in enumerate(log.get("runs") or []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for i, rule in enumerate(rules):
            p = f"/runs/{r}/tool/driver/rules/{i}"
            if not rule.get("id"):
                errors.append((p, "rule without id"))
            if not rule.get("shortDescription", {}).get("text"):
                errors.append((p, "rule without shortDescription.text"))
        for i, res in enumerate(run.get("results") or []):
            p = f"/runs/{r}/results/{i}"
            if not res.get("ruleId"):
                errors.append((p, "result without ruleId"))
            if not res.get("message", {}).get("text"):
                errors.append((p, "result without message.text"))
            if not res.get("partialFingerprints"):
                errors.append((p, "result without partialFingerprints"))
            locs = res.get("locations") or []
            if not locs:
                errors.append((p, "result without locations"))
            for j, loc in enumerate(locs):
                pl = loc.get("physicalLocation", {})
                lp = f"{p}/locations/{j}/physicalLocation"
                uri = pl.get("artifactLocation", {}).get("uri", "")
                if not uri:
                    errors.append((lp, "no artifactLocation.uri"))
                elif re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", uri) or uri.startswith("/") or "\\" in uri:
                    errors.append((lp, f"uri '{uri}' is not relative to the repository "
                                       "(GitHub cannot place the result)"))
                if not isinstance(pl.get("region", {}).get("startLine"), int):
                    errors.append((lp, "no region.startLine"))
    return errors


def main(argv):
    args = argv[1:]
    github = "--github" in args
    args = [a for a in args if a != "--github"]
    if len(args) < 2 or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("validate_sarif.py: the Python module jsonschema is missing "
              "(Debian: apt-get install python3-jsonschema)", file=sys.stderr)
        return SKIP

    schema = load(args[0])
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=jsonschema.FormatChecker())

    failed = False
    for path in args[1:]:
        log = load(path)
        errors = [(where(e.absolute_path), e.message)
                  for e in sorted(validator.iter_errors(log), key=lambda e: list(map(str, e.absolute_path)))]
        errors += errata_errors(log)
        if github:
            errors += github_errors(log)
        for loc, msg in errors:
            print(f"{path}: {loc}: {msg}", file=sys.stderr)
        if errors:
            failed = True
        else:
            n = sum(len(run.get("results") or []) for run in log.get("runs") or [])
            print(f"{path}: valid SARIF 2.1.0 ({n} results)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
