#!/usr/bin/env bash
# The pandas recipes of docs/metrics.md ("Data frames") on real reports: the code blocks of
# that section are run as they stand (read from the doc, so the doc cannot drift from what is
# tested) on the CSV and the JSON of a real --compare with --phases and --verify, and the frames
# they give are checked against each other and against the reports. Skipped (77) only when
# python3 has no pandas (Debian: python3-pandas, which tools/install-deps.sh --test installs).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
if ! "$PY" -c 'import pandas' 2>/dev/null; then
  echo "SKIP: no pandas for $PY (apt-get install python3-pandas)"
  exit 77
fi
DOC=$(cd "$(dirname "$0")/../.." && pwd)/docs/metrics.md

# One small comparison per format: its points, 2 repetitions, the stat phase, the verify phase
# and the final removal (no remove phase: the removal then has every file to remove).
args=(--compare -r 2 --warmup 0 --phases write,stat --verify -n 12 -l 2)
for format in csv json; do
  note "${args[*]} --format $format, $RANKS ranks"
  run_mpiwrite -d "$WORK/$format" "${args[@]}" --format "$format" -o "$WORK/report.$format"
  expect_status 0
done

"$PY" - "$DOC" "$WORK/report.csv" "$WORK/report.json" "$RANKS" <<'PY'
import json, re, sys
import pandas as pd

doc_path, csv_path, json_path, ranks = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
n, r = 12, 2  # -n, -r above

def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")

def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))

