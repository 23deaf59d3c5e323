#!/usr/bin/env python3
"""The published JSON Schema (docs/report-schema.json) against real reports: it is a valid draft
2020-12 schema; it accepts every committed report under results/ and what the built mishbench
writes on the cpu backend in each mode; it refuses reports broken in one place each; and
validate_report.py exits as it says.

Usage: test_report_schema.py MISHBENCH
Exits 77 (skipped) when the jsonschema module is missing, as validate_report.py does on import.
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate_report  # noqa: E402  (exits 77 without jsonschema)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALIDATOR = os.path.join(ROOT, "tests", "scripts", "validate_report.py")

# Committed reports that do not follow docs/report-schema.md, and why. Each must still be refused,
# so that this list shrinks when one is regenerated.
NONCONFORMING = {
    "results/h200-torch.json":
        "the former scripts/torch_baseline.py wrote schema 1.0.0 without device ordinal, driver and cublas, "
        "the problem's flops, generate_ms and reference_ms, and p5_ms, p95_ms and iqr_ms, all "
        "1.0 fields, and names itself as the tool",
}

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")


def committed_reports(validator):
    paths = sorted(glob.glob(os.path.join(ROOT, "results", "**", "*.json"), recursive=True))
    check(len(paths) > len(NONCONFORMING), "no committed reports found under results/")
    for path in paths:
        name = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as file:
            errors = validate_report.report_errors(validator, json.load(file))
        if name in NONCONFORMING:
            check(errors, f"{name} now passes: remove it from NONCONFORMING")
            print(f"{name}: refused as known ({NONCONFORMING[name]})")
        else:
            check(not errors, f"{name}: " + "; ".join(errors))


# (name, mishbench arguments after --backend=cpu, expected exit code, what the report must show)
RUNS = [
    ("fixed", "--config configs/ci.json", 0,
     lambda r: r["settings"]["stopping"] == "fixed" and len(r["results"]) == 2),
    ("graph", "--config configs/ci.json --graph", 0,
     lambda r: r["settings"]["graph"] and r["results"][0]["graph_timing"] is None),
    ("adaptive", "--m 32 --n 64 --k 128 --iters 8 --max-noise 0.05 --timeout 2", 0,
     lambda r: r["settings"]["stopping"] == "adaptive"
     and r["results"][0]["timing"]["stopped_by"] in ("converged", "timeout")),
    ("dump", "--m 16 --n 32 --k 64 --dump {dir}/dump", 0,
     lambda r: r["results"][0]["status"] == "ok"),
    ("mismatch", "--m 16 --n 32 --k 64 --atol 0 --rtol 0", 1,
     lambda r: r["results"][0]["status"] == "mismatch"
     and r["results"][0]["verification"]["mismatches"] > 0),
    ("options", "--m 16 --n 32 --k 64 --l2 hot --min-time 0.01 --distribution wide"
     " --backend-option fp16x3.chunks=4", 0,
     lambda r: r["settings"]["backend_options"] == {"fp16x3": {"chunks": 4}}
     and r["settings"]["l2_flush_bytes"] is None),
]


def produced_reports(validator, mishbench, scratch):
    """Runs each of RUNS; returns the reports by name."""
    reports = {}
    for name, arguments, expected_exit, shows in RUNS:
        path = os.path.join(scratch, f"{name}.json")
        command = [mishbench, "--backend=cpu", *arguments.format(dir=scratch).split(),
                   "--quiet", "--json", path]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        check(done.returncode == expected_exit,
              f"{name}: exit {done.returncode}, expected {expected_exit}: {done.stderr.strip()}")
        if not os.path.exists(path):
            check(False, f"{name}: no report written")
            continue
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
        check(shows(report), f"{name}: the report does not show the mode it was run in")
        errors = validate_report.report_errors(validator, report)
        check(not errors, f"{name}: " + "; ".join(errors))
        print(f"{name}: exit {done.returncode}, {'valid' if not errors else 'INVALID'}")
        reports[name] = report
    return reports


REMOVE = object()


def set_at(report, path, value):
    """A copy of `report` with the value at `path` (keys and indices) replaced, or removed when
    `value` is REMOVE."""
    broken = copy.deepcopy(report)
    parent = broken
    for part in path[:-1]:
        parent = parent[part]
    if value is REMOVE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return broken


# (what is broken, where, the new value or REMOVE, the JSON path the error must name)
BREAKAGES = [
    ("missing key", ["results", 0, "status"], REMOVE, "$.results[0]"),
    ("missing top-level key", ["settings"], REMOVE, "$"),
    ("unknown status", ["results", 0, "status"], "fine", "$.results[0].status"),
    ("unknown stopped_by", ["results", 0, "timing", "stopped_by"], "tired",
     "$.results[0].timing.stopped_by"),
    ("unknown l2 mode", ["settings", "l2"], "cold", "$.settings.l2"),
    ("median as text", ["results", 0, "timing", "median_ms"], "2.0",
     "$.results[0].timing.median_ms"),
    ("count not an integer", ["results", 0, "verification", "mismatches"], 0.5,
     "$.results[0].verification.mismatches"),
    ("null setup time", ["results", 0, "setup_ms"], None, "$.results[0].setup_ms"),
    ("no samples", ["results", 0, "timing", "samples_ms"], [], "$.results[0].timing.samples_ms"),
    ("unknown field in a closed object", ["results", 0, "timing", "p50_ms"], 1.0,
     "$.results[0].timing"),
    ("unknown field in a problem", ["problems", 0, "bits"], 32, "$.problems[0]"),
    ("unknown field in a result's problem", ["results", 0, "problem", "bits"], 32,
     "$.results[0].problem"),
    ("newer major version", ["schema_version"], "2.0.0", "$.schema_version"),
    ("a 1.1 field missing from a 1.1 report", ["settings", "stopping"], REMOVE, "$.settings"),
    ("reason given for ok", ["results", 0, "reason"], "fine anyway", "$.results[0].reason"),
]


def broken_reports(validator, report):
    for what, path, value, error_path in BREAKAGES:
        errors = validate_report.report_errors(validator, set_at(report, path, value))
        named = any(error.startswith(error_path + ":") for error in errors)
        check(named, f"{what}: expected an error at {error_path}, got {errors}")
        print(f"{what}: refused" if named else f"{what}: NOT refused at {error_path}")


def older_minor_version(validator, report):
    """A 1.0 report lacks the fields added in 1.1: accepted as 1.0, refused as 1.1."""
    older = copy.deepcopy(report)
    older["schema_version"] = "1.0.0"
    for key in ("stopping", "graph", "median_ci", "backend_options"):
        del older["settings"][key]
    for result in older["results"]:
        for key in ("expected_accuracy", "warnings", "clocks", "stages"):
            del result[key]
        del result["timing"]["median_ci95_ms"]
        del result["verification"]["worst"]["input_magnitude"]
    errors = validate_report.report_errors(validator, older)
    check(not errors, f"a 1.0 report without the 1.1 fields: {errors}")
    older["schema_version"] = "1.1.0"
    check(validate_report.report_errors(validator, older),
          "a 1.1 report without the 1.1 fields passed")


def validator_exit_codes(report, scratch):
    """validate_report.py as a command: 0 valid, 1 invalid or not JSON, 2 unreadable."""
    valid = os.path.join(scratch, "valid.json")
    invalid = os.path.join(scratch, "invalid.json")
    not_json = os.path.join(scratch, "not-json.json")
    with open(valid, "w", encoding="utf-8") as file:
        json.dump(report, file)
    with open(invalid, "w", encoding="utf-8") as file:
        json.dump(set_at(report, ["results", 0, "status"], "fine"), file)
    with open(not_json, "w", encoding="utf-8") as file:
        file.write('{"schema_version": NaN}')
    for files, expected in (([valid], 0), ([valid, invalid], 1), ([not_json], 1),
                            ([os.path.join(scratch, "missing.json")], 2)):
        done = subprocess.run([sys.executable, VALIDATOR, *files], capture_output=True, text=True)
        check(done.returncode == expected,
              f"validate_report.py {files}: exit {done.returncode}, expected {expected}")
        if expected == 1:
            check(f"{files[-1]}: $" in done.stdout or "not JSON" in done.stdout,
                  f"validate_report.py {files}: no error line in {done.stdout!r}")


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    validator = validate_report.load_validator(validate_report.DEFAULT_SCHEMA)
    committed_reports(validator)
    with tempfile.TemporaryDirectory(prefix="mish_report_schema_") as scratch:
        reports = produced_reports(validator, os.path.abspath(argv[0]), scratch)
        if "fixed" in reports:
            broken_reports(validator, reports["fixed"])
            older_minor_version(validator, reports["fixed"])
            validator_exit_codes(reports["fixed"], scratch)
    print(f"{len(failures)} failure(s)" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
