"""Costs by user say who the user is (#37): the name the store keeps beside the id ("Alex Rivera (id)"), the
id alone where the store names no one; the same totals either way."""

from __future__ import annotations

import json
import sqlite3

from daycare_gui import cli
from daycare_gui.stores import api
from daycare_gui.stores.common.costs import compute
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.records import UsageRecord


def test_sqlite_demo_totals_by_user_carry_each_users_name(tmp_path, capsys):
    root = tmp_path / "store"
    write_demo(root)
    conn = sqlite3.connect(f"file:{root / 'daycare.db'}?immutable=1", uri=True)
    names = dict(conn.execute("SELECT id, name FROM users WHERE name IS NOT NULL"))
    conn.close()
    assert len(names) >= 2
    assert cli.main(["costs", str(root), "--by", "user", "--json"]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert {t["group"]: t["label"] for t in totals} == {uid: f"{names[uid]} ({uid})" for uid in
                                                         (t["group"] for t in totals)}
    assert cli.main(["costs", str(root), "--by", "user"]) == 0
    assert names[totals[0]["group"]] in capsys.readouterr().out  # the dearest user, by name


def test_a_store_that_names_no_one_shows_the_id():
    class Fake(api.Usage):
        def records(self, since=None):
            yield UsageRecord("a", 1_770_000_000_000, "anthropic", "claude-sonnet-4-5", input=10, user="u1")
            yield UsageRecord("b", 1_770_000_000_000, "anthropic", "claude-sonnet-4-5", input=10, user="")

    assert sorted(t.label for t in compute(Fake(), "user").totals) == ["(no user)", "u1"]
