#!/usr/bin/env python3
"""Pictures of mishbench reports, as PNG and SVG (docs/plot.md).

One report of one problem:
  time      median time per backend with the 95% confidence interval of the median
            (green: verified, red: mismatch); on several devices one bar per device
  accuracy  max abs error against median time, the tolerance as a line
A comparison, two or more reports that time the same backend on the same problem:
  time      a group of bars per backend, one bar per report (the first is the base; with two,
            labelled base and new unless --label names them), each later bar annotated with its
            ratio to the base (new median / base median, as mishbench compare: below 1 is faster)
  accuracy  as above, each point labelled with its report
Reports that time different backends or problems are drawn together as one set.
A sweep, results of two or more problems (one multi-problem report, or several reports):
  sweep     TFLOP/s (or --metric time) against M, one line per backend (and report), and the time
            over the roofline floor where the reports give it; against the problem instead when
            the problems differ in N, K or the distribution (--x problem)
  time and accuracy then show one problem, named on stderr (--problem picks it)

Examples:
  scripts/plot.py results/h200-default.json --out plots
  scripts/plot.py base.json new.json --out plots                 # bars labelled base and new
  scripts/plot.py a.json b.json c.json --label main --label tile-64 --label tile-128 --out plots
  scripts/plot.py results/baselines/nvidia-h200-sweep.json --out plots --metric time
  scripts/plot.py sweep.json --out plots --x problem --problem 1024x8192x8192

Exit codes: 0 written (the paths on stdout), 2 bad input (a missing file, a file that is not a
mishbench report, a --problem the reports lack, nothing timed), 3 matplotlib is not installed.
"""
import argparse
import json
import math
import os
import sys
from collections import defaultdict

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.patches  # noqa: E402
    import matplotlib.pyplot as plt  # noqa: E402
    import matplotlib.ticker as ticker  # noqa: E402
except ImportError:
    matplotlib = None

# A time axis spanning more than this ratio is drawn on a log scale (--scale auto).
LOG_SPAN = 30.0
# At most about this many labelled values of M on a sweep's axis (1000 and 1024 would overlap).
MAX_M_TICKS = 14
LAYER = "y = mish(mish(x·Wᵀ + b))"
# The name messages start with: plot.py, or mishbench-plot as installed.
PROG = os.path.basename(sys.argv[0]) or "plot.py"


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


def read_report(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"cannot read report '{path}': {error}")
    if not isinstance(report, dict) or not isinstance(report.get("results"), list) \
            or "schema_version" not in report:
        raise InputError(f"'{path}' is not a mishbench report (it has no schema_version and "
                         "results; mishbench --json FILE writes one)")
    major = str(report["schema_version"]).split(".")[0]
    if major != "1":
        raise InputError(f"'{path}': schema version {report['schema_version']} is not readable "
                         "(this script reads 1.x)")
    for index, result in enumerate(report["results"]):
        problem = result.get("problem") if isinstance(result, dict) else None
        if not isinstance(problem, dict) or not all(
                isinstance(problem.get(key), int) for key in ("m", "n", "k")) \
                or not isinstance(result.get("backend"), str):
            raise InputError(f"'{path}': result {index} has no backend or no problem m, n, k")
    return report


def default_labels(paths):
    """The reports' names: base and new for two, else the file names without .json, made unique."""
    stems = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    if len(paths) == 2:
        return ["base", "new"]
    labels = []
    for i, stem in enumerate(stems):
        labels.append(stem if stems.count(stem) == 1 else f"{stem} #{i + 1}")
    return labels


def load_results(paths, labels):
    """All results of all reports, each tagged with its problem key (_problem), its report's label
    (_report) and index (_report_index), its device's model name (_device) and its device's label
    (_device_label: "gpu 1"; "host" for a host backend of a run with devices; None for a report of
    one device)."""
    results = []
    for report_index, (path, label) in enumerate(zip(paths, labels)):
        report = read_report(path)
        device = (report.get("device") or {}).get("name", "host")
        tags = device_tags(report)
        settings = report.get("settings") or {}
        for result in report["results"]:
            result = dict(result)
            index = result.get("device_index")
            result["_device"], result["_device_label"] = device, None
            if len(tags) > 1:
                if isinstance(index, int) and 0 <= index < len(tags):
                    result["_device"], result["_device_label"] = tags[index]
                else:
                    result["_device_label"] = "host"
            result["_problem"] = problem_key(result["problem"])
            result["_report"], result["_report_index"] = label, report_index
            result["_file"] = os.path.basename(path)
            result["_atol"] = settings.get("atol", 1e-4)
            results.append(result)
    if not results:
        raise InputError("the reports hold no results")
    return results


