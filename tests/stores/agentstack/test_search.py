"""Full-text search through the store's own memory_fts: the same hits, in the same BM25 order, as plain
sqlite3; highlighted snippets; the FTS5 integrity check and what its failure means."""

import sqlite3

import pytest

from daycare_gui.stores.agentstack import search_memory
from daycare_gui.stores.agentstack.search import normalised_score
from daycare_gui.stores.api import Actions, Collections
from tests.stores.agentstack.builder import fingerprint, plain

TEXTS = [
    ("deploy", "Deploy to staging first, then production after approval.", "ops"),
    ("deploy-notes", "Deploying requires a green build. Deploy deploy deploy.", "ops"),
    ("tests", "Run the tests before every deploy.", "default"),
    ("style", "Small modules and type hints.", "default"),
    ("running", "The runner runs jobs; running them twice is safe.", "default"),
    ("punct", 'Quotes "like this" and (brackets) - also AND/OR words', "default"),
]


@pytest.fixture
def store(build, opened):
    b = build()
    for key, text, ns in TEXTS:
        b.memory(key, text, namespace=ns)
    b.close()
    return opened(b.path)


def _sqlite3_hits(path, match, namespace=None):
    conn = plain(path)
    try:
        sql = ("SELECT m.id, bm25(memory_fts) FROM memory_fts JOIN memory m ON m.rowid = memory_fts.rowid "
               "WHERE memory_fts MATCH ?" + (" AND m.namespace = ?" if namespace else "")
               + " ORDER BY bm25(memory_fts)")
        return conn.execute(sql, (match, namespace) if namespace else (match,)).fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("query", ["deploy", "deploy*", '"green build"', "deploy OR modules", "run", "tests deploy"])
def test_hits_and_ranking_match_plain_sqlite3(store, query):
    rows = search_memory(store, query, 50)
    expected = _sqlite3_hits(store.path, query)
    assert expected, "the query must find something"
    assert [r.key for r in rows] == [i for i, _ in expected]
    assert [r.raw["bm25"] for r in rows] == pytest.approx([b for _, b in expected])
    assert [r.values[2] for r in rows] == [normalised_score(b) for _, b in expected]
    assert all(0 <= r.values[2] <= 1 for r in rows)


def test_porter_stemming_and_snippets(store):
    rows = search_memory(store, "running", 10)
    assert {r.values[0] for r in rows} == {"running", "tests"}  # "Run the tests": porter stems both to run
    hit = next(r for r in rows if r.values[0] == "running")
    assert "«running»" in hit.values[3] and "«runs»" in hit.values[3] and "runner" in hit.values[3]
    assert "«runner»" not in hit.values[3]  # porter keeps runner apart
    assert "**running**" in hit.markdown
    assert hit.links[0].value[0] == "memory"
    assert store.capability(Collections).row(*hit.links[0].value).values[0] == "running"


def test_limit_namespace_and_the_collections_method(store):
    c = store.capability(Collections)
    assert len(c.search("deploy", 1)) == 1
    ops = c.search("deploy", 10, namespace="ops")
    assert [r.values[0] for r in ops] == [k for k in
                                         (r.values[0] for r in search_memory(store, "deploy", 10))
                                         if k in ("deploy", "deploy-notes")]
    assert [r.key for r in ops] == [i for i, _ in _sqlite3_hits(store.path, "deploy", "ops")]


def test_text_that_is_not_fts5_syntax_is_searched_as_words(store):
    rows = search_memory(store, '"like this" (brackets', 10)  # unbalanced parenthesis
    assert [r.values[0] for r in rows] == ["punct"]
    assert rows[0].raw["match"] == '"like" "this" "brackets"'
    assert search_memory(store, "   ", 10) == []
    assert search_memory(store, "nothing-matches-this", 10) == []


def test_search_without_an_index_says_why(build, opened):
    b = build(omit=("memory_fts",))
    b.memory("k", "text")
    b.close()
    rows = search_memory(opened(b.path), "text", 5)
    assert len(rows) == 1 and "no memory_fts" in rows[0].problem


def test_integrity_check_passes_and_writes_nothing(store):
    folder = store.path.parent
    before = fingerprint(folder)
    actions = store.capability(Actions)
    [action] = actions.actions()
    assert action.writes is False and "rebuild" in action.description
    message = actions.run(action.id)
    assert message.startswith("The FTS5 integrity check passed") and "6 documents indexed for 6" in message
    assert fingerprint(folder) == before


