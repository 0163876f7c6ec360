"""bench/run.py on a small demo store: it still runs end to end, and leaves nothing behind in the temporary
folder, neither when it finishes nor when it is interrupted (Ctrl+C) while a child is measuring."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from daycare_gui.stores.daycare.demo import write_demo

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench" / "run.py"


@pytest.fixture
def bench_env(tmp_path):
    store = tmp_path / "store" / "daycare"
    write_demo(store)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), QT_QPA_PLATFORM="offscreen")
    args = [sys.executable, str(BENCH), "--store", str(store), "--runs", "1", "--cache", str(tmp_path / "cache")]
    return args, env, temp


def test_a_run_prints_every_figure_beside_its_baseline_and_cleans_up(bench_env):
    args, env, temp = bench_env
    out = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    keys = {f["key"] for f in result["figures"]}
    assert {"startup_to_agents_s", "session_first_page_ms", "session_last_page_ms", "scroll_10k_ms",
            "index_build_s", "peak_rss_mb", "gui_max_gap_ms"} <= keys
    for figure in result["figures"]:
        # (shown under another: "of which …", "and counted")
        part_of_another = figure["key"] in ("startup_import_s", "index_build_cpu_s", "session_link_counted_ms")
        assert figure["value"] is not None and (figure["goal"] or part_of_another)
        if figure["baseline_key"]:
            assert figure["baseline"] is not None and result[figure["baseline_key"]] == figure["baseline"]
    # every figure also on a JSON line of its own, with its baseline, ratio, goal and whether it was met
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith('{"figure"')]
    assert [line["figure"] for line in lines] == [f["key"] for f in result["figures"]]
    for line in lines:
        assert {"value", "baseline", "ratio", "goal", "met"} <= line.keys()
    # the GUI figures say where their time went: the list's rows drawn, the GUI thread's work, the waits
    profiled = {line["figure"]: line["profile"] for line in lines if "profile" in line}
    assert {"session_first_page_ms", "session_open_end_ms", "session_link_end_ms", "scroll_10k_ms"} <= profiled.keys()
    for profile in profiled.values():
        assert {"wall_ms", "gui_cpu_ms", "waited_ms", "list_paint_ms", "window_paint_ms", "worker_ms"} <= profile.keys()
    assert profiled["session_first_page_ms"]["rows_drawn"] > 0 and "decode_cpu_ms" in profiled["scroll_10k_ms"]
    # (#35) the floor beside what code can still cut: Qt laying out and drawing the rows' texts, their
    # images, the rest of the window, and the GUI thread's work that is not drawing
    scroll = profiled["scroll_10k_ms"]
    assert scroll["qt_text_cpu_ms"] > 0 and scroll["images_cpu_ms"] > 0
    assert {"qt_drawing_cpu_ms", "qt_rest_of_window_cpu_ms", "not_drawing_cpu_ms"} <= scroll.keys()
    assert scroll["qt_drawing_cpu_ms"] >= scroll["qt_text_cpu_ms"]
    assert list(temp.iterdir()) == []


def test_ctrl_c_while_a_child_measures_leaves_no_temporary_folder(bench_env, qtbot):
    args, env, temp = bench_env
    proc = subprocess.Popen(args, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        # a child is measuring once its settings file exists in the run's folder
        qtbot.waitUntil(lambda: any(temp.glob("daycare-bench-*/settings-*.ini")), timeout=120_000)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl+C in a terminal does: the whole process group
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode != 0
    assert list(temp.iterdir()) == []


def test_live_follow_figure_runs_on_a_small_store_and_cleans_up(bench_env):
    args, env, temp = bench_env
    store = args[args.index("--store") + 1]
    live = [sys.executable, str(REPO / "bench" / "live.py"), "--store", store, "--records", "40"]
    out = subprocess.run(live, env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])["live_follow"]
    for name in ("window", "poll"):
        assert result[name]["rows_shown"] == result[name]["written"] == 40
        assert result[name]["writer_busy"] == 0
        assert result[name]["p50_ms"] <= result[name]["p95_ms"] <= result[name]["max_ms"]
    assert result["window"]["followed_to_end"] and result["window"]["max_stall_ms"] is not None
    assert list(temp.iterdir()) == []
