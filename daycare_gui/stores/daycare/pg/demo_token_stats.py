"""The demo's ``token_stats_hourly`` as Daycare fills it: from the same model calls as the history records, so
the Costs page's side-by-side of the store's own cost and the recomputed one reads as on a real store.

What Daycare does (runs-costs-storage.md §2b): after each inference with real usage (``source: "usage"``),
``TokenStatsRepository.increment`` adds its tokens and its cost (pi-ai's own price, USD) to the row of its hour,
user, agent and ``"<provider>/<model>"``; the column is a float4 summed by repeated ``+``. Estimates never
reach it, and a turn whose process stopped between the history append and the increment is in the history
only. The demo marks a few calls as estimates and leaves out the last call of one agent for that reason.
"""

from __future__ import annotations

import struct

HOUR = 3_600_000
# pi-ai's flat rates per million tokens (input, output, cache read, cache write) for the demo's model: what
# Daycare priced its calls with. (A demo's stand-in for another system's table, not the app's pricing.)
OWN_RATES = {"anthropic/claude-sonnet-4-5": (3.0, 15.0, 0.3, 3.75)}
ESTIMATE_EVERY = 9  # every ninth call with tokens is marked an estimate (the provider gave no usage)


def _f4(x: float) -> float:
    """As PostgreSQL's ``real`` keeps it."""
    return struct.unpack("f", struct.pack("f", x))[0]


def mark_sources(history: list[dict]) -> None:
    """Daycare (7c3c466c) says where each count came from: ``source`` "usage" or "estimate"."""
    n = 0
    for row in history:
        tokens = row["data"].get("tokens") if row["type"] == "assistant_message" else None
        if isinstance(tokens, dict) and isinstance(tokens.get("size"), dict):
            n += 1
            tokens["source"] = "estimate" if n % ESTIMATE_EVERY == 0 else "usage"


def hourly_rows(history: list[dict], sessions: list[dict], agents: list[dict], stopped_agent: str) -> list[dict]:
    """The rows ``increment`` would have left for ``history`` (``mark_sources`` first); ``stopped_agent``'s
    last call never reached the table (its process stopped right after the history append)."""
    agent_of = {s["id"]: s["agent_id"] for s in sessions}
    user_of = {a["id"]: a.get("user_id") or "" for a in agents}
    calls = sorted(((row, agent_of.get(row["session_id"], "")) for row in history
                    if row["type"] == "assistant_message" and isinstance(row["data"].get("tokens"), dict)
                    and row["data"]["tokens"].get("source") == "usage"), key=lambda c: c[0]["at"])
    last_of_stopped = max((i for i, (_row, agent) in enumerate(calls) if agent == stopped_agent), default=None)
    out: dict[tuple, dict] = {}
    for i, (row, agent) in enumerate(calls):
        if i == last_of_stopped:
            continue
        t = row["data"]["tokens"]
        size, model = t["size"], f"{t['provider']}/{t['model']}"
        key = (row["at"] // HOUR * HOUR, user_of.get(agent, ""), agent, model)
        line = out.setdefault(key, {"hour_start": key[0], "user_id": key[1], "agent_id": agent, "model": model,
                                    "input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0,
                                    "cache_write_tokens": 0, "cost": 0.0})
        counts = (size.get("input", 0), size.get("output", 0), size.get("cacheRead", 0), size.get("cacheWrite", 0))
        for column, n in zip(("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"), counts):
            line[column] += n
        rates = OWN_RATES.get(model)
        if rates is not None:
            line["cost"] = _f4(line["cost"] + sum(n * r for n, r in zip(counts, rates)) / 1_000_000)
    return list(out.values())
