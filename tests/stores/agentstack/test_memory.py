"""Memory: by namespace (session namespaces under their session) and by agent, paged; tags,
relationships and versions as links you can follow; embeddings as dimension and norm only."""

import math

from daycare_gui.stores.api import Collections
from tests.stores.agentstack.builder import all_rows, vector


def _store(build, opened):
    b = build()
    active, ended = b.session("active"), b.session("ended")
    ids = {}
    for i in range(5):
        ids[f"d{i}"] = b.memory(f"note-{i}", f"default note number {i}", agent_id="coder" if i % 2 else None)
    ids["ops"] = b.memory("deploy", "deploys go through staging", namespace="ops", agent_id="devops")
    ids["none"] = b.memory("orphan", "no namespace at all", namespace=None)
    ids["s1"] = b.memory("todo", "fix the flaky test", namespace=f"session:{active}", metadata={"p": 1})
    ids["s2"] = b.memory("scratch", "left behind", namespace=f"session:{ended}")
    ids["gone"] = b.memory("lost", "session row deleted", namespace="session:nope")
    b.tag(ids["d0"], "backend")
    b.tag(ids["d0"], "urgent")
    b.tag(ids["ops"], "backend")
    b.relate(ids["ops"], ids["d0"], "depends_on")
    b.update_memory(ids["d0"], "default note number 0\nnow with a second line")
    b.update_memory(ids["d0"], "default note number zero\nnow with a second line")
    b.close()
    return opened(b.path), ids, (active, ended)


def test_namespace_tree_groups_sessions_under_their_session(build, opened):
    store, ids, (active, ended) = _store(build, opened)
    c = store.capability(Collections)
    rows = all_rows(c, "memory")
    assert len(rows) == c.size("memory") == 10 + 7  # entries + 4 namespace headers + sessions group + 3 sessions
    assert c.items("memory") == 10  # what a person counts: the entries
    keys = [r.key for r in rows]
    assert keys[:3] == ["ns:\x00null", ids["none"], "ns:default"]
    assert [r.values[0] for r in rows if r.parent == "ns:default"] == [f"note-{i}" for i in range(5)]
    sessions = next(r for r in rows if r.key == "group:sessions")
    children = [r for r in rows if r.parent == "group:sessions"]
    assert {r.key for r in children} == {f"ns:session:{active}", f"ns:session:{ended}", "ns:session:nope"}
    flags = {r.key: r.flag for r in children}
    assert flags[f"ns:session:{active}"] == "" and flags[f"ns:session:{ended}"] == "left over"
    assert flags["ns:session:nope"] == "left over"
    assert sessions.parent is None
    entry = next(r for r in rows if r.key == ids["s1"])
    assert entry.parent == f"ns:session:{active}"
    assert any(link.value == ("sessions", active) for link in entry.links)
    # every parent precedes its children (a tree the pane can build while paging)
    seen = set()
    for r in rows:
        assert r.parent is None or r.parent in seen
        seen.add(r.key)


def test_paging_is_the_same_whatever_the_page_size(build, opened):
    store, _ids, _ = _store(build, opened)
    c = store.capability(Collections)
    whole = [r.key for r in c.rows("memory", 0, 1000)]
    for page in (1, 2, 3, 5, 16):
        assert [r.key for r in all_rows(c, "memory", page)] == whole
    assert c.rows("memory", 1000, 10) == []


def test_by_agent(build, opened):
    store, ids, _ = _store(build, opened)
    c = store.capability(Collections)
    rows = all_rows(c, "memory-agents")
    headers = [r for r in rows if r.parent is None]
    assert [h.values[0] for h in headers] == ["shared (no agent)", "coder", "devops"]
    assert next(r for r in rows if r.key == ids["ops"]).parent == "agent:devops"


def test_tags_relationships_and_versions_are_links_that_lead_somewhere(build, opened):
    store, ids, _ = _store(build, opened)
    c = store.capability(Collections)
    row = c.row("memory", ids["d0"])
    assert row.values[3] == "backend, urgent"
    assert row.raw["versions"] == 2
    labels = [link.label for link in row.links]
    assert "depends_on ← deploy" in labels and "version 2" in labels and "version 1" in labels
    for link in row.links:
        assert link.target == "row" and c.row(*link.value) is not None, link
    # the history says what changed
    assert "-default note number 0" in row.markdown and "+default note number zero" in row.markdown
    assert "+now with a second line" in row.markdown
    versions = all_rows(c, "memory-versions")
    assert [v.values[2] for v in versions] == [2, 1]  # newest first
    assert versions[0].values[4] == "content +1 −1 lines"
    assert "+default note number zero" in versions[0].markdown
    tags = {r.values[0]: r for r in all_rows(c, "tags")}
    assert tags["backend"].values[1] == 2 and {link.label for link in tags["backend"].links} == {"note-0", "deploy"}
    rel = all_rows(c, "memory-relationships")[0]
    assert rel.values[:3] == ("deploy", "depends_on", "note-0")


