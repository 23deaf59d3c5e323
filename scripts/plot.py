#!/usr/bin/env python3
"""Plots mishbench reports (PNG and SVG).

  time      median time per backend with a 95% confidence interval of the median; with results on
            several devices (--devices, or mishbench merge), one bar per device within each backend
  accuracy  max abs error (log) against median time, the tolerance as a line, one labelled point
            per backend (filled: verified, hollow: mismatch)
  sweep     TFLOP/s against M per backend, for problems that share N, K and the distribution
            (written only when the reports hold at least two values of M)

Usage:
  scripts/plot.py results/h200-default.json [more reports ...] --out results/plots
  scripts/plot.py results/baselines/nvidia-h200-sweep.json --out plots --problem 1024x8192x8192
Exit codes: 0 written, 2 bad input.
"""
import argparse
import json
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


class InputError(Exception):
    pass


def device_tags(report):
    """(model name, short label) of each entry of a 1.3 report's devices: "gpu 3", or "host-a gpu 3"
    when the report holds several hosts (a merged report)."""
    hosts = report.get("hosts") or [report.get("host") or {}]
    several_hosts = len(hosts) > 1
    tags = []
    for device in report.get("devices") or []:
        label = f"gpu {device.get('ordinal', '?')}"
        host_index = device.get("host_index", 0)
        if several_hosts and isinstance(host_index, int) and 0 <= host_index < len(hosts):
            label = f"{hosts[host_index].get('hostname', '?')} {label}"
        tags.append((device.get("name", "?"), label))
    return tags


def load_results(paths):
    """All results of all reports, each tagged with its problem key, its device's model name
    (_device) and its device's label (_device_label: "gpu 1"; "host" for a host backend of a run
    with devices); _label is the backend, with the device label when the results span several
    devices."""
    results = []
    for path in paths:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, json.JSONDecodeError) as error:
            raise InputError(f"cannot read report '{path}': {error}")
        if not isinstance(report, dict) or "results" not in report or "schema_version" not in report:
            raise InputError(f"'{path}' is not a mishbench report")
        if int(str(report["schema_version"]).split(".")[0]) != 1:
            raise InputError(f"'{path}': schema version {report['schema_version']} is not readable")
        device = (report.get("device") or {}).get("name", "host")
        tags = device_tags(report)
        for result in report["results"]:
            result = dict(result)
            index = result.get("device_index")
            result["_device"], result["_device_label"] = device, None  # the report's one device
            if len(tags) > 1:
                if isinstance(index, int) and 0 <= index < len(tags):
                    result["_device"], result["_device_label"] = tags[index]
                else:
                    result["_device_label"] = "host"
            results.append(result)
    if not results:
        raise InputError("the reports hold no results")
    several = any(r["_device_label"] not in (None, "host") for r in results)
    for r in results:
        if r["_device_label"] is None:
            r["_device_label"] = r["_device"]
        r["_label"] = f"{r['backend']} ({r['_device_label']})" if several else r["backend"]
    return results


def problem_key(problem):
    return f"{problem['m']}x{problem['n']}x{problem['k']}"


def median_interval(samples, confidence=0.95):
    """Distribution-free interval of the median from order statistics (binomial, normal approx.)."""
    values = sorted(samples)
    n = len(values)
    if n < 6:
        return values[0], values[-1]
    half_width = 1.959964 * math.sqrt(n) / 2.0
    low = max(0, int(math.floor(n / 2.0 - half_width)))
    high = min(n - 1, int(math.ceil(n / 2.0 + half_width)))
    return values[low], values[high]


def timed(result):
    timing = result.get("timing")
    return isinstance(timing, dict) and timing.get("samples_ms")


def label_of(result):
    return result.get("_label", result["backend"])


def save(figure, out_dir, name):
    paths = []
    for extension in ("png", "svg"):
        path = os.path.join(out_dir, f"{name}.{extension}")
        figure.savefig(path, dpi=150, bbox_inches="tight")
        paths.append(path)
    plt.close(figure)
    return paths