# The python blocks of the section, in order: the CSV's, then the JSON's.
doc = open(doc_path).read()
section = doc.split("\n## Data frames (pandas)\n", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```python\n(.*?)```", section, re.S)
check(len(blocks) == 2, f"docs/metrics.md: 2 python blocks under Data frames, found {len(blocks)}")

def run(block, path):
    scope = {"pd": pd, "json": json, "f": path}
    exec(block, scope)
    return scope

# -- CSV ------------------------------------------------------------------------------------
csv = run(blocks[0], csv_path)
df, reps = csv["df"], csv["reps"]
kinds = set(df["row"])
for kind in ("repetition", "median", "phase", "verdict", "removal"):
    check(kind in kinds, f"CSV: no {kind} row (kinds: {sorted(kinds)})")
point_keys = ["mode", "ranks", "threads", "layout", "engine", "queue_depth"]
per_point = reps.groupby(point_keys).size()
check(len(per_point) >= 3 and (per_point == r).all(),
      f"CSV: {r} repetition rows per point: {per_point}")
check((reps["files"] == n).all(), "CSV: files per repetition")
check((reps["verify_files_checked"] == n).all() and (reps["verify_mismatches"] == 0).all(),
      "CSV: the verify phase checked every file, no mismatch")
check((reps["verify_s"] > 0).all(), "CSV: verify_s")
check((reps["concurrency"] == reps["ranks"] * reps["threads"]).all(), "CSV: concurrency")
check(close(reps["stat_files_per_s"].iloc[0],
            reps["stat_files"].iloc[0] / reps["stat_makespan_s"].iloc[0]), "CSV: stat rate")

phases = df[df.row == "phase"]
check(len(phases) == 2 * len(per_point), f"CSV: a phase row per point and phase, got {len(phases)}")
check(set(phases["phase"]) == {"write", "stat"}, f"CSV: phases {set(phases['phase'])}")
for _, row in phases.iterrows():
    check(row["items"] == n, "CSV: a phase row's items")
    check(close(row["items_per_s"], row["items"] / row["elapsed_s"]),
          f"CSV: {row['phase']} rate = items / median makespan")
    mine = reps[(reps[point_keys] == row[point_keys]).all(axis=1)]
    column = "elapsed_s" if row["phase"] == "write" else f"{row['phase']}_makespan_s"
    check(close(row["elapsed_s"], mine[column].median()),
          f"CSV: the {row['phase']} row's median makespan is its repetitions' median")
# The write phase's row says what the median row does.
medians = df[df.row == "median"].set_index(point_keys)["elapsed_s"]
writes = phases[phases.phase == "write"].set_index(point_keys)["elapsed_s"]
check(all(close(writes[k], medians[k]) for k in medians.index),
      "CSV: the write phase rows and the median rows agree")
# Each phase row has its speedup and efficiency against the baseline's (1x1) same phase (issue
# 23): the write row's is the median row's; stat times the same files at every point, so its
# speedup is the ratio of its median makespans, and its efficiency that over the concurrency.
check(phases["speedup"].notna().all() and phases["efficiency"].notna().all(),
      f"CSV: every phase row has a speedup and an efficiency: {phases[['phase', 'speedup']]}")
speedups = df[df.row == "median"].set_index(point_keys)["speedup"]
write_speedups = phases[phases.phase == "write"].set_index(point_keys)["speedup"]
check(all(close(write_speedups[k], speedups[k]) for k in speedups.index),
      "CSV: the write phase rows' speedups are the median rows'")
stat = phases[phases.phase == "stat"]
base = stat[(stat.ranks == 1) & (stat.threads == 1)]["elapsed_s"]
check(len(base) == 1, "CSV: one 1x1 stat row")
for _, row in stat.iterrows():
    check(close(row["speedup"], base.iloc[0] / row["elapsed_s"]),
          f"CSV: stat speedup = baseline's median / this median: {row.to_dict()}")
    check(close(row["efficiency"], row["speedup"] / row["concurrency"]),
          f"CSV: stat efficiency = speedup / concurrency: {row.to_dict()}")

verdicts = df[df.row == "verdict"]
check(len(verdicts) > 0 and len(verdicts) % 2 == 0, f"CSV: verdict rows {len(verdicts)}")
check(list(verdicts["phase"]) == ["write", "stat"] * (len(verdicts) // 2),
      f"CSV: a verdict per comparison row and phase: {list(verdicts['phase'])}")
check(set(verdicts["concurrency"]) == set(reps["concurrency"]), "CSV: verdicts' concurrencies")
decided = verdicts[verdicts["fastest"].notna()]
check(len(decided) > 0 and decided["outcome"].notna().all()
      and decided["p_value"].between(0, 1).all() and (decided["ratio"] >= 1).all(),
      "CSV: the decided verdicts have an outcome, a p-value and a ratio")

removal = df[df.row == "removal"]
check(len(removal) == 1, "CSV: one removal row")
files_written = n * r * len(per_point)
check(removal["removal_files"].iloc[0] == files_written and removal["removal_s"].iloc[0] > 0
      and str(removal["removal_failed"].iloc[0]).lower() == "false",
      f"CSV: removal {removal.iloc[0].to_dict()}")

# -- JSON -----------------------------------------------------------------------------------
js = run(blocks[1], json_path)
report, reps = js["report"], js["reps"]
points = report["points"]
check(len(reps) == sum(len(p["repetitions"]) for p in points) == r * len(points),
      f"JSON: a row per repetition, got {len(reps)}")
check((reps.groupby(["mode", "label"]).size() == r).all(), "JSON: rows per point = repetitions")
check(len(points) == len(per_point), "JSON and CSV: the same points")
for p in points:
    mine = reps[(reps["mode"] == p["mode"]) & (reps["label"] == p["label"])]
    check((mine["ranks"] == p["ranks"]).all() and (mine["threads"] == p["threads"]).all(),
          f"JSON: {p['label']}: ranks and threads as metadata")
for phase in ("write", "stat"):
    rate = reps[f"phases.{phase}.files"] / reps[f"phases.{phase}.makespan_s"]
    check(all(close(a, b) for a, b in zip(rate, reps[f"phases.{phase}.files_per_s"])),
          f"JSON: {phase} rate = files / makespan")
check((reps["verify.files_checked"] == n).all(), "JSON: verify flattened")
# The deeper levels with a point's keys as metadata: a rank's and a host's rows.
per_rank = pd.json_normalize(points, ["repetitions", "per_rank"],
                             meta=["mode", "label", "ranks", ["repetitions", "index"]])
check(len(per_rank) == sum(p["ranks"] * len(p["repetitions"]) for p in points),
      "JSON: a row per point, repetition and rank")
files = per_rank.groupby(["mode", "label", "repetitions.index"])["files"].sum()
check((files == n).all(), "JSON: a repetition's ranks' files add up")
hosts = pd.json_normalize(points, ["repetitions", "hosts"], meta=["mode", "label", "ranks"])
check(len(hosts) == len(reps), "JSON: a host row per repetition (one host)")

# The rule behind it: where json_normalize meets keys of different levels (a record's and its
# parents' taken as metadata), no key is a number in one place and a list in another. (Keys
# inside config, summary and the like come out prefixed, "config.repetitions", and never meet.)
records = [report] + points + report.get("comparison", []) + report["context"]["hosts"]
for p in points:
    records += p["summary"]["hosts"]
    for rep in p["repetitions"]:
        records += [rep] + rep["per_rank"] + rep["hosts"]
kinds = {}
for record in records:
    for key, value in record.items():
        if isinstance(value, list):
            kinds.setdefault(key, set()).add("list")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            kinds.setdefault(key, set()).add("number")
both = sorted(k for k, v in kinds.items() if len(v) == 2)
check(not both, f"JSON: keys that are a number in one place and a list in another: {both}")
# And every key of a point as metadata of its repetitions, not only the recipe's.
meta = [k for k in points[0] if k != "repetitions"]
wide = pd.json_normalize(points, "repetitions", meta=meta)
check(len(wide) == len(reps), "JSON: every point key as metadata")
print(f"pandas recipes: CSV {len(df)} rows ({len(phases)} phase, {len(verdicts)} verdict rows), "
      f"JSON {len(points)} points, {len(reps)} repetition rows: ok")
PY
