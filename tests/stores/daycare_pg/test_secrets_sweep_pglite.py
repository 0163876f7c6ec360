"""The secrets sweep on a PGlite store: credentials planted in the processes' environment, an exposed
endpoint's password hash (the expose_endpoints table stores bootstrapped in early March 2026 keep), auth
accounts' tokens and passwords, verification values, and the auth.json/settings.json beside the database,
never show in ``inspect --json`` or any record a capability hands the window."""

from __future__ import annotations

import json
import shutil

from sqlalchemy import create_engine, text

from daycare_gui.cli import main
from daycare_gui.stores import registry
from tests.crash import sweep

SECRETS = ("sweep-pglite-env-key-1a2b3c", "sweepPgliteDbPw55", "$2b$10$sweepExposeHashSweepExposeHash",
           "sweep-pglite-access-token-9z", "sweepPglitePassword77", "sweep-pglite-verify-4x",
           "sk-sweep-pglite-auth-0f1e2d", "sk-sweep-pglite-provider-3c4b5a")


def _plant(folder) -> None:
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    server = PgliteServer(folder, ensure_runtime(), copy=False)
    try:
        engine = create_engine(server.url)
        env = {"OPENAI_API_KEY": SECRETS[0], "DATABASE_URL": f"postgres://app:{SECRETS[1]}@db.test/app"}
        with engine.begin() as conn:
            conn.execute(text("UPDATE processes SET env = CAST(:e AS jsonb)"), {"e": json.dumps(env)})
            conn.execute(text('CREATE TABLE IF NOT EXISTS expose_endpoints (id text PRIMARY KEY, user_id text NOT '
                              'NULL, target jsonb NOT NULL, domain text, auth jsonb, created_at bigint NOT NULL, '
                              'updated_at bigint NOT NULL)'))
            conn.execute(text("INSERT INTO expose_endpoints VALUES ('e1', 'u1', '{\"type\": \"port\", \"port\": 8080}', "
                              "'blog.example.test', CAST(:a AS jsonb), 1, 1)"),
                         {"a": json.dumps({"enabled": True, "passwordHash": SECRETS[2]})})
            conn.execute(text("INSERT INTO app_auth_verifications (id, identifier, value, expires_at, created_at, "
                              "updated_at) VALUES ('v1', 'ada@example.test', :v, now(), now(), now())"),
                         {"v": SECRETS[5]})
            cols = [r[0] for r in conn.execute(text("SELECT column_name FROM information_schema.columns "
                                                    "WHERE table_name = 'app_auth_accounts'"))]
            if {"access_token", "password"} <= set(cols):
                conn.execute(text("UPDATE app_auth_accounts SET access_token = :t, password = :p"),
                             {"t": SECRETS[3], "p": SECRETS[4]})
        engine.dispose()
    finally:
        server.close()


def test_planted_secrets_never_shown_in_a_pglite_store(pglite_demo_master, tmp_path, capsys):
    root = tmp_path / "store"
    shutil.copytree(pglite_demo_master, root)
    _plant(root / "daycare.pglite")
    (root / "auth.json").write_text(json.dumps({"openai": {"type": "apiKey", "apiKey": SECRETS[6]}}))
    (root / "settings.json").write_text(json.dumps({"providers": [{"id": "openai", "options": {
        "apiKey": SECRETS[7], "baseUrl": f"https://me:{SECRETS[1]}@proxy.test/v1"}}]}))
    with registry.open_store(root) as store:
        for record in sweep.texts(store):
            assert not sweep.leaks(record, SECRETS), record[:300]
        assert not sweep.leaks(json.dumps(store.report(), default=str), SECRETS)
    main(["inspect", "--json", str(root)])
    captured = capsys.readouterr()
    assert not sweep.leaks(captured.out + captured.err, SECRETS)
