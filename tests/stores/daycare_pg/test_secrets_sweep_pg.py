"""The secrets sweep (tests/crash/test_secrets_sweep.py) on today's Daycare on a PostgreSQL server: planted
process-env credentials and verification values never show in inspect, search or any capability record."""

from __future__ import annotations

import json

from sqlalchemy import create_engine, text

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.daycare.pg.open import sqlalchemy_url
from tests.crash import sweep

SECRETS = ("sweep-pg-env-key-3c5e7a9b", "sweepPgDbPw42q", "sweep-pg-verify-8d6f")


def test_planted_secrets_never_shown(pg_fresh_url, capsys, tmp_path, monkeypatch):
    engine = create_engine(sqlalchemy_url(pg_fresh_url))
    env = {"OPENAI_API_KEY": SECRETS[0], "DATABASE_URL": f"postgres://app:{SECRETS[1]}@db.test/app"}
    with engine.begin() as conn:
        conn.execute(text("UPDATE processes SET env = CAST(:e AS jsonb)"), {"e": json.dumps(env)})
        conn.execute(text("INSERT INTO app_auth_verifications (id, identifier, value, expires_at, created_at, "
                          "updated_at) VALUES ('v1', 'ada@example.test', :v, now(), now(), now())"),
                     {"v": SECRETS[2]})
    engine.dispose()
    with registry.open_store(pg_fresh_url) as store:
        for record in sweep.texts(store):
            assert not sweep.leaks(record, SECRETS), record[:200]
    main(["inspect", "--json", pg_fresh_url])
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    main(["search", pg_fresh_url, "blog", "--json"])
    captured = capsys.readouterr()
    assert not sweep.leaks(captured.out + captured.err, SECRETS)