def problem_key(problem):
    return f"{problem['m']}x{problem['n']}x{problem['k']}"


def compared(results):
    """Whether the reports time one backend on one problem more than once: then they are a
    comparison, one bar or line per report; otherwise they are drawn as one set."""
    seen = defaultdict(set)
    for r in results:
        if median_of(r) is not None:
            seen[(r["backend"], r["_problem"], r["_device_label"])].add(r["_report_index"])
    return any(len(reports) > 1 for reports in seen.values())


def tag_series(results, comparison):
    """_series: what tells a backend's bars apart (the report, the device, both, or None), and
    _label: the backend with it."""
    several_devices = any(r["_device_label"] not in (None, "host") for r in results)
    for r in results:
        parts = []
        if comparison:
            parts.append(r["_report"])
        if several_devices:
            parts.append(r["_device_label"] or r["_device"])
        r["_series"] = " ".join(parts) if parts else None
        r["_label"] = f"{r['backend']} ({r['_series']})" if parts else r["backend"]
    return several_devices


def median_of(result):
    timing = result.get("timing")
    if not isinstance(timing, dict):
        return None
    median = timing.get("median_ms")
    return median if isinstance(median, (int, float)) and median > 0 else None


def median_interval(result):
    """The 95% confidence interval of the median: the report's (1.1), else from the samples by
    order statistics (binomial, normal approximation), else none."""
    timing = result["timing"]
    given = timing.get("median_ci95_ms")
    if isinstance(given, list) and len(given) == 2 and all(
            isinstance(v, (int, float)) for v in given):
        return given[0], given[1]
    values = sorted(v for v in timing.get("samples_ms") or [] if isinstance(v, (int, float)))
    n = len(values)
    if n == 0:
        return median_of(result), median_of(result)
    if n < 6:
        return values[0], values[-1]
    half_width = 1.959964 * math.sqrt(n) / 2.0
    low = max(0, int(math.floor(n / 2.0 - half_width)))
    high = min(n - 1, int(math.ceil(n / 2.0 + half_width)))
    return values[low], values[high]


def tflops_of(result):
    given = result.get("tflops")
    if isinstance(given, (int, float)) and given > 0:
        return given
    p = result["problem"]
    return 2.0 * p["m"] * p["n"] * p["k"] / (median_of(result) * 1e-3) / 1e12


def roofline_multiple(result):
    """median / the larger of the memory and compute floors (report 1.2), or None."""
    multiple = (result.get("roofline") or {}).get("multiple_of_floor")
    return multiple if isinstance(multiple, (int, float)) and multiple > 0 else None


def plain(value, _position=None):
    """A tick label without exponents: 0.05, 2, 150, 8192."""
    if value == 0:
        return "0"
    if abs(value) >= 1e5 or abs(value) < 1e-3:
        return f"{value:.0e}"
    return f"{value:.4g}"


def use_scale(axes, which, low, high, scale):
    """A linear or log scale on `which` axis ("x" or "y") for values in [low, high]; a log one has
    plain labels at 1, 2, 5 per decade (1 per decade when the span is wide) and no minor labels."""
    log = scale == "log" or (scale == "auto" and low > 0 and high / low > LOG_SPAN)
    axis = axes.xaxis if which == "x" else axes.yaxis
    if not log:
        return False
    (axes.set_xscale if which == "x" else axes.set_yscale)("log")
    decades = math.log10(high / low) if low > 0 else 0
    subs = (1.0,) if decades > 4 else (1.0, 2.0, 5.0)
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(plain))
    axis.set_minor_formatter(ticker.NullFormatter())
    return True


def nice_below(value):
    """The largest of 1, 2, 5 times a power of ten below `value`: where a log axis starts, so
    that its first label is at its left end."""
    decade = 10.0 ** math.floor(math.log10(value))
    return next(step * decade for step in (5, 2, 1, 0.5) if step * decade < value)


