"""20260220_users_bootstrap: owner choice, one user per distinct connector key (reference §6.2)."""

from __future__ import annotations

from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from tests.core.migrations.helpers import migrate
from tests.core.migrations.test_import_agents import STATE, write_agent

UP_TO_BOOTSTRAP = MIGRATIONS[:4]


def test_owner_is_first_connector_key_by_created_at_and_duplicates_share_a_user(tmp_path):
    write_agent(tmp_path, "late", {"type": "user", "connector": "telegram", "userId": "1"}, {**STATE, "createdAt": 300})
    write_agent(tmp_path, "early", {"type": "user", "connector": " slack ", "userId": " 9 "}, {**STATE, "createdAt": 100})
    write_agent(tmp_path, "dup", {"type": "user", "connector": "telegram", "userId": "1"}, {**STATE, "createdAt": 400})
    write_agent(tmp_path, "blank", {"type": "user", "connector": "telegram", "userId": "  "}, {**STATE, "createdAt": 50})
    write_agent(tmp_path, "cron", {"type": "cron", "id": "c"}, {**STATE, "createdAt": 10})
    conn = migrate(tmp_path, migrations=UP_TO_BOOTSTRAP)
    keys = dict(conn.execute("SELECT connector_key, user_id FROM user_connector_keys ORDER BY id"))
    assert list(keys) == ["slack:9", "telegram:1"]
    owner = conn.execute("SELECT id FROM users WHERE is_owner = 1").fetchone()[0]
    assert keys["slack:9"] == owner
    assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 2
    agents = dict(conn.execute("SELECT id, user_id FROM agents"))
    assert agents == {"late": keys["telegram:1"], "dup": keys["telegram:1"], "early": owner, "blank": owner, "cron": owner}
    default = {r[1]: r[4] for r in conn.execute("PRAGMA table_info(agents)")}["user_id"]
    assert default == f"'{owner}'"


def test_no_user_agent_gives_a_bare_owner(tmp_path):
    conn = migrate(tmp_path, migrations=UP_TO_BOOTSTRAP)
    assert conn.execute("SELECT is_owner FROM users").fetchall() == [(1,)]
    assert conn.execute("SELECT COUNT(*) FROM user_connector_keys").fetchone()[0] == 0


def test_nametags_are_words_plus_three_digits_and_deterministic_with_a_seed(tmp_path):
    import re

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    tag_a = migrate(tmp_path / "a", seed=7).execute("SELECT nametag FROM users").fetchone()[0]
    tag_b = migrate(tmp_path / "b", seed=7).execute("SELECT nametag FROM users").fetchone()[0]
    assert tag_a == tag_b and re.fullmatch(r"[a-z]+\d{3}", tag_a)
