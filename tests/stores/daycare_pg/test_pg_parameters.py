"""Statements are written with SQLAlchemy's ``:name`` parameters and sent by psycopg alone (#35: SQLAlchemy
cost the window ~15 MB): casts, a literal ``%`` and an escaped colon mean what they meant under text()."""

from __future__ import annotations

from daycare_gui.stores.daycare.pg.database import PgDatabase, pyformat


def test_named_parameters_become_psycopg_s_and_the_rest_stays_sql():
    sql = "SELECT a::text, 'x%' FROM t WHERE b = :b AND c LIKE :c_2 AND d = '\\:e' AND f = :b"
    assert pyformat(sql, {"b": 1, "c_2": "y"}) == (
        "SELECT a::text, 'x%%' FROM t WHERE b = %(b)s AND c LIKE %(c_2)s AND d = ':e' AND f = %(b)s")
    assert pyformat("SELECT 5 % 3, now()::date", None) == "SELECT 5 % 3, now()::date"
    assert pyformat("SELECT :n::int", {"n": 1}) == "SELECT :n::int"  # before "::", no parameter (as text())


def test_a_server_answers_parameters_casts_and_percent_signs_as_before(pg_demo_url):
    db = PgDatabase(pg_demo_url)
    try:
        assert db.rows("SELECT CAST(:n AS int) + 1, 7 % 4, 'a%' LIKE :p", {"n": "41", "p": "a%"}) == [(42, 3, True)]
        assert db.mappings("SELECT CAST(:n AS int) AS answer", {"n": 42}) == [{"answer": 42}]
        assert db.rows("SELECT 7 % 4") == [(3,)]
        assert db.scalar("SHOW transaction_read_only") == "on"
    finally:
        db.close()