def test_integrity_check_failure_explains_the_rebuild(build, opened):
    b = build()
    for key, text, ns in TEXTS:
        b.memory(key, text, namespace=ns)
    # What a VACUUM renumbering or a tool without the triggers leaves: memory changed behind the index.
    b.sql("DROP TRIGGER memory_au")
    b.sql("UPDATE memory SET content = 'completely different words' WHERE key = 'style'")
    b.close()
    store = opened(b.path)
    message = store.capability(Actions).run("fts-integrity-check")
    assert "failed" in message and "INSERT INTO memory_fts(memory_fts) VALUES('rebuild')" in message
    assert "stop AgentStack" in message
    assert any("memory_fts does not match" in p.message for p in store.problems)
    # AgentStack's rebuild fixes it (done here by the test, as the user would in the sqlite3 shell)
    conn = sqlite3.connect(b.path)
    conn.execute("INSERT INTO memory_fts(memory_fts) VALUES('rebuild')")
    conn.commit()
    conn.close()
    store.close()
    assert "passed" in opened(b.path).capability(Actions).run("fts-integrity-check")


def test_renumbered_rowids_are_what_the_check_finds(build, opened):
    """VACUUM may renumber memory's implicit rowids behind the index (triggers do not run): simulated here."""
    b = build()
    for key, text, ns in TEXTS:
        b.memory(key, text, namespace=ns)
    b.sql("DROP TRIGGER memory_au")
    b.sql("UPDATE memory SET rowid = rowid + 1000")
    b.sql("UPDATE memory SET rowid = rowid - 999")  # every entry now sits one rowid further on
    b.close()
    store = opened(b.path)
    hits = [r.values[0] for r in search_memory(store, "modules", 5)]
    assert hits != ["style"]  # the stale index points at another entry's row
    assert "failed" in store.capability(Actions).run("fts-integrity-check")


def test_the_memory_lists_offer_search_through_the_kind_neutral_contract(store):
    cap = store.capability(Collections)
    assert cap.search_columns("memory") == ("Key", "Namespace", "Score (lower = better)", "Snippet")
    assert cap.search_columns("memory-agents") == cap.search_columns("memory")
    assert cap.search_columns("sessions") == () and cap.search_rows("sessions", "deploy") == []
    hits = cap.search_rows("memory", "deploy", 50)
    assert [h.key for h in hits] == [i for i, _ in _sqlite3_hits(store.path, "deploy")]
    # a hit leads to the entry in the list it was found from
    assert {lk.value for h in hits for lk in h.links} == {("memory", h.key) for h in hits}
    by_agent = cap.search_rows("memory-agents", "deploy", 50)
    assert {lk.value for h in by_agent for lk in h.links} == {("memory-agents", h.key) for h in by_agent}
    assert all(cap.row(cid, h.key) is not None for cid in ("memory", "memory-agents") for h in hits)


def test_a_database_without_memory_fts_offers_no_search_box(build, opened):
    b = build(omit=("memory_fts",))
    b.memory("k", "text")
    b.close()
    cap = opened(b.path).capability(Collections)
    assert cap.search_columns("memory") == ()


def test_integrity_check_counts_one_row_in_the_singular(build, opened):
    b = build()
    b.memory("only", "just one entry")
    b.close()
    message = opened(b.path).capability(Actions).run("fts-integrity-check")
    assert "(1 document indexed for 1 memory row)" in message


def _renumbered(build):
    """What a VACUUM that renumbers memory's implicit rowids leaves: the index still names the old ones."""
    b = build()
    for key, text in (("a", "alpha apples"), ("b", "bravo bananas"), ("c", "charlie cherries"),
                      ("d", "delta dates"), ("e", "echo elderberries")):
        b.memory(key, text)
    b.sql("DELETE FROM memory WHERE key IN ('a', 'b')")  # (through the triggers: the index follows)
    b.sql("DROP TRIGGER memory_au")
    b.sql("UPDATE memory SET rowid = rowid - 2")  # c, d, e: rowids 3, 4, 5 become 1, 2, 3
    b.close()
    return b.path


