"""Quick open: every item of a store as (kind, key, label, detail), found as the user types.

The list is built once per opened store, on a worker (``entries_of``): from the kind's :class:`Directory`
when it offers one, else through its other capabilities. It holds keys and short labels only, never record
bodies (about 150 bytes an item: 21,000 items on the large demo store are a few megabytes).

``JumpIndex.search`` ranks what matches: the exact id or label first, then ids starting with what was
typed, then matches at the start of a word, then any substring. Every word typed must match. It is a
scan of lower-cased strings, a few milliseconds on the large demo store, so it runs as the user types.

Deep links name an item by kind and key: ``daycare-gui PATH --open session:<id>``.
"""

from __future__ import annotations

import re
import shlex
from array import array
from collections.abc import Iterable, Iterator
from itertools import islice

from daycare_gui.stores import api
from daycare_gui.stores.records import JumpEntry

# The order kinds are listed in when they rank alike: what people jump to most often first.
KIND_ORDER = ("section", "agent", "session", "user", "task", "app", "doc", "table", "row")
# What the palette shows for each kind, and what a link may say instead ("thread:" for a kind's threads).
# "section" entries are the window's navigation pages, which the window adds to the store's items.
KIND_TITLES = {"section": "Page", "agent": "Agent", "session": "Session", "user": "User", "task": "Task", "app": "App",
               "doc": "Document", "table": "Table", "row": "Row"}
LINK_ALIASES = {"thread": "agent", "document": "doc", "skill": "doc"}
# A collection this big is not listed row by row by the fallback (its pane has its own filter).
MAX_COLLECTION_ROWS = 5000

_SEPARATORS = re.compile(r"[^0-9a-z]+")


def entries_of(opened: api.OpenedStore) -> list[JumpEntry]:
    """Every item of ``opened`` worth jumping to. Slow on a big store: call it on a worker."""
    directory = opened.capability(api.Directory)
    if directory is not None:
        return list(directory.entries())
    return list(_from_capabilities(opened))


def _from_capabilities(opened: api.OpenedStore) -> Iterator[JumpEntry]:
    """The fallback for kinds without a Directory: what their capabilities list, each guarded so that a
    failing one leaves the others."""
    conversations = opened.capability(api.Conversations)
    if conversations is not None:
        noun = conversations.thread_label.rstrip("s") or "Thread"
        try:
            threads = conversations.threads()
        except Exception:  # a kind's bug must not empty the palette
            threads = []
        for t in threads:
            yield JumpEntry("agent", t.id, t.title or t.id, f"{noun} · {t.subtitle}".strip(" ·"), t.id)
        for t in threads:
            try:
                sessions = conversations.sessions(t.id)
            except Exception:
                continue
            for s in sessions:
                yield JumpEntry("session", s.ref.session_id, s.title or s.ref.session_id,
                                f"{t.title or t.id}", s.ref)
    tasks = opened.capability(api.Tasks)
    if tasks is not None:
        for task in _guarded(tasks.tasks):
            yield JumpEntry("task", task.id, task.title or task.id, " · ".join(
                x for x in (task.schedule_kind, task.schedule, task.source) if x), task.id)
    documents = opened.capability(api.Documents)
    if documents is not None:
        for doc in _guarded(documents.documents):
            yield JumpEntry("doc", doc.id, doc.title or doc.id, str(doc.path or doc.group or ""), doc.id)
    tables = opened.capability(api.Tables)
    if tables is not None:
        for table in _guarded(tables.tables):
            if not table.hidden:
                yield JumpEntry("table", table.name, table.name, "table", table.name)
    collections = opened.capability(api.Collections)
    if collections is not None:
        for c in _guarded(collections.collections):
            yield from _collection_rows(collections, c)


def _collection_rows(collections: api.Collections, c) -> Iterator[JumpEntry]:
    try:
        size = collections.size(c.id)
        if size > MAX_COLLECTION_ROWS:
            return
        for offset in range(0, size, 500):
            for row in collections.rows(c.id, offset, 500):
                label = next((str(v) for v in row.values if isinstance(v, str) and v.strip() and v != row.key),
                             row.key)
                yield JumpEntry("row", f"{c.id}:{row.key}", label[:120], f"{c.title} · {row.key}", row.key,
                                collection=c.id)
    except Exception:
        return


def _guarded(fetch) -> list:
    try:
        return list(fetch())
    except Exception:
        return []


