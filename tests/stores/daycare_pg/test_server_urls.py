"""PostgreSQL URLs as libpq reads them (issue #32): a list of hosts opens, a bad port or a missing password
is said in one masked sentence (exit 2), never a traceback, and the message keeps its separator."""

from __future__ import annotations

import json

import pytest

from daycare_gui.cli import main
from tests.pg_helpers import PASSWORD, _free_port


def _inspect(capsys, url: str, *extra: str) -> tuple[int, str, str]:
    code = main(["inspect", url, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_list_of_hosts_opens_on_the_one_that_answers(pg_server, pg_demo_url, capsys):
    closed = _free_port()  # nothing listens there: libpq goes on to the next host
    url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{closed},127.0.0.1:{pg_server.port}/daycare_demo"
    code, out, err = _inspect(capsys, url, "--json")
    assert code == 0, err
    assert json.loads(out)["generation"] == "postgres"
    assert PASSWORD not in out + err and "Traceback" not in err


@pytest.mark.parametrize("hosts", ["127.0.0.1:notaport", "127.0.0.1:99999", "127.0.0.1:1,127.0.0.1:x"])
def test_a_bad_port_is_refused_in_one_masked_sentence(hosts, capsys):
    code, out, err = _inspect(capsys, f"postgresql://u:Pw-Secret-41@{hosts}/db")
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "Pw-Secret-41" not in out + err and "u:••••••••@" in err and "cannot connect to" in err


def test_a_password_in_the_query_is_masked_and_the_reason_follows_a_separator(pg_server, capsys):
    url = f"postgresql://postgres@127.0.0.1:{pg_server.port}/postgres?password=wrong-Secret-77"
    code, _out, err = _inspect(capsys, url)
    assert code == 2 and "wrong-Secret-77" not in err
    assert "?password=••••••••: " in err  # the URL, then ": ", then why


def test_a_server_asking_for_a_password_it_was_not_given_says_where_to_put_it(pg_server, monkeypatch, capsys,
                                                                              tmp_path):
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no-pgpass"))
    code, _out, err = _inspect(capsys, pg_server.url(password=None))
    assert code == 2
    assert err.strip().endswith("this server needs a password: set PGPASSWORD or add it to ~/.pgpass")
