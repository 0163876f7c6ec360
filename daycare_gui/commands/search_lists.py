"""``daycare-gui search`` on a store that offers no messages to the shared index but searches one of its own
lists with its own full-text index (AgentStack's memory, ranked by BM25 as AgentStack ranks it): what the
window's search box on that list finds, through the same ``Collections.search_rows`` the window calls.

``--json`` has the shape of the other kinds' (query, kind, total, groups → sessions → hits with
``message_id``, ``role``, ``kind``, ``at``, ``snippet``): a group is a list, its one "session" the hits, a
hit's ``message_id`` the row's key and ``values`` the list's search columns by name (AgentStack: ``key``,
``namespace``, ``score``).
"""

from __future__ import annotations

import json
import re
import sys

from daycare_gui.stores.api import Collections
from daycare_gui.stores.common.secrets import mask_snippet


def searchable_lists(store) -> list:
    """The store's lists that its own index can search: (collection, the hits' columns), in list order."""
    cap = store.capability(Collections)
    if cap is None:
        return []
    found = []
    for collection in cap.collections():
        columns = cap.search_columns(collection.id)
        if columns:
            found.append((collection, tuple(columns)))
    return found


def _snippet(row, columns: tuple[str, ...]) -> str:
    """The hit's snippet on one line, matches in brackets (as the other kinds' hits show them), secrets
    masked."""
    named = [i for i, c in enumerate(columns) if c.lower() == "snippet" and i < len(row.values)]
    text = str(row.values[named[0]]) if named else (row.markdown or "")
    text = text.replace("«", "[").replace("»", "]")
    return mask_snippet(" ".join(text.split()))


def _name(column: str) -> str:
    """A column's heading as a JSON key: ``Score (lower = better)`` → ``score``."""
    return re.sub(r"\W+", "_", column.split("(")[0].strip().lower()).strip("_") or "value"


def search_lists(args, store, lists, query: str) -> int:
    from daycare_gui.stores import registry

    cap = store.capability(Collections)
    groups, seen, notes, failures = [], set(), [], []
    for collection, columns in lists:
        hits = []
        for row in cap.search_rows(collection.id, query, args.limit):
            if not row.key:  # no hit: why search could not run, or a warning about the hits
                (failures if row.problem else notes).append(row.problem or row.flag)
                continue
            if row.key in seen or len(seen) >= args.limit:  # (one entry listed twice: memory by agent)
                continue
            seen.add(row.key)
            hits.append({"message_id": row.key, "role": "", "kind": collection.id, "at": None,
                         "snippet": _snippet(row, columns),
                         "values": {_name(c): v for c, v in zip(columns, row.values) if c.lower() != "snippet"}})
        if hits:
            groups.append({"thread_id": collection.id, "thread": collection.title,
                           "sessions": [{"session_id": "", "hits": hits}]})
    if failures and not groups:
        print(f"daycare-gui: cannot search this store: {failures[0]}", file=sys.stderr)
        return 1
    for note in dict.fromkeys(notes):
        print(f"daycare-gui: {note}", file=sys.stderr)
    title = registry.load_kind(store.kind).title or store.kind
    total = len(seen)
    summary = (f"{total:,} match{'es' if total != 1 else ''} for {query!r} in {title}'s own index "
               f"({', '.join(c.title for c, _ in lists)}), best first")
    from daycare_gui.commands.search_documents import describe, document_hits

    documents = document_hits(store, query)  # the same key as every kind's search (search_kinds)
    if args.json:
        print(json.dumps({"query": query, "expression": query, "index": f"{title}'s own", "kind": store.kind,
                          "total": total, "total_capped": False, "ranked_within": None, "groups": groups,
                          "documents": documents}, ensure_ascii=False, indent=2))
        return 0
    lines = [summary]
    for g in groups:
        lines.append(f"\n{g['thread']}")
        for h in g["sessions"][0]["hits"]:
            facts = "  ".join(str(v) for v in h["values"].values() if v not in (None, ""))
            lines.append(f"    {facts}: {h['snippet']}")
    print("\n".join(lines) + (describe(documents) if documents else ""))
    return 0
