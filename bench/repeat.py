"""A command asked again of an unchanged store: ``search`` and ``inspect`` on the PGlite demo beside the same
command on the SQLite demo, whole processes, measured in the same run (#35).

    python bench/repeat.py [--runs N] [--cache DIR]

Writes (once, into ``--cache``, default bench/.cache/repeat) the small demo in both generations, runs each
command once on each to warm up (the first PGlite run reads the store through PGlite and keeps its answer),
then ``--runs`` times each, interleaved: ``search STORE adapter`` and ``inspect STORE``. Figures are medians
of the wall time of the whole process (interpreter start to exit) and its peak RSS (``wait4``), with the
PGlite runs that started PGlite counted (0 when the kept answer was used, as it should be). The children
get a user cache folder of their own under ``--cache`` (their search index and kept answers) and may write
bytecode (an installed application has it; PYTHONDONTWRITEBYTECODE would add compiling to both sides).
Prints a table, then one JSON line: each figure with its baseline, ratio, goal and whether it met it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

GOALS = (("search_unchanged_pglite_s", "search, unchanged PGlite demo", "search_sqlite_s", "the same search on the "
          "SQLite demo", 2.0),
         ("inspect_unchanged_pglite_s", "inspect, unchanged PGlite demo", "inspect_sqlite_s", "inspect of the SQLite "
          "demo", 3.0))


def _child_env(cache: Path) -> dict:
    from daycare_gui.stores.daycare.pg.runtime import cache_dir

    env = dict(os.environ, XDG_CACHE_HOME=str(cache / "user-cache"), PYTHONPATH=str(REPO))
    env["DAYCARE_GUI_PGLITE_DIR"] = str(cache_dir())  # the PGlite already installed, not a second install
    for name in ("PYTHONDONTWRITEBYTECODE", "DAYCARE_GUI_SEARCH_DIR"):
        env.pop(name, None)
    return env


def _ensure_demos(cache: Path, env: dict) -> tuple[Path, Path]:
    sqlite, pglite = cache / "sqlite", cache / "pglite"
    for folder, extra in ((sqlite, []), (pglite, ["--generation", "pglite"])):
        if not (folder / "settings.json").is_file():
            print(f"writing the demo into {folder} (once)…", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "daycare_gui", "demo", str(folder), *extra, "--now", "fixed",
                            "--quiet"], check=True, cwd=REPO, env=env, stdout=sys.stderr)
    return sqlite, pglite


def _measure(argv: list[str], env: dict) -> tuple[float, float, str]:
    """(seconds, peak RSS in MB, stderr) of one whole process."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "daycare_gui", *argv], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {err.decode(errors='replace')[-500:]}")
    return seconds, usage.ru_maxrss / 1024, err.decode(errors="replace")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=HERE / ".cache" / "repeat")
    args = parser.parse_args()
    env = _child_env(args.cache)
    sqlite, pglite = _ensure_demos(args.cache, env)
    commands = {"search_sqlite_s": ["search", str(sqlite), "adapter"],
                "search_unchanged_pglite_s": ["search", str(pglite), "adapter"],
                "inspect_sqlite_s": ["inspect", str(sqlite)],
                "inspect_unchanged_pglite_s": ["inspect", str(pglite)]}
    first = {key: _measure(argv, env)[0] for key, argv in commands.items()}  # warm-up; PGlite keeps its answer
    times: dict[str, list[float]] = {key: [] for key in commands}
    peaks: dict[str, list[float]] = {key: [] for key in commands}
    pglite_started = 0
    for _ in range(max(1, args.runs)):
        for key, argv in commands.items():
            seconds, peak, err = _measure(argv, env)
            times[key].append(seconds)
            peaks[key].append(peak)
            pglite_started += "Starting PGlite" in err
    m = {key: statistics.median(v) for key, v in times.items()}
    figures = []
    for key, label, base, base_label, goal in GOALS:
        ratio = round(m[key] / m[base], 2) if m[base] else None
        figures.append({"key": key, "label": label, "unit": "s", "value": round(m[key], 3), "baseline_key": base,
                        "baseline_label": base_label, "baseline": round(m[base], 3), "ratio": ratio,
                        "goal": f"≤ {goal}× baseline", "met": ratio is not None and ratio <= goal,
                        "peak_rss_mb": round(statistics.median(peaks[key]), 1),
                        "baseline_peak_rss_mb": round(statistics.median(peaks[base]), 1)})
    print(f"{'figure':<34}{'value':>9}{'baseline':>10}{'ratio':>7}  goal")
    for f in figures:
        print(f"{f['label']:<34}{f['value']:>8.3f}s{f['baseline']:>9.3f}s{f['ratio']:>7}  {f['goal']}"
              f"  {'met' if f['met'] else 'NOT met'}")
    print(json.dumps({"bench": "repeat", "runs": args.runs, "figures": figures,
                      "warmup_pglite_search_s": round(first["search_unchanged_pglite_s"], 3),
                      "warmup_pglite_inspect_s": round(first["inspect_unchanged_pglite_s"], 3),
                      "pglite_started_in_repeats": pglite_started,
                      "goals_met": all(f["met"] for f in figures) and pglite_started == 0}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