def fit_texts(figure, axes, texts, log):
    """Widens the x axis until every text (placed right of a bar) lies inside it."""
    if not texts:
        return
    for _ in range(4):
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        right = max(t.get_window_extent(renderer).x1 for t in texts)
        limit = axes.get_window_extent(renderer).x1
        if right <= limit - 4:
            return
        low, high = axes.get_xlim()
        # The display overflow as a fraction of the axis, applied in the axis' own units.
        width = axes.get_window_extent(renderer).width
        grow = (right - limit + 8) / width
        if log:
            axes.set_xlim(low, high * (high / low) ** grow)
        else:
            axes.set_xlim(low, high + (high - low) * grow)


def save(figure, out_dir, name):
    paths = []
    for extension in ("png", "svg"):
        path = os.path.join(out_dir, f"{name}.{extension}")
        figure.savefig(path, dpi=150, bbox_inches="tight")
        paths.append(path)
    plt.close(figure)
    return paths


def untimed_note(results):
    """'not timed: a (error), b (skipped)' for the results without a median, or ''."""
    left = [f"{r['_label']} ({r.get('status', '?')})" for r in results if median_of(r) is None]
    if not left:
        return ""
    shown = ", ".join(left[:6]) + (f" and {len(left) - 6} more" if len(left) > 6 else "")
    return f"\nnot timed: {shown}"


def series_legend(name, file, what_series):
    """A series' legend entry: with reports, the report's file beside its label."""
    if not what_series["reports"] or os.path.splitext(file)[0] == name.split(" ")[0]:
        return name
    return f"{name}: {file}"


def plot_time(results, title, out_dir, scale, what_series):
    """Bars of median time: one per backend, or with several series (reports, devices) a group
    per backend, one bar per series, each later report's bar with its ratio to the base."""
    rows = [r for r in results if median_of(r) is not None]
    series = sorted({r["_series"] for r in rows if r["_series"] is not None},
                    key=lambda s: min((r["_report_index"], r["_device_label"] or "")
                                      for r in rows if r["_series"] == s))
    grouped = bool(series)
    by_backend = defaultdict(dict)
    for r in rows:
        by_backend[r["backend"]][r["_series"]] = r
    # Fastest on top: the groups run upwards from the slowest, by the base's (first) median.
    backends = sorted(by_backend, key=lambda b: -median_of(
        min(by_backend[b].values(), key=lambda r: (r["_report_index"], r["_device_label"] or ""))))
    # The base of a ratio: the first report's bar of the backend on the same device.
    bases = {(r["backend"], r["_device_label"]): r for r in rows if r["_report_index"] == 0}
    per_group = max(len(series), 1)
    figure, axes = plt.subplots(figsize=(9, 0.32 * len(backends) * per_group + 0.5 * len(backends)
                                         + 1.6))
    colors = {s: plt.cm.tab10(i % 10) for i, s in enumerate(series)}
    height = 0.8 / per_group
    texts, lows, highs = [], [], []
    for group, backend in enumerate(backends):
        present = [s for s in (series or [None]) if s in by_backend[backend]]
        for slot, name in enumerate(present):
            r = by_backend[backend][name]
            median = median_of(r)
            low, high = median_interval(r)
            lows.append(max(min(low, median), median / 10))  # a log axis needs it above 0
            highs.append(max(high, median))
            # The first series on top within its group.
            y = group + height * (len(present) - slot - 0.5 - len(present) / 2)
            passed = r.get("status") == "ok"
            if grouped:
                style = {"facecolor": colors[name], "hatch": None if passed else "//",
                         "edgecolor": "none" if passed else "black", "linewidth": 1}
            else:
                style = {"color": "tab:green" if passed else "tab:red"}
            axes.barh(y, median, height=height * 0.9,
                      xerr=[[max(median - low, 0)], [max(high - median, 0)]], capsize=2,
                      **style)
            text = f"{median:.4g} ms"
            base = bases.get((backend, r["_device_label"]))
            if what_series["reports"] and base is not None and base is not r:
                text += f"  {median / median_of(base):.3f}×"
            texts.append(axes.annotate(text, (max(high, median), y), xytext=(4, 0),
                                       textcoords="offset points", va="center",
                                       fontsize=7 if grouped else 8))
    axes.set_yticks(range(len(backends)))
    axes.set_yticklabels(backends)
    axes.set_ylim(-0.6, len(backends) - 0.4)
    log = use_scale(axes, "x", min(lows), max(highs), scale)
    axes.set_xlim(nice_below(min(lows)) if log else 0, max(highs) * 1.02)
    axes.grid(True, axis="x", alpha=0.3)
    axes.set_axisbelow(True)
    axes.set_xlabel("median time per forward pass [ms]" + (", log scale" if log else "")
                    + "; error bars: 95% confidence interval of the median")
    if grouped:
        legend = "hatched: mismatch"
        if what_series["reports"]:
            legend += f"\nn.nnn× = median ÷ {what_series['base']}'s median (< 1: faster)"
        axes.set_title(f"{title}\none bar per {what_series['noun']}; {legend}"
                       f"{untimed_note(results)}", fontsize=10)
        files = {r["_series"]: r["_file"] for r in rows}
        handles = [matplotlib.patches.Patch(color=colors[s], label=series_legend(s, files[s],
                                                                                  what_series))
                   for s in series]
        axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8,
                    title=what_series["noun"], title_fontsize=8)
    else:
        axes.set_title(f"{title}\ngreen: verified, red: mismatch{untimed_note(results)}",
                       fontsize=10)
    fit_texts(figure, axes, texts, log)
    return save(figure, out_dir, "time")


