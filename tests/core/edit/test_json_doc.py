"""JSON files edited by splicing: only the changed value's text moves; the file's style is kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.common.edit.atomic import ConflictError, sha256_of
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
from daycare_gui.stores.common.edit.json_doc import JsonDocument
from daycare_gui.stores.daycare.edit.app_state import AppStateDoc, is_app_state, revoke_grant
from daycare_gui.stores.daycare.edit.settings_doc import SettingsDoc

# What Daycare's appPermissionStateWrite writes: JSON.stringify(…, null, 2) plus a newline.
STATE = b'{\n  "permissions": [\n    "@read:/home/alex/blog",\n    "@network"\n  ],\n  "updatedAt": 1739999900123\n}\n'


def edited(data: bytes, path: tuple[str, ...], value) -> bytes:
    doc = JsonDocument.parse(data)
    doc.set(path, value)
    return doc.to_bytes()


def test_unedited_and_same_value_edits_are_byte_identical():
    for data in (STATE, b'\xef\xbb\xbf{"a":1.0,"b":"\\u00e9"}', b'{ "a" : [ 1 , 2 ] }\r\n'):
        doc = JsonDocument.parse(data)
        assert doc.to_bytes() == data
        key = next(iter(doc.value))
        doc.set((key,), doc.get((key,)))
        assert doc.to_bytes() == data


def test_only_the_changed_value_text_changes():
    assert edited(STATE, ("updatedAt",), 5) == STATE.replace(b"1739999900123", b"5")
    assert edited(STATE, ("permissions",), ["@network"]) == (
        b'{\n  "permissions": [\n    "@network"\n  ],\n  "updatedAt": 1739999900123\n}\n')
    assert edited(STATE, ("permissions",), []) == b'{\n  "permissions": [],\n  "updatedAt": 1739999900123\n}\n'


def test_new_keys_follow_the_file_style():
    tabs = b'{\r\n\t"engine": {\r\n\t\t"dataDir": "/x"\r\n\t},\r\n\t"z": 1\r\n}'
    assert edited(tabs, ("engine", "db", "url"), "postgres://h/d") == (
        b'{\r\n\t"engine": {\r\n\t\t"dataDir": "/x",\r\n\t\t"db": {\r\n\t\t\t"url": "postgres://h/d"\r\n\t\t}\r\n'
        b'\t},\r\n\t"z": 1\r\n}')
    assert edited(b'{"a":1}', ("b",), [1, 2]) == b'{"a":1,"b":[1,2]}'
    assert edited(b'{"a": 1}', ("b",), {"c": True}) == b'{"a": 1, "b": {"c": true}}'
    assert edited(b'{}\n', ("engine", "dataDir"), "/y") == b'{\n  "engine": {\n    "dataDir": "/y"\n  }\n}\n'
    assert edited(b'{\n    "a": {}\n}\n', ("a", "b"), 1) == b'{\n    "a": {\n        "b": 1\n    }\n}\n'
    # A one-line list stays on one line; a scalar in a spread-out object becomes a spread-out list.
    assert edited(b'{\n  "p": ["a"],\n  "q": null\n}', ("p",), ["a", "b"]) == b'{\n  "p": ["a", "b"],\n  "q": null\n}'
    assert edited(b'{\n  "q": null\n}', ("q",), ["a"]) == b'{\n  "q": [\n    "a"\n  ]\n}'


def test_non_ascii_text_is_written_as_text():
    assert edited(b'{"name": "x"}\n', ("name",), "Café 日本") == '{"name": "Café 日本"}\n'.encode()


@pytest.mark.parametrize("data, why", [
    (b'{"a": 1, "a": 2}', "twice"),
    (b"[1, 2]", "JSON object"),
    (b'{"a": NaN}', "NaN"),
    (b'{"a": ', "not valid JSON"),
    (b'{"a": "caf\xe9"}', "UTF-8"),
])
def test_files_that_are_not_one_clean_object_are_refused(data, why):
    with pytest.raises(DocumentError, match=why):
        JsonDocument.parse(data)


def test_a_path_through_a_non_object_is_refused_and_nothing_changes():
    doc = JsonDocument.parse(b'{"a": [1]}')
    with pytest.raises(InvalidValue, match="not an object"):
        doc.set(("a", "b"), 1)
    assert doc.to_bytes() == b'{"a": [1]}'


def test_bool_int_and_float_are_different_values():
    assert edited(b'{"a": 1}', ("a",), True) == b'{"a": true}'
    assert edited(b'{"a": 1}', ("a",), 1.5) == b'{"a": 1.5}'


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.text(min_size=1, max_size=6), json_values, min_size=1, max_size=5),
       st.sampled_from([None, 2, 4, "\t"]), st.data())
def test_setting_one_key_keeps_every_other_key_and_the_text_around_it(obj, indent, data):
    text = json.dumps(obj, indent=indent, ensure_ascii=False) + "\n"
    key = data.draw(st.sampled_from(sorted(obj)))
    value = data.draw(json_values)
    doc = JsonDocument.parse(text.encode())
    doc.set((key,), value)
    result = json.loads(doc.to_bytes())
    assert result == {**obj, key: value}
    assert list(result) == list(obj)  # key order kept
    out = doc.to_bytes().decode()
    assert out.endswith("}\n")
    first = text.index(json.dumps(key, ensure_ascii=False) + ":")
    assert out[:first] == text[:first]  # everything before the edited member is untouched


# --- an app's state.json -----------------------------------------------------------------------------------

def test_app_state_revoke_changes_the_grant_and_updated_at_only():
    doc = AppStateDoc.parse(STATE)
    doc.revoke("@network", now_ms=1750000000000)
    assert doc.to_bytes() == (
        b'{\n  "permissions": [\n    "@read:/home/alex/blog"\n  ],\n  "updatedAt": 1750000000000\n}\n')
    with pytest.raises(InvalidValue, match="not granted"):
        doc.revoke("@events")


def test_app_state_keeps_unknown_keys_and_refuses_bad_tags():
    data = b'{\n  "note": "mine",\n  "permissions": ["@network"]\n}\n'
    doc = AppStateDoc.parse(data)
    doc.set("permissions", ["@network", "@events"])
    assert doc.to_bytes() == b'{\n  "note": "mine",\n  "permissions": ["@network", "@events"]\n}\n'
    for key, value in (("permissions", ["read everything"]), ("permissions", "@network"), ("color", "x"),
                       ("updatedAt", -1)):
        with pytest.raises(InvalidValue):
            doc.set(key, value)


def test_is_app_state():
    assert is_app_state("/s/workspace/apps/deploy-check/state.json")
    assert not is_app_state("/s/agents/a1/state.json")


def test_revoke_grant_is_atomic_and_refuses_a_changed_file(tmp_path):
    path = tmp_path / "apps" / "deploy" / "state.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(STATE)
    seen = sha256_of(STATE)
    path.write_bytes(STATE.replace(b"1739999900123", b"1739999900999"))  # Daycare granted meanwhile
    with pytest.raises(ConflictError):
        revoke_grant(path, "@network", expected_sha256=seen)
    assert path.read_bytes() == STATE.replace(b"1739999900123", b"1739999900999")
    revoke_grant(path, "@network", now_ms=7)
    assert path.read_bytes() == b'{\n  "permissions": [\n    "@read:/home/alex/blog"\n  ],\n  "updatedAt": 7\n}\n'
    assert sorted(p.name for p in path.parent.iterdir()) == ["state.json"]  # no temporary file left


def test_settings_doc_checks_known_keys():
    doc = SettingsDoc.parse(b'{\n  "engine": {\n    "dataDir": "/data"\n  }\n}\n')
    doc.set("engine.dataDir", "/elsewhere")
    doc.set("engine.db.autoMigrate", False)
    assert doc.to_bytes() == (b'{\n  "engine": {\n    "dataDir": "/elsewhere",\n    "db": {\n'
                              b'      "autoMigrate": false\n    }\n  }\n}\n')
    for key, value in (("engine.dataDir", 5), ("engine.db.autoMigrate", "yes"), ("engine..x", 1)):
        with pytest.raises(InvalidValue):
            doc.set(key, value)


SETTINGS = b'{\n  "engine": {\n    "dataDir": "/data"\n  },\n  "plugins": []\n}\n'


@pytest.mark.parametrize("key, value, says", [
    # QA: a parent key took any value, so each of these was written and Daycare would not start
    ("engine", {"dataDir": 5}, "engine.dataDir must be non-empty text"),
    ("engine", None, "engine must be an object"),
    ("engine", {"db": {"autoMigrate": "nope"}}, "engine.db.autoMigrate must be true or false"),
    ("plugins", 7, "plugins must be a list"),
    ("plugins", [{"instanceId": "t", "pluginId": "telegram", "enabled": "yes"}], "plugins[0].enabled must be true or false"),
    ("plugins", [{"pluginId": "telegram"}], "plugins[0].instanceId is required"),
    ("engine.dataDir", None, "engine.dataDir must be non-empty text"),
    ("engine.dataDir.inner", "x", "engine.dataDir must be non-empty text, so it has no key 'inner'"),
    ("memory", {"maxEntries": 0}, "memory.maxEntries must be a whole number above 0"),
    ("memory.enabled", 1, "memory.enabled must be true or false"),
    ("models.user", 5, "models.user must be non-empty text or an object"),
    ("modelFlavors.fast.model", "gpt", "modelFlavors.fast.description is required"),
    ("providers", [{"id": "openai", "options": "x"}], "providers[0].options must be an object"),
])
def test_settings_values_are_checked_at_every_key_beneath_the_one_set(key, value, says):
    doc = SettingsDoc.parse(SETTINGS)
    with pytest.raises(InvalidValue) as refused:
        doc.set(key, value)
    assert str(refused.value).startswith(says) and "Daycare would refuse to start" in str(refused.value)
    assert doc.to_bytes() == SETTINGS


@pytest.mark.parametrize("key, value", [
    ("engine", {"dataDir": "/srv", "db": {"url": "postgresql://x/y", "autoMigrate": False}, "somethingNew": 1}),
    ("plugins", [{"instanceId": "telegram", "pluginId": "telegram", "settings": {"token": "x"}}]),
    ("models.user", "openai/gpt-5"),
    ("models.memory", {"model": "openai/gpt-5-mini", "reasoning": "low"}),
    ("modelFlavors.fast", {"model": "m", "description": "quick"}),
    ("appServer.port", "8080"),  # Daycare coerces the port
    ("unknownKey", None),  # keys Daycare does not know take any value, as Daycare keeps them
    ("engine.extra", [1, 2]),
])
def test_settings_values_daycare_accepts_are_written(key, value):
    doc = SettingsDoc.parse(SETTINGS)
    doc.set(key, value)
    assert doc.doc.get(tuple(key.split("."))) == value