def test_hits_an_out_of_step_index_gets_wrong_are_left_out_with_a_warning(build, opened):
    store = opened(_renumbered(build))
    # The index has "cherries" at rowid 3, which is now echo's row: without the check "e" was the hit.
    warning, *hits = search_memory(store, "cherries", 10)
    assert hits == []
    assert warning.key == "" and warning.problem is None
    assert "out of step" in warning.flag
    assert "1 hit pointed at an entry that no longer contains the words searched" in warning.flag
    assert "rebuild" in warning.flag
    # "elderberries" is indexed at rowid 5, which no row has now
    warning, *hits = search_memory(store, "elderberries", 10)
    assert hits == [] and "1 hit pointed at a memory row that no longer exists" in warning.flag
    # "dates" is at rowid 4, gone too; "echo" (rowid 5) likewise: every hit here is wrong, none is shown
    assert [r.key for r in search_memory(store, "dates OR echo", 10)] == [""]


def test_a_hit_that_still_holds_the_words_stays_beside_the_warning(build, opened):
    b = build()
    ids = {key: b.memory(key, text) for key, text, _ns in TEXTS}
    b.sql("DROP TRIGGER memory_au")
    b.sql("UPDATE memory SET content = 'completely different words' WHERE key = 'tests'")
    b.close()
    rows = search_memory(opened(b.path), "deploy", 10)
    assert rows[0].key == ""
    assert "1 hit pointed at an entry that no longer contains the words searched" in rows[0].flag
    assert {r.key for r in rows[1:]} == {ids["deploy"], ids["deploy-notes"]}  # (their key or text holds it)


def test_a_hit_changed_behind_the_index_is_kept_warned_about_and_cut_from_its_new_text(build, opened):
    """Its key still matches, so it is a true hit; but the index ranks it by its old text, and the old
    words' places would cut its snippet at the wrong words."""
    b = build()
    ids = {key: b.memory(key, text) for key, text, _ns in TEXTS}
    b.sql("DROP TRIGGER memory_au")
    b.sql("UPDATE memory SET content = 'completely different words' WHERE key = 'deploy-notes'")
    b.close()
    rows = search_memory(opened(b.path), "deploy", 10)
    assert "1 hit came from an entry changed since it was indexed" in rows[0].flag
    changed = next(r for r in rows[1:] if r.key == ids["deploy-notes"])
    assert "«deploy»" in changed.values[3] and "completely" not in changed.values[3]


def test_rows_the_index_lacks_are_warned_about(build, opened):
    b = build()
    for key, text, ns in TEXTS:
        b.memory(key, text, namespace=ns)
    b.sql("DROP TRIGGER memory_ai")
    b.memory("unindexed", "deploy without the trigger")
    b.close()
    rows = search_memory(opened(b.path), "deploy", 10)
    assert "it indexes 6 entries for 7 memory rows" in rows[0].flag
    assert len(rows) == 4  # the warning and the three true hits; the unindexed row cannot be found


def test_a_failed_index_check_is_remembered_by_every_search(build, opened):
    b = build()
    for key, text, ns in TEXTS:
        b.memory(key, text, namespace=ns)
    b.sql("DROP TRIGGER memory_au")
    b.sql("UPDATE memory SET content = 'completely different words' WHERE key = 'style'")
    b.close()
    store = opened(b.path)
    assert search_memory(store, "deploy", 10)[0].key  # nothing this search can see
    store.capability(Actions).run("fts-integrity-check")
    rows = search_memory(store, "deploy", 10)
    assert "the last index check failed" in rows[0].flag and len(rows) == 4


def test_an_index_in_step_gives_no_warning(store):
    assert all(r.key and not r.flag for r in search_memory(store, "deploy OR modules OR run", 50))


@pytest.mark.parametrize("sample", __import__("tests.secret_samples", fromlist=["SAMPLES"]).SAMPLES,
                         ids=lambda s: s.name)
def test_a_memory_snippet_found_by_a_secrets_visible_part_shows_it_masked(build, opened, sample):
    """The snippet is masked before its highlights go in (issue #32): «sk»-proj-… printed the whole key."""
    from tests.secret_samples import leaked

    b = build()
    b.memory("planted", sample.text)
    b.close()
    rows = search_memory(opened(b.path), sample.query) + search_memory(opened(b.path), f"planted {sample.name}")
    shown = " ".join(str(r.values[3]) + (r.markdown or "") for r in rows)
    assert any(r.values[0] == "planted" for r in rows) and leaked(shown) == []