def plot_accuracy(results, title, out_dir):
    rows = [r for r in results if median_of(r) is not None and r.get("verification")]
    if not rows:
        return []
    figure, axes = plt.subplots(figsize=(8, 5))
    floor = 1e-9  # an exact result still needs a place on a log axis
    clusters = []  # points within 5% of each other on both axes share one label
    for r in rows:
        x = median_of(r)
        error = max(r["verification"].get("max_abs") or 0.0, floor)
        passed = r.get("status") == "ok"
        axes.scatter(x, error, s=60, facecolors="tab:green" if passed else "none",
                     edgecolors="tab:green" if passed else "tab:red", linewidths=1.5)
        for cluster in clusters:
            if abs(math.log(x / cluster["x"])) < 0.05 and abs(math.log(error / cluster["y"])) < 0.05:
                cluster["labels"].append(r["_label"])
                break
        else:
            clusters.append({"x": x, "y": error, "labels": [r["_label"]]})
    for cluster in clusters:
        axes.annotate("\n".join(cluster["labels"]), (cluster["x"], cluster["y"]),
                      textcoords="offset points", xytext=(6, 4), fontsize=8)
    atol = rows[0]["_atol"]
    axes.axhline(atol, color="gray", linestyle="--", label=f"atol = {atol:g}")
    medians = [median_of(r) for r in rows]
    use_scale(axes, "x", min(medians), max(medians), "log" if max(medians) > min(medians) else
              "linear")
    axes.set_yscale("log")
    axes.set_xlabel("median time [ms], log scale")
    axes.set_ylabel("max |y - reference|, log scale")
    axes.set_title(title + "\nfilled: verified, hollow: mismatch", fontsize=10)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="best")
    return save(figure, out_dir, "accuracy")


def m_ticks(values):
    """The M values to label on a log axis: all, or a spread of them that keeps neighbours
    apart (labels of 1000 and 1024 would overlap)."""
    values = sorted(set(values))
    span = math.log2(values[-1] / values[0]) if values[0] > 0 else 0
    if span == 0:
        return values
    gap = span / MAX_M_TICKS
    kept = [values[0]]
    for v in values[1:]:
        if math.log2(v / kept[-1]) >= gap:
            kept.append(v)
    if kept[-1] != values[-1]:
        kept[-1] = values[-1]
    return kept


def shape_of(result):
    """What a sweep against M holds fixed: N, K and the distribution."""
    p = result["problem"]
    return p["n"], p["k"], p.get("distribution")


def sweep_axis(rows, x_mode):
    """How the sweep's x axis runs: ("m", None) when the rows' problems differ only in M, else
    ("problem", the problems in order: by M, then N, K and the distribution)."""
    if x_mode == "m" or (x_mode == "auto" and len({shape_of(r) for r in rows}) == 1):
        return "m", None
    keys = sorted({(r["problem"]["m"], r["problem"]["n"], r["problem"]["k"],
                    r["problem"].get("distribution") or "") for r in rows})
    return "problem", keys


def problem_label(key, with_distribution):
    m, n, k, distribution = key
    return f"{m}x{n}x{k}" + (f" {distribution}" if with_distribution and distribution else "")


