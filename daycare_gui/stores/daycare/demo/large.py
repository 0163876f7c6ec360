"""The bulk part of ``--scale large``: 1,000 agents, 20,000 sessions, 1,000,000 ``session_history`` rows.

Added on top of the small demo, so every record kind and every file still exists. Rows stream from
generators straight into ``executemany`` — the million history rows never exist as a list — inside the one
load transaction that :mod:`.database` opened with journaling off. One session holds
``LARGEST_SESSION_RECORDS`` records so benchmarks have a predictable worst case.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

from daycare_gui.stores.daycare.demo import vocabulary
from daycare_gui.stores.daycare.demo.db_model import DemoModel
from daycare_gui.stores.daycare.demo.history import MODELS, PYTHON_PREAMBLE
from daycare_gui.stores.daycare.demo.ids import DAY, FAKE_ROOT, HOUR, MINUTE, cuid, dumps, new_rng, token

TOTAL_AGENTS = 1_000
TOTAL_SESSIONS = 20_000
TOTAL_HISTORY = 1_000_000
LARGEST_SESSION_RECORDS = 120_000
BULK_USERS = 96
HISTORY_CHUNK = 50_000
HISTORY_CHUNKS = -(-TOTAL_HISTORY // HISTORY_CHUNK)  # upper bound; fewer when the small rows count too
BATCHES = 3 + HISTORY_CHUNKS + 1

_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
KINDS = ("user", "user", "user", "cron", "system", "subagent", "app", "permanent")


class LargeLoad:
    """Plans the bulk rows from the small model's counts, then streams them in batches."""

    def __init__(self, model: DemoModel):
        self.rng = new_rng(7)
        self.model = model
        self.now = model.now
        self.agents = TOTAL_AGENTS - len(model.rows["agents"])
        self.sessions = TOTAL_SESSIONS - len(model.rows["sessions"])
        self.history = TOTAL_HISTORY - len(model.rows["session_history"])
        self.first_history_id = len(model.rows["session_history"]) + 1
        self.pool = self._sentence_pool()
        self.agent_ids = [cuid(self.rng) for _ in range(self.agents)]
        self.session_ids = [cuid(self.rng) for _ in range(self.sessions)]
        self.counts = self._session_counts()
        self.largest_session_id = self.session_ids[0]
        self.largest_session_records = self.counts[0]

    # -- planning ------------------------------------------------------------------------------------------
    def _sentence_pool(self) -> list[str]:
        rng, common = self.rng, vocabulary.COMMON
        pool = []
        for _ in range(4000):
            words = rng.choices(common, k=rng.randint(5, 14))
            words[0] = words[0].capitalize()
            pool.append(" ".join(words) + rng.choice((".", ".", ".", "?", "!")))
        return pool

    def _session_counts(self) -> list[int]:
        """Exact total: the first session is the largest, the rest vary in pairs around the mean."""
        rest = self.history - LARGEST_SESSION_RECORDS
        n = self.sessions - 1
        base, extra = divmod(rest, n)
        counts = [base + (1 if i < extra else 0) for i in range(n)]
        for i in range(0, n - 1, 2):
            swing = self.rng.randint(0, base - 2)
            counts[i] += swing
            counts[i + 1] -= swing
        return [LARGEST_SESSION_RECORDS, *counts]

    def _agent_of_session(self, index: int) -> int:
        return index * self.agents // self.sessions

    # -- batches -------------------------------------------------------------------------------------------
    def batches(self, conn) -> Iterator[str]:
        self._users(conn)
        yield f"added {BULK_USERS} users"
        self._agents(conn)
        yield f"added {self.agents} agents"
        self._sessions(conn)
        yield f"added {self.sessions} sessions"
        rows = self._history_rows()
        written = 0
        while True:
            chunk = list(itertools.islice(rows, HISTORY_CHUNK))
            if not chunk:
                break
            conn.executemany("INSERT INTO session_history (id, session_id, type, at, data) VALUES (?, ?, ?, ?, ?)", chunk)
            written += len(chunk)
            yield f"history records: {written:,} of {self.history:,}"
        self._inbox_and_signals(conn)
        yield "added inbox items, signals and channel messages"

    def _users(self, conn) -> None:
        rng = self.rng
        self.user_ids = list(self.model.users.values())
        rows, keys = [], []
        for i in range(BULK_USERS):
            uid = cuid(rng)
            self.user_ids.append(uid)
            created = self.now - rng.randint(5, 60) * DAY
            rows.append((uid, 0, created, created, None, f"Demo User {i + 1}", f"demo-user-{i + 1:03d}"))
            keys.append((uid, f"telegram:{900000 + i}"))
        conn.executemany("INSERT INTO users (id, is_owner, created_at, updated_at, parent_user_id, name, nametag) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO user_connector_keys (user_id, connector_key) VALUES (?, ?)", keys)

    def _descriptor(self, index: int, agent_id: str) -> dict:
        kind = KINDS[index % len(KINDS)] if index else "permanent"
        parent = self.agent_ids[max(0, index - 1 - index % 5)]
        if kind == "user":
            return {"type": "user", "connector": "telegram", "userId": str(900000 + index % BULK_USERS),
                    "channelId": str(700000 + index)}
        if kind == "cron":
            return {"type": "cron", "id": token(self.rng, 24, "abcdefghijklmnopqrstuvwxyz0123456789"),
                    "name": f"Scheduled job {index}"}
        if kind == "system":
            return {"type": "system", "tag": f"worker-{index}"}
        if kind == "subagent":
            return {"type": "subagent", "id": agent_id, "parentAgentId": parent, "name": f"Background task {index}"}
        if kind == "app":
            return {"type": "app", "id": agent_id, "parentAgentId": parent, "name": f"App {index}",
                    "systemPrompt": "Follow the app's instructions.", "appId": f"app-{index}"}
        name = "Archivist" if index == 0 else f"Helper {index}"
        return {"type": "permanent", "id": agent_id, "name": name, "description": "Keeps long-running notes.",
                "systemPrompt": "Answer from the archive; be precise."}

    def _agents(self, conn) -> None:
        rng = self.rng
        last_session = {}
        for s in range(self.sessions):
            last_session[self._agent_of_session(s)] = self.session_ids[s]
        rows = []
        for i, agent_id in enumerate(self.agent_ids):
            d = self._descriptor(i, agent_id)
            provider = rng.choice(tuple(MODELS))
            model = rng.choice(MODELS[provider])
            size = {"input": rng.randint(1000, 90000), "output": rng.randint(100, 9000), "cacheRead": 0, "cacheWrite": 0}
            size["total"] = size["input"] + size["output"]
            user_id = self.user_ids[i % len(self.user_ids)]
            perms = {"workingDir": f"{FAKE_ROOT}/users/{user_id}/home/desktop", "writeDirs": [], "readDirs": [],
                     "network": bool(i % 2), "events": False}
            created = self.now - rng.randint(10, 90) * DAY
            rows.append((agent_id, d["type"], dumps(d), last_session.get(i), dumps(perms),
                         dumps({"provider": provider, "model": model, "size": size}),
                         dumps({provider: {model: size}}), ("active", "active", "sleeping", "dead")[i % 4],
                         created, self.now - rng.randint(0, 9) * DAY, user_id))
        conn.executemany("INSERT INTO agents (id, type, descriptor, active_session_id, permissions, tokens, stats, "
                         "lifecycle, created_at, updated_at, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _session_starts(self) -> Iterator[tuple[int, str, int, int, int]]:
        """(index, session id, first history id, record count, created_at) in insert order."""
        next_id = self.first_history_id
        for s, (sid, count) in enumerate(zip(self.session_ids, self.counts, strict=True)):
            created = self.now - 60 * DAY + (s * 7919 % 50_000) * MINUTE // 20  # spread over ~60 days
            if s == 0:
                created = self.now - 70 * DAY  # the big one runs for weeks
            yield s, sid, next_id, count, created
            next_id += count

    def _sessions(self, conn) -> None:
        rng = self.rng
        last_of_agent = {self._agent_of_session(s): s for s in range(self.sessions)}

        def rows():
            for s, sid, first, count, created in self._session_starts():
                is_last = last_of_agent[self._agent_of_session(s)] == s
                ended = None if is_last else created + count * 20_000 + HOUR
                yield (sid, self.agent_ids[self._agent_of_session(s)],
                       "inf_" + token(rng, 16).lower() if rng.random() < 0.3 else None, created,
                       "Session compacted" if s % 7 == 3 else None,
                       first + count // 2 if s % 97 == 5 else None,  # invalidated_at: a history id
                       first + count - 1 if ended else None,  # processed_until: a history id
                       ended)

        conn.executemany("INSERT INTO sessions (id, agent_id, inference_session_id, created_at, reset_message, "
                         "invalidated_at, processed_until, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows())

    # -- history -------------------------------------------------------------------------------------------
    def _text(self, lo: int = 1, hi: int = 3) -> str:
        rng, pool = self.rng, self.pool
        text = " ".join(pool[rng.randrange(4000)] for _ in range(rng.randint(lo, hi)))
        if rng.random() < 0.002:
            text += " " + rng.choice(vocabulary.RARE)
        return text

    def _history_rows(self) -> Iterator[tuple]:
        for _s, sid, first, count, created in self._session_starts():
            yield from self._session_records(sid, first, count, created)

    def _session_records(self, sid: str, first: int, count: int, created: int) -> Iterator[tuple]:
        """One session's records: user → assistant (→ tool call/result → assistant), a python run now and then."""
        rng, text = self.rng, self._text
        hid, at, end = first, created, first + count
        provider = "anthropic"
        model = "claude-sonnet-4-5"
        while hid < end:
            left = end - hid
            at += rng.randint(2_000, 40_000)
            roll = rng.random()
            if left >= 8 and roll < 0.02:
                call = {"type": "toolCall", "id": "toolu_01" + token(rng, 22), "name": "run_python",
                        "arguments": {"code": "print(len(read_file('notes.md')))"}}
                asked = at
                steps = [
                    ("assistant_message", {"text": text(1, 1), "files": [], "toolCalls": [call], "tokens": None}),
                    ("rlm_start", {"toolCallId": call["id"], "code": call["arguments"]["code"], "preamble": PYTHON_PREAMBLE}),
                    ("rlm_tool_call", {"toolCallId": call["id"], "snapshot": token(rng, 96), "printOutput": [],
                                       "toolCallCount": 1, "toolName": "read_file", "toolArgs": {"path": "notes.md"}}),
                    ("rlm_tool_result", {"toolCallId": call["id"], "toolName": "read_file", "toolResult": text(1, 2),
                                         "toolIsError": False}),
                    ("rlm_complete", {"toolCallId": call["id"], "output": "1234", "printOutput": ["1234"],
                                      "toolCallCount": 1, "isError": False}),
                    ("tool_result", self._tool_result(call, "1234", at)),
                    ("assistant_rewrite", {"assistantAt": asked, "text": text(1, 1), "reason": "run_python_say_after_trim"}),
                    ("assistant_message", {"text": text(), "files": [], "toolCalls": [], "tokens": None}),
                ]
                for kind, data in steps:
                    yield hid, sid, kind, at, _encode(data)
                    hid += 1
                    at += rng.randint(200, 3_000)
                continue
            if left >= 3 and roll < 0.26:
                name = vocabulary.TOOLS[rng.randrange(len(vocabulary.TOOLS))]
                call = {"type": "toolCall", "id": "toolu_01" + token(rng, 22), "name": name,
                        "arguments": {"query": text(1, 1)}}
                yield hid, sid, "assistant_message", at, _encode(
                    {"text": "", "files": [], "toolCalls": [call], "tokens": self._tokens(provider, model)})
                at += rng.randint(500, 9_000)
                yield hid + 1, sid, "tool_result", at, _encode(self._tool_result(call, text(1, 2), at))
                at += rng.randint(500, 9_000)
                yield hid + 2, sid, "assistant_message", at, _encode(
                    {"text": text(), "files": [], "toolCalls": [], "tokens": self._tokens(provider, model)})
                hid += 3
                continue
            if roll < 0.33:
                yield hid, sid, "note", at, _encode({"text": text(1, 1)})
            elif roll < 0.66:
                yield hid, sid, "user_message", at, _encode({"text": text(), "files": []})
            else:
                yield hid, sid, "assistant_message", at, _encode(
                    {"text": text(1, 4), "files": [], "toolCalls": [], "tokens": self._tokens(provider, model)})
            hid += 1

    def _tokens(self, provider: str, model: str) -> dict | None:
        rng = self.rng
        if rng.random() < 0.1:
            return None
        i, o = rng.randint(500, 20000), rng.randint(20, 900)
        return {"provider": provider, "model": model,
                "size": {"input": i, "output": o, "cacheRead": 0, "cacheWrite": 0, "total": i + o}}

    @staticmethod
    def _tool_result(call: dict, text: str, at: int) -> dict:
        return {"toolCallId": call["id"], "output": {
            "toolMessage": {"role": "toolResult", "toolCallId": call["id"], "toolName": call["name"],
                            "content": [{"type": "text", "text": text}], "isError": False, "timestamp": at},
            "typedResult": {"ok": True}}}

    # -- the rest ------------------------------------------------------------------------------------------
    def _inbox_and_signals(self, conn) -> None:
        rng = self.rng

        def inbox():
            for i in range(1_000):
                agent = self.agent_ids[rng.randrange(self.agents)]
                stuck = i % 10 == 0  # one in ten waits for days; the rest arrived within the stuck threshold
                posted = self.now - (rng.randint(2, 20) * DAY if stuck else rng.randint(10, 14 * 60) * MINUTE // 60)
                item = {"type": "message", "message": {"text": self._text(1, 1), "files": []},
                        "context": {"messageId": str(100000 + i)}}
                yield cuid(rng), agent, posted, "message", dumps(item)

        conn.executemany("INSERT INTO inbox (id, agent_id, posted_at, type, data) VALUES (?, ?, ?, ?, ?)", inbox())

        def signals():
            for i in range(2_000):
                user = self.user_ids[i % len(self.user_ids)]
                source = {"type": "agent", "id": self.agent_ids[i % self.agents], "userId": user}
                yield (f"sig_bulk_{i:05d}", user, ("github.push", "user.note.added", "process.exited")[i % 3],
                       dumps(source), dumps({"n": i}), self.now - i * 7 * MINUTE)

        conn.executemany("INSERT INTO signals_events (id, user_id, type, source, data, created_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)", signals())
        channel_id = "ch_bulk"
        owner = self.model.users["owner"]
        conn.execute("INSERT INTO channels (id, user_id, name, leader, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                     (channel_id, owner, "town-square", self.agent_ids[0], self.now - 30 * DAY, self.now - DAY))
        conn.executemany("INSERT INTO channel_members (channel_id, user_id, agent_id, username, joined_at) "
                         "VALUES (?, ?, ?, ?, ?)",
                         ((channel_id, owner, self.agent_ids[i], f"agent{i}", self.now - 30 * DAY + i * MINUTE)
                          for i in range(50)))
        conn.executemany("INSERT INTO channel_messages (id, channel_id, user_id, sender_username, text, mentions, "
                         "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         ((f"msg_bulk_{i:05d}", channel_id, owner, f"agent{i % 50}", self._text(1, 2),
                           dumps([f"agent{(i + 1) % 50}"] if i % 5 == 0 else []), self.now - 30 * DAY + i * 11 * MINUTE)
                          for i in range(2_000)))