def test_embeddings_show_dimension_and_norm_never_numbers(build, opened):
    b = build()
    good = b.memory("good", "x", embedding=vector([0.6, 0.8, 0.0, 0.0]))
    odd = b.memory("odd", "x", embedding=b"\x00" * 7)
    nan = b.memory("nan", "x", embedding=vector([float("nan"), 1.0]))
    text = b.memory("text", "x", embedding="not bytes")
    zero = b.memory("zero", "x", embedding=vector([0.0, 0.0]))
    big = b.memory("big", "x", embedding=vector([0.123456] * 768))
    b.close()
    store = opened(b.path)
    c = store.capability(Collections)
    row = c.row("memory", good)
    assert row.values[4] == "4 d, norm 1.000" and row.problem is None
    assert row.raw["embedding"] == {"bytes": 16, "dimensions": 4, "norm": 1.0}
    assert "0.6" not in row.markdown and "0.8" not in repr(row.raw)
    big_row = c.row("memory", big)
    assert big_row.values[4] == f"768 d, norm {math.sqrt(768) * 0.123456:.3f}"
    assert "0.1234" not in big_row.markdown + repr(big_row.raw) + repr(big_row.values)
    for key, words in ((odd, "not a whole number"), (nan, "NaN"), (text, "not float32"), (zero, "all zeros")):
        assert words in c.row("memory", key).problem
    messages = " ".join(p.message for p in store.problems)
    assert "not a whole number of float32" in messages and "NaN" in messages
    report = store.report()["memory"]["embeddings"]
    assert report == {"count": 6, "dimensions": {"2": 2, "4": 1, "768": 1}, "damaged": 2}


def test_bad_metadata_and_bad_utf8_are_row_problems(build, opened):
    b = build()
    bad_json = b.memory("j", "x", metadata="{nope")
    bad_text = b.memory("u", "placeholder")
    b.sql("UPDATE memory SET content = CAST(x'66ff6f' AS TEXT) WHERE id = ?", (bad_text,))
    b.close()
    store = opened(b.path)
    c = store.capability(Collections)
    assert "metadata is not valid JSON" in c.row("memory", bad_json).problem
    row = c.row("memory", bad_text)
    assert "not valid UTF-8" in row.problem and row.values[1] == "f\ufffdo"
    assert len([p for p in store.problems if "not valid UTF-8" in p.message]) == 1
    all_rows(c, "memory")  # paging the same rows again adds no duplicate problems
    assert len([p for p in store.problems if "not valid UTF-8" in p.message]) == 1


def test_secrets_in_metadata_are_masked(build, opened):
    b = build()
    mid = b.memory("k", "x", metadata={"apiKey": "sk-live-0123456789abcdef", "n": 1})
    b.close()
    row = opened(b.path).capability(Collections).row("memory", mid)
    assert "0123456789abcdef" not in repr(row)
    assert '"n":1' in row.raw["metadata"]


def test_old_generation_without_agent_id(build, opened):
    b = build(generation="pre-agent-id")
    b.memory("k", "text")
    b.close()
    c = opened(b.path).capability(Collections)
    assert "memory-agents" not in {x.id for x in c.collections()}
    assert [r.values[0] for r in all_rows(c, "memory")] == ["default", "k"]


def test_one_damaged_embedding_is_described_in_the_singular(build, opened):
    b = build()
    one_byte = b.memory("one-byte", "x", embedding=b"\x00")
    one_nan = b.memory("one-nan", "x", embedding=vector([float("nan")]))
    b.close()
    store = opened(b.path)
    c = store.capability(Collections)
    assert "1 byte is not a whole number of float32 values" in c.row("memory", one_byte).problem
    assert "1 of 1 value is NaN or infinite" in c.row("memory", one_nan).problem
    store.report()
    assert any("1 embedding is not a whole float32 array (damaged)" in p.message for p in store.problems)
