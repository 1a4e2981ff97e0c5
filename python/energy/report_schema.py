"""Check energy.so reports against their schema (docs/report-schema.json).

    python3 -m energy.report_schema REPORT.json [REPORT.json ...]

Prints one `error:` line per violation (file, the field's JSON path, what is wrong) and
exits 1 if any; 0 when every report conforms. Needs Debian's python3-jsonschema.
"""

import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "report-schema.json")


def load_schema(path=SCHEMA):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def violations(report, schema):
    """(path, message) for each place report breaks schema, in document order."""
    import jsonschema  # Debian's python3-jsonschema; imported where it is needed

    validator = jsonschema.Draft202012Validator(schema)
    found = []
    for error in validator.iter_errors(report):
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        found.append(("$" + path, error.message))
    return sorted(found)


def main(argv=None):
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python3 -m energy.report_schema REPORT.json [...]", file=sys.stderr)
        return 2
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        print("error: python3-jsonschema is not installed (apt-get install python3-jsonschema)",
              file=sys.stderr)
        return 2
    schema = load_schema()
    bad = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            bad += 1
            continue
        for where, message in violations(report, schema):
            print(f"error: {path}: {where}: {message}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