def plot_sweep(results, out_dir, metric, x_mode, scale):
    """One line per backend (and report or device) of TFLOP/s or time against M or the problem,
    beside the time over the roofline floor where the reports give it."""
    rows = [r for r in results if median_of(r) is not None]
    if len({r["_problem"] for r in rows}) < 2:
        return [], []
    mode, keys = sweep_axis(rows, x_mode)
    left_out = []
    if mode == "m":
        shapes = defaultdict(list)
        for r in rows:
            shapes[shape_of(r)].append(r)
        everything = {r["_problem"] for r in rows}
        (n, k, distribution), rows = max(
            shapes.items(), key=lambda item: len({r["problem"]["m"] for r in item[1]}))
        left_out = sorted(everything - {r["_problem"] for r in rows})
        if len({r["problem"]["m"] for r in rows}) < 2:
            raise InputError("--x m: no N, K and distribution is run at two values of M")
        where = f"N={n} K={k} {distribution or ''}".rstrip()
    else:
        where = f"{len(keys)} problems (M×N×K)"
        position = {key: i for i, key in enumerate(keys)}
        with_distribution = len({key[3] for key in keys}) > 1
    lines = defaultdict(list)
    for r in rows:
        p = r["problem"]
        x = p["m"] if mode == "m" else position[(p["m"], p["n"], p["k"],
                                                p.get("distribution") or "")]
        y = tflops_of(r) if metric == "tflops" else median_of(r)
        lines[(r["backend"], r["_series"])].append((x, y, r.get("status") == "ok",
                                                    roofline_multiple(r)))
    backends = sorted({b for b, _ in lines})
    series = sorted({s for _, s in lines if s is not None},
                    key=lambda s: min(r["_report_index"] for r in rows if r["_series"] == s))
    colors = {b: plt.cm.tab10(i % 10) if len(backends) <= 10 else plt.cm.tab20(i % 20)
              for i, b in enumerate(backends)}
    styles = {s: ("-", "--", ":", "-.")[i % 4] for i, s in enumerate(series)}
    with_floors = any(p[3] is not None for points in lines.values() for p in points)
    figure, panels = plt.subplots(1, 2 if with_floors else 1,
                                  figsize=(15 if with_floors else 9, 5.5), squeeze=False)
    main = panels[0][0]
    order = {s: i for i, s in enumerate(series)}
    for (backend, name), points in sorted(lines.items(),
                                          key=lambda item: (item[0][0], order.get(item[0][1], 0))):
        points.sort()
        label = backend if name is None else f"{backend} ({name})"
        style = {"color": colors[backend], "linestyle": styles.get(name, "-"), "marker": "o",
                 "markersize": 4, "label": label}
        main.plot([p[0] for p in points], [p[1] for p in points], **style)
        failed = [p for p in points if not p[2]]
        if failed:
            main.scatter([p[0] for p in failed], [p[1] for p in failed], s=80, facecolors="none",
                         edgecolors="tab:red", zorder=3)
        floored = [p for p in points if p[3] is not None]
        if with_floors and floored:
            panels[0][1].plot([p[0] for p in floored], [p[3] for p in floored], **style)
    values = [p[1] for points in lines.values() for p in points]
    if metric == "tflops":
        main.set_ylabel("TFLOP/s (2·M·N·K / median)")
        if not use_scale(main, "y", min(values), max(values), "linear" if scale == "auto"
                         else scale):
            main.set_ylim(bottom=0)
    else:
        main.set_ylabel("median time per forward pass [ms]")
        if use_scale(main, "y", min(values), max(values), scale):
            main.set_ylabel("median time per forward pass [ms], log scale")
    what = "TFLOP/s" if metric == "tflops" else "time"
    main.set_title(f"{LAYER}: {what} against {'M' if mode == 'm' else 'the problem'}, {where}\n"
                   "red circles: mismatch", fontsize=10)
    if with_floors:
        bound = panels[0][1]
        bound.axhline(1.0, color="black", linewidth=0.8)
        multiples = [p[3] for points in lines.values() for p in points if p[3] is not None]
        bound.set_yscale("log", base=2)
        bound.yaxis.set_major_locator(ticker.LogLocator(base=2))
        bound.yaxis.set_major_formatter(ticker.FuncFormatter(plain))
        bound.yaxis.set_minor_formatter(ticker.NullFormatter())
        bound.set_ylim(min(min(multiples), 1.0) / 1.2, max(multiples) * 1.2)
        bound.set_ylabel("median ÷ roofline floor, log scale")
        bound.set_title("distance from the roofline: 1 = at the floor, the larger of the memory\n"
                        "and the compute floor", fontsize=10)
    for axes in panels[0]:
        if mode == "m":
            axes.set_xscale("log", base=2)
            ticks = m_ticks([p[0] for points in lines.values() for p in points])
            axes.xaxis.set_major_locator(ticker.FixedLocator(ticks))
            axes.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:.0f}"))
            axes.xaxis.set_minor_locator(ticker.NullLocator())
            axes.set_xlabel("M (rows of x), log scale")
        else:
            axes.set_xticks(range(len(keys)))
            axes.set_xticklabels([problem_label(key, with_distribution) for key in keys],
                                 rotation=35, ha="right", fontsize=8)
            axes.set_xlabel("problem, M×N×K, by M")
        axes.grid(True, alpha=0.3)
    handles, labels = main.get_legend_handles_labels()
    panels[0][-1].legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1),
                         fontsize=8)
    figure.tight_layout()
    return save(figure, out_dir, "sweep"), left_out