class JumpIndex:
    """The searchable list. Built from plain entries; immutable, so any thread may read it.

    Entries are sorted once, at build time, in the order equal matches are listed (kind, then shorter
    labels), so a search only filters: each rank keeps the index order and no per-keystroke sort is needed.
    Per entry it keeps two strings: ``hay`` ("key\nlabel\ndetail", lower-cased; starts with the key, so
    an id prefix is ``hay.startswith``) and ``words`` (the label, then key and detail, with every run of
    separators one space: " " + a word finds a word's start, "alex" in "@alex"; the label's words are
    those before ``label_end``).
    """

    def __init__(self, entries: Iterable[JumpEntry]) -> None:
        order = {k: i for i, k in enumerate(KIND_ORDER)}
        self.entries: list[JumpEntry] = sorted(
            entries, key=lambda e: (order.get(e.kind, len(order)), len(e.label), e.label.lower(), e.key))
        self._hay: list[str] = []
        self._words: list[str] = []
        self._label_end: list[int] = []
        self._lengths = array("I")  # per entry: its lower-cased key's length, then its label's
        # kind → key → entry: the entries' own key strings, no "kind:key" string made for each. (The index
        # of a large store holds 21,000 entries: every string kept per entry is ~2 MB more held for the
        # window's lifetime. An exact id or label typed is found among a search's candidates instead of
        # in a dict of both lower-cased, which held 7 MB there.)
        self._by_key: dict[str, dict[str, JumpEntry]] = {}
        for e in self.entries:
            key, label = e.key.lower(), e.label.lower()
            self._hay.append(f"{key}\n{label}\n{e.detail.lower()}")
            label_words = " " + _SEPARATORS.sub(" ", label)
            self._words.append(f"{label_words} {_SEPARATORS.sub(' ', f'{key} {e.detail.lower()}')}")
            self._label_end.append(len(label_words))
            self._lengths.extend((len(key), len(label)))
            self._by_key.setdefault(e.kind, {}).setdefault(e.key, e)
            if e.collection:  # "row:<collection>:<key>" (the collection pane's links) finds it too
                self._by_key.setdefault("row", {}).setdefault(
                    f"{e.collection}:{e.ref if e.ref is not None else e.key}", e)

    def __len__(self) -> int:
        return len(self.entries)

    def find(self, kind: str, key: str) -> JumpEntry | None:
        """The item a deep link names (``kind`` may be an alias: thread, document)."""
        return self._by_key.get(LINK_ALIASES.get(kind, kind), {}).get(key)

    def search(self, query: str, limit: int = 50) -> list[JumpEntry]:
        """Up to ``limit`` entries matching every word of ``query``, best first: the exact id or label,
        ids starting with it, labels with a word starting with each word typed, any word starting so
        (an owner's name, a path), then substrings anywhere."""
        q = " ".join(query.lower().split())
        if not q:
            return []
        terms = sorted(set(q.split()), key=len, reverse=True)  # the longest term filters the most
        hay = self._hay
        candidates = [i for i, h in enumerate(hay) if terms[0] in h]
        for term in terms[1:]:
            candidates = [i for i in candidates if term in hay[i]]
        if not candidates:
            return []
        words, ends = self._words, self._label_end
        starts = [" " + s for s in (_SEPARATORS.sub(" ", t).strip() for t in terms) if s]
        # the whole id or label typed: where its length is the id's or the label's (a cheap test first:
        # a one-letter query has every entry for a candidate), the haystack starts with it or has it next
        n, lengths = len(q), self._lengths
        out: list[int] = [i for i in candidates if lengths[2 * i] == n or lengths[2 * i + 1] == n]
        out = [i for i in out if (lengths[2 * i] == n and hay[i].startswith(q + "\n"))
               or (lengths[2 * i + 1] == n and hay[i].startswith(q + "\n", lengths[2 * i] + 1))][:limit]
        taken: set[int] = set(out)
        # Each rank is a lazy pass that stops once the list is full: candidates are already in the order
        # equal matches are shown, so a rank's first hits are its best. The passes are written out (no
        # per-item function call): a one-letter query walks all 21,000 items of the large demo.
        first = starts[0] if starts else "\0"
        more = starts[1:]
        if more:  # several words: each must start a word
            in_label = (i for i in candidates if i not in taken and all(words[i].find(w, 0, ends[i]) >= 0
                                                                        for w in starts))
            anywhere = (i for i in candidates if i not in taken and all(w in words[i] for w in starts))
        else:
            in_label = (i for i in candidates if i not in taken and words[i].find(first, 0, ends[i]) >= 0)
            anywhere = (i for i in candidates if i not in taken and first in words[i])
        passes = (
            (i for i in candidates if i not in taken and hay[i].startswith(q)),
            in_label,
            anywhere,
            (i for i in candidates if i not in taken),
        )
        for found in passes:  # generators: ``taken`` is read as each pass runs
            hits = list(islice(found, limit - len(out)))
            out += hits
            if len(out) >= limit:
                break
            taken.update(hits)
        return [self.entries[i] for i in out]


# -- deep links ---------------------------------------------------------------------------------------------


def link_target(text: str) -> tuple[str, str] | None:
    """``"session:abc"`` → ("session", "abc"); None when it does not look like KIND:KEY."""
    kind, sep, key = text.strip().partition(":")
    kind = LINK_ALIASES.get(kind.strip().lower(), kind.strip().lower())
    if not sep or not key or kind not in KIND_TITLES:
        return None
    return kind, key


def deep_link(store_path: str, kind: str, key: str) -> str:
    """The command that reopens the store at this item, quoted for a POSIX shell."""
    return f"daycare-gui {shlex.quote(store_path)} --open {shlex.quote(f'{kind}:{key}')}"
