#!/usr/bin/env python3
"""Bar chart of copy_bench results: GB/s per variant, grouped by tier, with the
cudaMemcpy d2d figure of the same run as a line and the tier targets as
dashed lines.

    pip install matplotlib          # the only dependency
    python3 bench/plot.py bench/results/DATE-h100-copy.csv [-o copy.png]

The CSV is copy_bench's (--csv PATH). A bench.csv written by
scripts/gpu-check.sh, which holds every bench's CSV one after another under
"# name" lines, works too: the copy_bench part is picked out by its header.
Rows: tile.h variants coloured by tier (vector, async, bytes, scalar), CUB peers in
grey, each labelled "variant dtype tile" and annotated "GB/s (fraction of
memcpy)"; a row whose output check failed says so in red.
"""
import argparse
import csv
import io
import os
import sys

REQUIRED = ("variant", "tier", "dtype", "tile", "gbps", "frac_memcpy", "correct")
TIER_ORDER = ["vector", "async", "bytes", "scalar", "cub", "memcpy"]
TIER_COLOR = {"vector": "#1f77b4", "async": "#9467bd", "bytes": "#2ca02c", "scalar": "#ff7f0e", "cub": "#8c8c8c",
              "memcpy": "#d62728"}
TARGETS = {"vector": 0.95, "bytes": 0.85, "scalar": 0.70}  # fractions of memcpy, as in copy_bench


def read_rows(path):
    """The copy_bench rows of a CSV file (also one section of a gpu-check bench.csv)."""
    with open(path, newline="") as f:
        text = f.read()
    sections, cur = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            if cur:
                sections.append(cur)
            cur = []
        elif line.strip():
            cur.append(line)
    if cur:
        sections.append(cur)
    for sec in sections:
        rows = list(csv.DictReader(io.StringIO("\n".join(sec))))
        if rows and all(k in rows[0] for k in REQUIRED):
            return rows
    sys.exit(f"plot.py: no copy_bench rows (columns {', '.join(REQUIRED)}) in {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="copy_bench CSV (or gpu-check's bench.csv)")
    ap.add_argument("-o", "--out", help="PNG to write (default: the CSV's name with .png)")
    ap.add_argument("--title", help="chart title (default: device, commit and date from the CSV)")
    args = ap.parse_args()

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        sys.exit("plot.py needs matplotlib: pip install matplotlib")

    rows = read_rows(args.csv)
    for r in rows:
        r["gbps"] = float(r["gbps"])
        r["frac_memcpy"] = float(r["frac_memcpy"])
    memcpy = [r for r in rows if r["tier"] == "memcpy"]
    rows = [r for r in rows if r["tier"] != "memcpy"]
    # group by tier (cascade order, CUB last), then by dtype and tile as in the bench
    order = {t: i for i, t in enumerate(TIER_ORDER)}
    rows.sort(key=lambda r: order.get(r["tier"], len(order)))

    fig_h = max(4.5, 0.3 * len(rows) + 2.4)
    fig, ax = plt.subplots(figsize=(11, fig_h))
    y = list(range(len(rows)))[::-1]
    colors = [TIER_COLOR.get(r["tier"], "#9467bd") for r in rows]
    ax.barh(y, [r["gbps"] for r in rows], color=colors, height=0.72)
    ax.set_yticks(y)
    ax.set_yticklabels([f'{r["variant"]}  {r["dtype"]}  {r["tile"]}' for r in rows], fontsize=8)
    xmax = max([r["gbps"] for r in rows] + [m["gbps"] for m in memcpy] + [1.0])
    for yi, r in zip(y, rows):
        wrong = r["correct"] != "PASS"
        label = f'{r["gbps"]:.0f} ({r["frac_memcpy"]:.2f})' + ("  WRONG OUTPUT" if wrong else "")
        ax.text(r["gbps"] + xmax * 0.005, yi, label, va="center", fontsize=7, color="red" if wrong else "black")
    handles = []
    for tier in TIER_ORDER[:-1]:
        if any(r["tier"] == tier for r in rows):
            label = {"cub": "CUB peers", "async": "async loads (vector-tier stores)"}.get(tier, f"{tier} tier")
            handles.append(Patch(color=TIER_COLOR[tier], label=label))
    if memcpy:
        m = memcpy[0]["gbps"]
        handles.append(ax.axvline(m, color=TIER_COLOR["memcpy"], lw=1.5, label=f"cudaMemcpy d2d {m:.0f} GB/s"))
        for tier, frac in TARGETS.items():
            handles.append(ax.axvline(m * frac, color=TIER_COLOR[tier], lw=1, ls="--",
                                      label=f"{tier} target {frac:.2f} x memcpy"))
    ax.set_xlim(0, xmax * 1.22)
    ax.set_ylim(-0.8, len(rows) - 0.2)
    ax.set_xlabel("GB/s (read + write bytes / median time)   labels: GB/s (fraction of memcpy)")
    first = (memcpy or rows)[0]
    title = args.title or "copy_bench: {}, commit {}, {}".format(
        first.get("device", "?"), first.get("commit", "?"), first.get("date", "?"))
    ax.set_title(title, fontsize=10)
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=3, fontsize=7, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    out = args.out or os.path.splitext(args.csv)[0] + ".png"
    fig.savefig(out, dpi=120)
    print(f"plot.py: {len(rows) + len(memcpy)} rows -> {out}")


if __name__ == "__main__":
    main()
