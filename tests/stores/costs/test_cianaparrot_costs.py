"""CianaParrot's costs (#37) to the cent: the demo's checkpoints read here with sqlite3 and msgpack, every
AIMessage counted once per thread by its id (each later checkpoint and the step's write repeat it, the largest
output kept), priced with genai-prices directly; the page's total per model equals it and drills down to it."""

from __future__ import annotations

import datetime as _dt
import sqlite3
import uuid
from decimal import ROUND_HALF_UP, Decimal

import msgpack
from genai_prices import Usage as GUsage
from genai_prices import calc_price

from daycare_gui.stores import api, registry
from daycare_gui.stores.cianaparrot.demo import write_demo
from daycare_gui.stores.common.costs import compute, drill


def _cent(d: Decimal) -> Decimal:
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _ext(code, data):
    if code == 5:  # a LangChain object: [module, class, fields, method]
        return msgpack.unpackb(data, ext_hook=_ext, raw=False, strict_map_key=False)
    return None


def _ai_messages(value):
    """The AIMessages' fields anywhere in a decoded value (a write's list or a checkpoint's channel values)."""
    if isinstance(value, list) and len(value) == 4 and value[1] == "AIMessage" and isinstance(value[2], dict):
        yield value[2]
    elif isinstance(value, list):
        for item in value:
            yield from _ai_messages(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ai_messages(item)


def _uuid6_ms(cid: str) -> int:
    u = uuid.UUID(cid)
    ticks = ((u.int >> 64) >> 16 << 12) | ((u.int >> 64) & 0x0FFF)  # time_high/mid/low of a version-6 id
    return (ticks - 0x01B21DD213814000) // 10_000


def test_demo_total_per_model_equals_its_messages_priced_once_each(tmp_path):
    root = tmp_path / "ciana"
    write_demo(root)
    conn = sqlite3.connect(f"file:{root / 'data' / 'checkpoints.db'}?immutable=1", uri=True)
    best: dict[tuple[str, str], tuple[dict, int]] = {}  # (thread, message id) → (fields, first time seen)
    copies = 0
    rows = [(t, c, blob) for t, c, blob in conn.execute(
        "SELECT thread_id, checkpoint_id, checkpoint FROM checkpoints ORDER BY checkpoint_id")]
    rows += list(conn.execute("SELECT thread_id, checkpoint_id, value FROM writes WHERE channel = 'messages' "
                              "ORDER BY checkpoint_id"))
    for thread, cid, blob in rows:
        for fields in _ai_messages(msgpack.unpackb(blob, ext_hook=_ext, raw=False, strict_map_key=False)):
            usage = fields.get("usage_metadata")
            if not usage:
                continue
            copies += 1
            key = (thread, fields["id"])
            seen = best.get(key)
            at = min(_uuid6_ms(cid), seen[1]) if seen else _uuid6_ms(cid)
            if seen is None or usage["output_tokens"] > seen[0]["usage_metadata"]["output_tokens"]:
                best[key] = (fields, at)
            else:
                best[key] = (seen[0], at)
    conn.close()
    expected: dict[str, Decimal] = {}
    for fields, at in best.values():
        u, meta = fields["usage_metadata"], fields["response_metadata"]
        read = (u.get("input_token_details") or {}).get("cache_read", 0)
        price = calc_price(GUsage(input_tokens=u["input_tokens"], output_tokens=u["output_tokens"],
                                  cache_read_tokens=read), model_ref=meta["model_name"],
                           provider_id=meta["model_provider"],
                           genai_request_timestamp=_dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc))
        label = f"{meta['model_provider']} / {meta['model_name']}"
        expected[label] = expected.get(label, Decimal(0)) + price.total_price
    assert copies > 2 * len(best) and len(best) == 9  # each answer is stored many times, counted once here

    with registry.open_store(root) as opened:
        usage = opened.capability(api.Usage)
        report = compute(usage, "model")
        assert not report.unpriced and report.overall.records == len(best)
        assert {t.label: _cent(t.usd) for t in report.totals} == {k: _cent(v) for k, v in expected.items()}
        assert report.overall.usd == sum(expected.values())  # exact, not only to the cent
        assert report.overall.cache_read == 80  # the chat's second turn read its start from the cache
        for by in ("model", "day", "agent", "task", "user", "session"):
            for total in compute(usage, by).totals:
                assert sum(p.price.usd for p in drill(usage, total.keys)) == total.usd, (by, total.label)
        by_task = {t.label: t for t in compute(usage, "task").totals}
        assert by_task["a1b2c3d4"].records == 5 and by_task["a1b2c3d4"].usd > 0  # the scheduled forecast's calls
