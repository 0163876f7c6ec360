"""Cache efficiency per session and per model (#37): the share of input read from the cache and what those
reads saved against paying them as uncached input, checked against the demo's rows read here with sqlite3 and
priced with genai-prices directly; each line names its agent beside the session id."""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from decimal import Decimal

from genai_prices import Usage as GUsage
from genai_prices import calc_price

from daycare_gui import cli
from daycare_gui.stores.daycare.demo import write_demo


def _price(provider, model, at, inp, out, read, write) -> Decimal:
    return calc_price(GUsage(input_tokens=inp + read + write, output_tokens=out, cache_read_tokens=read,
                             cache_write_tokens=write), model_ref=model, provider_id=provider,
                      genai_request_timestamp=_dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc)).total_price


def test_cache_reads_share_and_savings_per_session_and_model_equal_the_raw_rows(tmp_path, capsys):
    root = tmp_path / "store"
    write_demo(root)
    conn = sqlite3.connect(f"file:{root / 'daycare.db'}?immutable=1", uri=True)
    rows = conn.execute("SELECT h.session_id, s.agent_id, h.at, json_extract(h.data, '$.tokens') FROM session_history h "
                        "JOIN sessions s ON s.id = h.session_id "
                        "WHERE h.type = 'assistant_message' AND json_extract(h.data, '$.tokens.size') IS NOT NULL")
    per_session: dict[str, list] = {}
    per_model: dict[str, list] = {}
    names: dict[str, str] = {}
    for sid, agent, at, raw in rows:
        t = json.loads(raw)
        s = t["size"]
        inp, out, read, write = s["input"], s["output"], s.get("cacheRead") or 0, s.get("cacheWrite") or 0
        model = f"{t['provider']} / {t['model']}"
        saved = (_price(t["provider"], t["model"], at, inp + read, out, 0, write)
                 - _price(t["provider"], t["model"], at, inp, out, read, write))
        for key, into in (((sid, model), per_session), (model, per_model)):
            acc = into.setdefault(key, [0, 0, Decimal(0)])
            acc[0], acc[1], acc[2] = acc[0] + read, acc[1] + inp + read + write, acc[2] + saved
        names[sid] = agent
    conn.close()
    assert cli.main(["costs", str(root), "--by", "agent", "--json"]) == 0  # what the agents are called
    titles = {t["group"]: t["label"] for t in json.loads(capsys.readouterr().out)["totals"]}
    names = {sid: titles[agent] for sid, agent in names.items()}
    assert cli.main(["costs", str(root), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by_session = {tuple(t["group"].split("\t")): t for t in out["cache_by_session"]}
    expected = {k: v for k, v in per_session.items() if v[0]}
    assert set(by_session) == set(expected) and len(expected) >= 5
    for key, (read, seen, saved) in expected.items():
        t = by_session[key]
        assert t["cache_read_share"] == read / seen and Decimal(t["saved_by_cache_usd"]) == saved > 0
        assert t["label"].startswith(f"{names[key[0]]} / {key[0]} · ")  # its agent, then the session
    by_model = {t["group"]: t for t in out["cache_by_model"]}
    for model, (read, seen, saved) in per_model.items():
        assert by_model[model]["cache_read_share"] == read / seen
        assert Decimal(by_model[model]["saved_by_cache_usd"]) == saved
    assert cli.main(["costs", str(root)]) == 0
    text = capsys.readouterr().out
    best = max(expected, key=lambda k: expected[k][2])
    assert f"{names[best[0]]} / {best[0]}" in text.split("Cache reads by session and model")[1]
