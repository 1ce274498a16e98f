#!/usr/bin/python3
# The table of docs/BENCHMARKS.md from a run's build/bench.json (make
# bench writes it): one line per row with its description, the medians,
# the ratio, the fraction of the machine's limit and the target, so the
# published figures are those of one run anyone can repeat.
#   python3 scripts/bench/markdown.py [RUN.json [LATER.json ...]] > table.md
# (default build/bench.json); a row measured again in a later file
# replaces the earlier run's, keeping the first file's order.
# SPDX-License-Identifier: MIT
import json
import sys

paths = sys.argv[1:] or ["build/bench.json"]
runs = []
for path in paths:
    with open(path) as f:
        runs.append(json.load(f))
run = runs[0]
later = {row["name"]: row for r in runs[1:] for row in r["rows"]}
run["rows"] = [later.get(row["name"], row) for row in run["rows"]]


def number(v):
    if v is None:
        return "-"
    if v >= 100:
        return "{:,.0f}".format(v)
    if v >= 10:
        return "{:.1f}".format(v)
    return "{:.3g}".format(v)


def ratio(v):
    return "-" if v is None else "{:.2f}".format(v) if v >= 0.095 else "{:.2g}".format(v)


print("| row | what | Luma | peer | ratio | limit | target |")
print("|---|---|---|---|---|---|---|")
for row in run["rows"]:
    unit = row.get("unit", "")
    luma = row.get("luma") or {}
    peer = row.get("peer") or {}
    peer_text = "{} {} {}".format(peer.get("name", "-"), number(peer.get("median")), unit) \
        if peer.get("median") is not None else "{} (skipped)".format(peer.get("name", "-"))
    limit = row.get("limit") or {}
    limit_text = "{:.0f}% of {}".format(100 * limit["fraction"],
                                        "bandwidth" if limit["kind"] == "bandwidth" else "dgemm") \
        if limit.get("fraction") is not None else "-"
    target = row.get("target") or {}
    if "max_ratio" in target:
        target_text = "<= {:.3g} ({})".format(target["max_ratio"], "met" if target.get("pass") else "not met")
    elif "max" in target:
        target_text = "< {:g} {} ({})".format(target["max"], unit, "met" if target.get("pass") else "not met")
    else:
        target_text = "-"
    print("| `{}` | {} | {} {} | {} | {} | {} | {} |".format(
        row["name"], row.get("about", ""), number(luma.get("median")), unit, peer_text,
        ratio(row.get("ratio")), limit_text, target_text))
print()
again = [row["name"] for r in runs[1:] for row in r["rows"]]
print("From the run of {}{}.".format(run.get("generated", "?"), "; measured again later: " + ", ".join(
    "`{}`".format(name) for name in again) if again else ""))
