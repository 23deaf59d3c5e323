#!/usr/bin/env python3
"""Validates mishbench JSON reports against the published JSON Schema (docs/report-schema.json).

Usage: validate_report.py [--schema SCHEMA] REPORT [REPORT ...]
Prints each error with the JSON path of the value it is about, e.g.
  report.json: $.results[0].status: 'fine' is not one of ['ok', 'mismatch', 'skipped', 'error']
Exit codes: 0 every report is valid, 1 one is not (a file that is not JSON counts as invalid),
            2 bad usage or an unreadable file, 77 the jsonschema module is missing (a test that
            runs this script counts as skipped).
"""
import argparse
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate_report.py: the Python module jsonschema is missing "
          "(Debian: python3-jsonschema)", file=sys.stderr)
    sys.exit(77)

DEFAULT_SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "docs", "report-schema.json")


def json_path(error):
    """The path of the value an error is about, as $.results[0].timing (error.json_path is only
    in jsonschema 4.0 and later)."""
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def error_lines(error, indent=""):
    """An error and, for one that says no alternative matched, what each alternative said."""
    lines = [f"{indent}{json_path(error)}: {error.message}"]
    for sub_error in sorted(error.context, key=path_order):
        lines.extend(error_lines(sub_error, indent + "  "))
    return lines


def load_validator(schema_path):
    with open(schema_path, encoding="utf-8") as file:
        schema = json.load(file)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def path_order(error):
    """Sorts errors in document order: array indices as numbers, keys as text."""
    return [(0, part, "") if isinstance(part, int) else (1, 0, part)
            for part in error.absolute_path]


def report_errors(validator, report):
    """Every error in a parsed report, in document order, as printable lines."""
    errors = sorted(validator.iter_errors(report), key=path_order)
    return [line for error in errors for line in error_lines(error)]


def reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=DEFAULT_SCHEMA,
                        help="the JSON Schema to validate against")
    parser.add_argument("reports", nargs="+", metavar="REPORT")
    args = parser.parse_args(argv)
    try:
        validator = load_validator(args.schema)
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"validate_report.py: cannot use schema {args.schema}: {error}", file=sys.stderr)
        return 2
    all_valid = True
    for path in args.reports:
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as error:
            print(f"validate_report.py: cannot read {path}: {error}", file=sys.stderr)
            return 2
        try:
            lines = report_errors(validator, json.loads(text, parse_constant=reject_constant))
        except (ValueError, RecursionError) as error:
            lines = [f"not JSON: {error}"]
        for line in lines:
            print(f"{path}: {line}")
        if lines:
            all_valid = False
        else:
            print(f"{path}: valid")
    return 0 if all_valid else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
