"""Every command piped into a reader that goes away (``| head``): a quiet exit 0, no traceback, no
"Exception ignored" at exit (issue 34, item 6). The reader's end is closed before the command starts, so its
first write meets the closed pipe whatever the size of its output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    from daycare_gui.stores.daycare.demo import write_demo
    from daycare_gui.stores.linggen import write_demo as write_linggen

    root = tmp_path_factory.mktemp("pipe")
    summary = write_demo(root / "daycare")
    write_linggen(root / "linggen")
    return root, summary


def run_into_closed_pipe(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line is written
    try:
        return subprocess.run([sys.executable, "-m", "daycare_gui.cli", *args], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=300, cwd=cwd,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
    finally:
        os.close(write_end)


def _commands(root: Path, summary) -> dict[str, list[str]]:
    daycare, linggen, index = root / "daycare", root / "linggen", root / "index"
    session = summary.largest_session_id
    return {
        "inspect": ["inspect", str(daycare)],
        "inspect --json": ["inspect", str(daycare), "--json"],
        "inspect linggen --json": ["inspect", str(linggen), "--json"],
        "search sqlite": ["search", str(daycare), "the", "--index-dir", str(index)],
        "search linggen": ["search", str(linggen), "test", "--index-dir", str(index)],
        "search --json": ["search", str(linggen), "test", "--json", "--index-dir", str(index)],
        "export md": ["export", str(daycare), f"session:{session}"],
        "export html": ["export", str(daycare), f"session:{session}", "--format", "html"],
        "demo": ["demo", str(root / "new-demo"), "--now", "fixed"],
        "upgrade --dry-run": ["upgrade", str(daycare), "--dry-run"],
        "edit --check": ["edit", str(next(daycare.rglob("TASK.md"))), "--set", "title=Other", "--check"],
    }


@pytest.mark.parametrize("name", ["inspect", "inspect --json", "inspect linggen --json", "search sqlite",
                                  "search linggen", "search --json", "export md", "export html", "demo",
                                  "upgrade --dry-run", "edit --check"])
def test_a_closed_pipe_is_a_quiet_exit(name, stores, tmp_path):
    root, summary = stores
    args = _commands(root, summary)[name]
    done = run_into_closed_pipe(args, tmp_path)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert "BrokenPipe" not in done.stderr and "Broken pipe" not in done.stderr
    assert done.returncode == 0, done.stderr
