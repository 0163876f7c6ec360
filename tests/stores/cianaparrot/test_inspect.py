"""``inspect --json`` says an empty deployment is empty, as it does for Daycare and Linggen (generation
"empty"), so a script can tell one the bot has not stored anything in from one whose things it lists."""

from __future__ import annotations

import json
import shutil
import sqlite3

from daycare_gui.cli import main
from tests.stores.cianaparrot.builder import checkpoints_copy


def _inspect(path, capsys) -> dict:
    assert main(["inspect", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _fresh(root):
    """A deployment as a checkout leaves it before the bot's first run: config, empty data/, the workspace's
    shipped Markdown."""
    (root / "data").mkdir(parents=True)
    (root / "workspace").mkdir()
    (root / "workspace" / "IDENTITY.md").write_text("# Ciana\n")
    (root / "config.yaml").write_text("agent:\n  workspace: ./workspace\n  data_dir: ./data\n"
                                      "scheduler:\n  enabled: true\n")
    return root


def test_an_empty_deployment_is_said_to_be_empty(tmp_path, capsys):
    root = _fresh(tmp_path / "bot")
    report = _inspect(root, capsys)
    assert report["kind"] == "cianaparrot" and report["generation"] == "empty"
    assert report["counts"]["threads"] == 0 and report["counts"]["scheduled_tasks"] == 0
    # the bot ran once and stored nothing yet: its tables, an empty task list, no counters or states
    db = checkpoints_copy(root / "data" / "checkpoints.db")
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM checkpoints")
        conn.execute("DELETE FROM writes")
    conn.close()
    (root / "data" / "scheduled_tasks.json").write_text("[]")
    (root / "data" / "session_counters.json").write_text("{}")
    (root / "data" / "cc_user_states.json").write_text("{}")
    assert _inspect(root, capsys)["generation"] == "empty"
    alone = tmp_path / "elsewhere" / "checkpoints.db"
    alone.parent.mkdir()
    shutil.copyfile(db, alone)
    assert _inspect(alone, capsys)["generation"] == "empty"  # the database alone too


def test_a_deployment_holding_anything_or_hiding_it_is_not_empty(tmp_path, capsys, deployment):
    assert _inspect(deployment, capsys)["generation"] == "langgraph-sqlite"
    root = _fresh(tmp_path / "bot")
    tasks = root / "data" / "scheduled_tasks.json"
    tasks.write_text('[{"id": "a1b2c3d4", "prompt": "Hi", "type": "interval", "value": 60}]')
    assert _inspect(root, capsys)["generation"] == "files-only"  # one task, no database yet
    tasks.write_text('[{"id": "a1b2c3d4", "prompt": "Hi", "ty')  # cut short: what it holds is unknown
    assert _inspect(root, capsys)["generation"] == "files-only"
    tasks.unlink()
    (root / "workspace" / "sessions").mkdir()
    (root / "workspace" / "sessions" / "telegram_1.jsonl").write_text(
        '{"role": "user", "content": "hello", "ts": "2026-04-02T09:00:00+00:00"}\n')
    assert _inspect(root, capsys)["generation"] == "files-only"