def choose_problem(results, wanted):
    counts = defaultdict(int)
    for r in results:
        if median_of(r) is not None:
            counts[r["_problem"]] += 1
    if not counts:
        raise InputError("nothing to plot: no result in the reports was timed")
    if wanted is not None:
        if wanted not in counts:
            raise InputError(f"no timed results for problem {wanted}; the reports hold: "
                             f"{', '.join(sorted(counts))}")
        return wanted, len(counts)
    return max(counts, key=counts.get), len(counts)


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="mishbench JSON reports (--json FILE)")
    parser.add_argument("--out", required=True, help="folder for the PNG and SVG files")
    parser.add_argument("--label", action="append", metavar="NAME",
                        help="a report's name in a comparison, once per report, in order "
                             "(default: base and new for two reports, else the file names)")
    parser.add_argument("--problem", metavar="MxNxK",
                        help="the problem of the time and accuracy plots (default: the one with "
                             "the most timed results)")
    parser.add_argument("--metric", choices=("tflops", "time"), default="tflops",
                        help="the sweep's y axis: TFLOP/s (default) or median time")
    parser.add_argument("--x", choices=("auto", "m", "problem"), default="auto", dest="x_mode",
                        help="the sweep's x axis: M (the problems that share N, K and the "
                             "distribution, at least two values of M), every problem in order, or "
                             "M when the problems differ only in M (default)")
    parser.add_argument("--scale", choices=("auto", "linear", "log"), default="auto",
                        help="the time axis: log when it spans more than 30x (default), or as "
                             "given")
    args = parser.parse_args(argv)
    if matplotlib is None:
        print(f"{PROG}: needs matplotlib (python3 -m pip install matplotlib, or "
              "scripts/install-deps.sh --tests)", file=sys.stderr)
        return 3
    try:
        if args.label is not None and len(args.label) != len(args.reports):
            raise InputError(f"{len(args.label)} --label for {len(args.reports)} reports; give "
                             "one per report, in order")
        labels = args.label or default_labels(args.reports)
        results = load_results(args.reports, labels)
        comparison = compared(results)
        several_devices = tag_series(results, comparison)
        chosen, problems = choose_problem(results, args.problem)
        selected = [r for r in results if r["_problem"] == chosen]
        os.makedirs(args.out, exist_ok=True)
        on_devices = [r for r in selected if r["_device_label"] not in (None, "host")]
        devices = {r["_device_label"] for r in on_devices}
        models = sorted({r["_device"] for r in (on_devices or selected)})
        device = (f"{len(devices)} devices ({', '.join(models)})" if several_devices
                  else ", ".join(models))
        title = f"{LAYER}, {chosen} (M×N×K), {device}"
        nouns = [noun for noun, on in (("report", comparison), ("device", several_devices)) if on]
        what_series = {"noun": " and ".join(nouns), "reports": comparison, "base": labels[0]}
        written = plot_time(selected, title, args.out, args.scale, what_series)
        written += plot_accuracy(selected, title, args.out)
        swept, left_out = plot_sweep(results, args.out, args.metric, args.x_mode, args.scale)
        written += swept
        if problems > 1:
            print(f"{PROG}: time and accuracy show problem {chosen}, one of {problems} "
                  "(--problem picks another); the sweep shows "
                  + ("them all" if not left_out else f"{problems - len(left_out)}, leaving out "
                     f"{', '.join(left_out)} (other N, K or distribution; --x problem draws "
                     "every problem)"), file=sys.stderr)
    except InputError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{PROG}: cannot write into '{args.out}': {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