def plot_time_per_device(rows, title, out_dir):
    """One group of bars per backend (slowest first), one bar per device within it, a colour per
    device; a mismatch is hatched in black."""
    devices = sorted({r["_device_label"] for r in rows})
    colors = {d: plt.cm.tab10(i % 10) for i, d in enumerate(devices)}
    by_backend = defaultdict(dict)
    for r in rows:
        by_backend[r["backend"]][r["_device_label"]] = r
    backends = sorted(by_backend, key=lambda b: -max(r["timing"]["median_ms"]
                                                     for r in by_backend[b].values()))
    height = 0.8 / len(devices)
    figure, axes = plt.subplots(figsize=(9, 0.3 * len(backends) * len(devices) + 2))
    for group, backend in enumerate(backends):
        present = [d for d in devices if d in by_backend[backend]]  # centred on the backend's row
        for slot, device in enumerate(present):
            r = by_backend[backend][device]
            median = r["timing"]["median_ms"]
            low, high = median_interval(r["timing"]["samples_ms"])
            y = group + height * (slot + 0.5 - len(present) / 2)
            passed = r["status"] == "ok"
            axes.barh(y, median, height=height * 0.9, xerr=[[median - low], [high - median]],
                      facecolor=colors[device], capsize=2, hatch=None if passed else "//",
                      edgecolor="none" if passed else "black", linewidth=1)
            axes.text(median, y, f"  {median:.3f}", va="center", fontsize=6)
    axes.set_yticks(range(len(backends)))
    axes.set_yticklabels(backends)
    axes.set_xscale("log")
    axes.set_xlabel("median time per forward pass [ms] (log scale), 95% CI of the median")
    axes.set_title(title + "\none bar per device; hatched: mismatch")
    handles = [matplotlib.patches.Patch(color=colors[d], label=d) for d in devices]
    axes.legend(handles=handles, loc="best", fontsize=7)
    return save(figure, out_dir, "time")


def plot_time(results, title, out_dir):
    rows = [r for r in results if timed(r)]
    if any(r["_label"] != r["backend"] for r in rows):
        return plot_time_per_device(rows, title, out_dir)
    rows.sort(key=lambda r: r["timing"]["median_ms"], reverse=True)
    figure, axes = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.5))
    medians = [r["timing"]["median_ms"] for r in rows]
    intervals = [median_interval(r["timing"]["samples_ms"]) for r in rows]
    errors = [[m - lo for m, (lo, _) in zip(medians, intervals)],
              [hi - m for m, (_, hi) in zip(medians, intervals)]]
    colors = ["tab:green" if r["status"] == "ok" else "tab:red" for r in rows]
    axes.barh(range(len(rows)), medians, xerr=errors, color=colors, capsize=3)
    axes.set_yticks(range(len(rows)))
    axes.set_yticklabels([label_of(r) for r in rows])
    axes.set_xscale("log")
    axes.set_xlabel("median time per forward pass [ms] (log scale), 95% CI of the median")
    axes.set_title(title + "\ngreen: verified, red: mismatch")
    for y, m in enumerate(medians):
        axes.text(m, y, f"  {m:.3f} ms", va="center", fontsize=8)
    return save(figure, out_dir, "time")


def plot_accuracy(results, title, out_dir, atol):
    rows = [r for r in results if timed(r) and r.get("verification")]
    figure, axes = plt.subplots(figsize=(8, 5))
    floor = 1e-9  # an exact result still needs a place on a log axis
    clusters = []  # points within 5% of each other on both axes share one label
    for r in rows:
        x, error = r["timing"]["median_ms"], max(r["verification"]["max_abs"], floor)
        passed = r["status"] == "ok"
        axes.scatter(x, error, s=60, facecolors="tab:green" if passed else "none",
                     edgecolors="tab:green" if passed else "tab:red", linewidths=1.5)
        for cluster in clusters:
            if abs(math.log(x / cluster["x"])) < 0.05 and abs(math.log(error / cluster["y"])) < 0.05:
                cluster["labels"].append(label_of(r))
                break
        else:
            clusters.append({"x": x, "y": error, "labels": [label_of(r)]})
    for cluster in clusters:
        axes.annotate("\n".join(cluster["labels"]), (cluster["x"], cluster["y"]),
                      textcoords="offset points", xytext=(6, 4), fontsize=8)
    axes.axhline(atol, color="gray", linestyle="--", label=f"atol = {atol:g}")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("median time [ms] (log scale)")
    axes.set_ylabel("max |y - reference| (log scale)")
    axes.set_title(title + "\nfilled: verified, hollow: mismatch")
    axes.legend(loc="best")
    return save(figure, out_dir, "accuracy")


