"""The three named extremes, for every reader of every kind: a 50 MB line, 100,000-deep nesting (JSON arrays,
JSON objects, MessagePack arrays) and invalid UTF-8 give records or problems — never an exception, a hang or
memory out of proportion (traced peak below 8× the input)."""

from __future__ import annotations

import functools
import json
import time
import tracemalloc
from pathlib import Path

import pytest

from daycare_gui.stores.agentstack import values as agentstack_values
from daycare_gui.stores.cianaparrot.checkpoints import decode_metadata
from daycare_gui.stores.cianaparrot.decode import decode_typed, masked, plain
from daycare_gui.stores.cianaparrot.messages import to_message
from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.common.files.jsonfile import parse_json
from daycare_gui.stores.common.files.jsonl import iter_jsonl
from daycare_gui.stores.daycare.pg.conversations import message_of_row as pg_message
from daycare_gui.stores.daycare.pg.shown_rows import masked_row
from daycare_gui.stores.daycare.records.agents import parse_descriptor, parse_permissions
from daycare_gui.stores.daycare.records.history import parse_history_row
from daycare_gui.stores.linggen.messages import parse_line
from daycare_gui.stores.linggen.plans import parse_plan, plan_markdown
from daycare_gui.stores.linggen.readers import parse_json_text, parse_yaml_text
from daycare_gui.stores.problems import ProblemLog

pytestmark = pytest.mark.slow

DEPTH = 100_000


@functools.cache
def big_line() -> bytes:
    """A 50 MB JSONL message line, made once per session."""
    return b'{"role": "user", "content": "' + b"x" * 50_000_000 + b'"}'


EXTREMES = {
    "50MB-line": big_line,
    "deep-arrays": lambda: b"[" * DEPTH + b"]" * DEPTH,
    "deep-objects": lambda: b'{"a":' * DEPTH + b"1" + b"}" * DEPTH,
    "deep-msgpack": lambda: b"\x91" * DEPTH + b"\xc0",
    "invalid-utf8": lambda: b'{"content": "caf\xc3\x28 \xff\xfe", "role": "user"}\n\xed\xa0\x80\n',
}


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _jsonl(data: bytes, tmp: Path):
    path = tmp / "x.jsonl"
    path.write_bytes(data + b'\n{"a": 1}\n')
    problems: list = []
    rows = list(iter_jsonl(path, problems, include_bad=True))
    assert rows[-1][1] == {"a": 1}  # the line after the extreme is still read
    return rows


def _frontmatter(data: bytes, _tmp):
    doc = parse_markdown("---\ntitle: " + _text(data) + "\n---\nbody\n", "x.md")
    assert doc.body == "body\n"
    return doc


def _linggen_yaml(data: bytes, _tmp):
    log = ProblemLog()
    value = parse_yaml_text("title: " + _text(data), Path("x.yaml"), log)
    assert value is not None or len(log)
    return value


def _ciana(data: bytes, _tmp):
    for tag in ("json", "msgpack"):
        decoded = decode_typed(tag, data)
        json.dumps(masked(decoded.value))
        json.dumps(plain(decoded.value))
        to_message(decoded.value, 0).summary()
    decode_metadata(data)


READERS = {
    "core JSON": lambda d, t: parse_json(_text(d), "x.json"),
    "core JSONL": _jsonl,
    "core frontmatter": _frontmatter,
    "core records": lambda d, t: (parse_history_row(1, "s", "note", 0, _text(d)), parse_descriptor(_text(d)),
                                  parse_permissions(_text(d))),
    "Linggen message line": lambda d, t: parse_line(d, 1),
    "Linggen JSON": lambda d, t: parse_json_text(_text(d), Path("x.json"), ProblemLog()),
    "Linggen YAML": _linggen_yaml,
    "Linggen plan": lambda d, t: (parse_plan(_text(d)), plan_markdown(_text(d))),
    "AgentStack JSON column": lambda d, t: (agentstack_values.parse_json(_text(d)),
                                            agentstack_values.shown_json(_text(d))),
    "AgentStack embedding": lambda d, t: agentstack_values.embedding_facts(d),
    "CianaParrot checkpoint": _ciana,
    "PG session_history text": lambda d, t: pg_message(1, "note", 0, _text(d), session_id="s"),
    "PG row": lambda d, t: masked_row({"id": "x", "data": _text(d), "env": {"K": _text(d)}}, "processes"),
}


CASES = [(r, e) for r in READERS for e in EXTREMES if e != "deep-msgpack" or r == "CianaParrot checkpoint"]


@pytest.mark.parametrize(("reader", "extreme"), CASES)
def test_every_reader_survives_the_extremes(reader, extreme, tmp_path):
    data = EXTREMES[extreme]()
    tracemalloc.start()
    began = time.monotonic()
    try:
        READERS[reader](data, tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    took = time.monotonic() - began
    assert took < 30, f"{reader} took {took:.1f}s on {extreme}"
    assert peak < 8 * max(len(data), 1_000_000), f"{reader} traced {peak / 1e6:.0f} MB on {extreme}"
