"""Payloads are decoded as data: every extension code becomes a record, nothing is imported or revived,
and no input at all makes the decoder raise."""

from __future__ import annotations

import json
import pickle
import sys

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.cianaparrot.decode import ExtRecord, Opaque, decode_typed, masked, plain
from daycare_gui.stores.cianaparrot.messages import to_message
from tests.stores.cianaparrot.builder import ext, message_ext


def _pack(value) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def test_each_langgraph_extension_code_becomes_a_neutral_record():
    blob = _pack({
        "uuid": ext(0, "uuid", "UUID", "0123456789abcdef0123456789abcdef"),
        "path": ext(1, "pathlib", "PosixPath", ["/", "etc"]),
        "named": ext(2, "collections", "Point", {"x": 1}),
        "when": ext(3, "datetime", "datetime", "2026-02-24T10:00:00+00:00", "fromisoformat"),
        "v1": ext(4, "app.models", "Old", {"a": 1}),
        "msg": message_ext("AIMessage", "ai", content="hi", type="ai", id="m1"),
        "array": ext(6, "float64", [2, 2], "C", b"\x00" * 32),
        "delta": msgpack.ExtType(7, _pack([1, 2, 3])),
    })
    d = decode_typed("msgpack", blob)
    assert d.problem is None
    v = d.value
    assert v["uuid"] == ExtRecord(0, "uuid", "UUID", "0123456789abcdef0123456789abcdef")
    assert v["path"].args == ["/", "etc"] and v["path"].code == 1
    assert v["when"].method == "fromisoformat" and v["when"].label == "datetime.datetime"
    assert v["msg"].name == "AIMessage" and v["msg"].method == "model_validate_json"
    assert v["array"].module == "numpy" and v["array"].args == {"shape": [2, 2], "order": "C"}
    assert v["delta"].code == 7 and v["delta"].args == [1, 2, 3]
    shown = json.dumps(masked(v))  # JSON-ready for raw views and inspect
    assert '"$ext": 5' in shown and '"class": "AIMessage"' in shown
    assert "app.models" not in sys.modules and "pathlib" in sys.modules  # nothing named was imported


def test_unknown_codes_and_broken_payloads_stay_raw_with_a_problem():
    v = decode_typed("msgpack", _pack([msgpack.ExtType(42, b"\xc1garbage"), msgpack.ExtType(5, _pack("x"))])).value
    assert v[0].code == 42 and v[0].raw == b"\xc1garbage" and "unknown extension code 42" in v[0].problem
    assert v[1].problem.startswith("unexpected pydantic v2 model payload")


def test_pickle_and_encrypted_payloads_are_described_never_opened(monkeypatch):
    def refuse(*_a, **_k):
        raise AssertionError("pickle must never be loaded")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    payload = pickle.dumps({"x": 1})
    d = decode_typed("pickle", payload)
    assert isinstance(d.value, Opaque) and d.value.size == len(payload) and d.value.head == payload[:16].hex()
    assert "never opened" in d.value.describe() and "pickle" in d.problem
    sealed = bytes(range(48))
    d = decode_typed("msgpack+aes", sealed)
    assert d.value.size == 48 and "encrypted (aes)" in d.value.reason and "key" in d.problem
    assert decode_typed(None, payload).tag == "pickle"  # sniffed in databases without a type column


def test_json_envelopes_are_data_and_become_messages():
    env = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"],
           "kwargs": {"content": "hi", "id": "h1"}}
    d = decode_typed("json", json.dumps(env).encode())
    assert d.value == env
    m = to_message(d.value, 0)
    assert (m.role, m.text, m.id, m.kind) == ("user", "hi", "h1", "HumanMessage")
    assert decode_typed("json", b"{broken").problem.startswith("not valid JSON")


def test_deep_nesting_is_refused_without_exhausting_the_stack():
    blob = b"x"
    for _ in range(3000):
        blob = msgpack.packb(msgpack.ExtType(0, msgpack.packb(["m", "C", msgpack.ExtType(1, blob)])))
    d = decode_typed("msgpack", blob)  # must return, whatever it shows
    assert d.value is not None
    deep = b"\x91" * 100_000 + b"\xc0"
    assert decode_typed("msgpack", deep).problem


def test_secret_named_strings_are_masked_but_counts_kept():
    v = masked({"api_key": "sk-live-abcdefghijklmnop", "total_tokens": 15, "nested": [{"token": "abc"}]})
    assert v["api_key"] != "sk-live-abcdefghijklmnop" and v["total_tokens"] == 15 and v["nested"][0]["token"] != "abc"


# -- property tests ------------------------------------------------------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.floats(allow_nan=True),
                     st.text(max_size=20), st.binary(max_size=20))


def _with_ext(children):
    return st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers(-2**63, 2**63 - 1), st.binary(max_size=4)), children,
                        max_size=4),
        st.builds(lambda code, inner: msgpack.ExtType(code, msgpack.packb(inner, use_bin_type=True)),
                  st.integers(0, 127), children),
        st.builds(lambda code, data: msgpack.ExtType(code, data), st.integers(0, 127), st.binary(max_size=24)),
        st.builds(lambda code, mod, cls, arg: msgpack.ExtType(code, msgpack.packb([mod, cls, arg], use_bin_type=True)),
                  st.integers(0, 8), st.text(max_size=10), st.sampled_from(["AIMessage", "HumanMessage",
                                                                             "ToolMessage", "X"]), children),
    )


_values = st.recursive(_scalars, _with_ext, max_leaves=25)
_tags = st.sampled_from(["msgpack", "json", "pickle", "msgpack+aes", "bytes", "null", "weird", None])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_values)
def test_any_msgpack_with_any_extensions_decodes_to_records(value):
    blob = msgpack.packb(value, use_bin_type=True)
    d = decode_typed("msgpack", blob)
    json.dumps(masked(d.value))  # always JSON-ready
    for item in (d.value if isinstance(d.value, list) else [d.value]):
        to_message(item, 0).summary()


@settings(max_examples=300, deadline=None)
@given(_tags, st.binary(max_size=300))
def test_any_bytes_under_any_tag_never_raise(tag, data):
    d = decode_typed(tag, data)
    json.dumps(plain(d.value))
    to_message(d.value, 0)


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
                    lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(st.text(max_size=5), c, max_size=3)),
                    max_leaves=20),
       st.sampled_from(["HumanMessage", "AIMessage", "ToolMessage", "Other"]))
def test_any_json_envelope_becomes_data_or_a_message(kwargs, cls):
    env = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls], "kwargs": kwargs}
    d = decode_typed("json", json.dumps(env).encode())
    assert d.problem is None
    to_message(d.value, 0).summary()


@settings(max_examples=200, deadline=None)
@given(st.integers(-128, 127), st.binary(max_size=40), st.binary(max_size=8))
def test_any_extension_code_including_reserved_negative_ones(code, data, tail):
    # ext 8: 0xc7, length, signed type byte, data — built by hand so negative (reserved) codes occur too
    blob = b"\x92" + b"\xc7" + bytes([len(data)]) + code.to_bytes(1, "big", signed=True) + data + b"\xc0" + tail
    d = decode_typed("msgpack", blob)
    json.dumps(masked(d.value))