def roofline_multiple(result):
    """median / the larger of the memory and compute floors (report 1.2), or None."""
    roofline = result.get("roofline") or {}
    multiple = roofline.get("multiple_of_floor")
    return multiple if isinstance(multiple, (int, float)) else None


def plot_sweep(results, out_dir):
    """Against M, for the (N, K, distribution) with the most distinct M values: TFLOP/s, and the
    time as a multiple of the roofline bound, where the memory-bound regime (small M) shows."""
    groups = defaultdict(list)
    for r in results:
        if timed(r) and r.get("tflops"):
            p = r["problem"]
            groups[(p["n"], p["k"], p.get("distribution", ""))].append(r)
    if not groups:
        return []
    (n, k, dist), rows = max(groups.items(), key=lambda item: len({r["problem"]["m"] for r in item[1]}))
    if len({r["problem"]["m"] for r in rows}) < 2:
        return []
    by_backend = defaultdict(list)
    for r in rows:
        by_backend[label_of(r)].append((r["problem"]["m"], r["tflops"], r["status"] == "ok",
                                        roofline_multiple(r)))
    with_floors = any(p[3] is not None for points in by_backend.values() for p in points)
    figure, panels = plt.subplots(1, 2 if with_floors else 1, figsize=(14 if with_floors else 8, 5),
                                  squeeze=False)
    throughput = panels[0][0]
    for backend, points in sorted(by_backend.items()):
        points.sort()
        throughput.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=backend)
        failed = [p for p in points if not p[2]]
        if failed:
            throughput.scatter([p[0] for p in failed], [p[1] for p in failed], s=90,
                               facecolors="none", edgecolors="tab:red", zorder=3)
        if with_floors:
            floored = [p for p in points if p[3] is not None]
            panels[0][1].plot([p[0] for p in floored], [p[3] for p in floored], marker="o",
                              label=backend)
    throughput.set_ylabel("TFLOP/s (2·M·N·K / median)")
    throughput.set_title(f"sweep over M, N={n} K={k} {dist}\nred circles: mismatch")
    if with_floors:
        bound = panels[0][1]
        bound.axhline(1.0, color="black", linewidth=0.8)
        bound.set_yscale("log", base=2)
        bound.set_ylabel("median ÷ roofline bound (max of memory and compute floors)")
        bound.set_title("distance from the roofline (1 = at the floor)")
    for axes in panels[0]:
        axes.set_xscale("log", base=2)
        axes.set_xlabel("M (rows of x), log scale")
        axes.legend(loc="best", fontsize=8)
        axes.grid(True, alpha=0.3)
    return save(figure, out_dir, "sweep")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="mishbench JSON reports")
    parser.add_argument("--out", required=True, help="folder for the PNG and SVG files")
    parser.add_argument("--problem", help="MxNxK for the time and accuracy plots "
                                          "(default: the problem with the most results)")
    args = parser.parse_args(argv)
    try:
        results = load_results(args.reports)
        counts = defaultdict(int)
        for r in results:
            counts[problem_key(r["problem"])] += 1
        chosen = args.problem or max(counts, key=counts.get)
        if chosen not in counts:
            raise InputError(f"no results for problem {chosen}; the reports hold: {', '.join(sorted(counts))}")
        selected = [r for r in results if problem_key(r["problem"]) == chosen]
        os.makedirs(args.out, exist_ok=True)
        on_devices = [r for r in selected
                      if r["_label"] != r["backend"] and r["_device_label"] != "host"]
        labels = {r["_device_label"] for r in on_devices}
        models = sorted({r["_device"] for r in on_devices})
        device = (f"{len(labels)} devices ({', '.join(models)})" if labels
                  else selected[0]["_device"])
        title = f"y = mish(mish(x·Wᵀ + b)), {chosen} (M×N×K), {device}"
        written = plot_time(selected, title, args.out)
        written += plot_accuracy(selected, title, args.out, atol=1e-4)
        written += plot_sweep(results, args.out)
    except InputError as error:
        print(f"plot.py: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
