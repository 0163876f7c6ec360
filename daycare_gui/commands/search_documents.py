"""The documents a search found (skills, prompt files, memory, settings keys), as the command prints them.

They come from the search index (``stores.common.search_index.update_documents``), which holds them masked
beside the messages, for every store that offers ``SearchSource``. A store searched only through one of its
own lists' indexes (AgentStack's memory) has no shared index: its few documents are read for the query
(:func:`document_hits`), as the command did for every kind before.
"""

from __future__ import annotations

import re

from daycare_gui.stores.api import Documents
from daycare_gui.stores.common.fts import plain_snippet
from daycare_gui.stores.common.secrets import mask_snippet

MAX_DOCUMENTS = 2000  # a store listing more is searched in its first ones
_OPERATORS = {"and", "or", "not", "near"}


def as_json(hits) -> list[dict]:
    """``[{"id", "title", "group", "where", "snippet"}]`` for the document hits, best first."""
    return [{"id": h.key, "title": h.title, "group": h.group, "where": h.where, "snippet": plain_snippet(h.snippet)}
            for h in hits]


def describe(hits: list[dict]) -> str:
    lines = [f"\nDocuments ({len(hits)})"]
    for h in hits:
        lines.append(f"  {h['title']}  [{h['group']}]  {h.get('where', '')}".rstrip())
        lines.append(f"    {h['snippet']}")
    return "\n".join(lines)


def _words(query: str) -> list[str]:
    words = re.findall(r"[\w'-]+", query)
    return [w.lower() for w in words if w.lower() not in _OPERATORS and len(w) > 1]


def document_hits(store, query: str, limit: int = 50) -> list[dict]:
    """For a store without a shared index: the documents holding every word of ``query``, read now."""
    docs = store.capability(Documents)
    words = _words(query)
    if docs is None or not words:
        return []
    hits = []
    for ref in docs.documents()[:MAX_DOCUMENTS]:
        try:
            text = docs.read(ref).decode("utf-8", "replace")
        except Exception:  # a document that cannot be read is no hit; the store's problems say why
            continue
        lowered = text.lower()
        if not all(w in lowered for w in words):
            continue
        at = lowered.find(words[0])
        excerpt = " ".join(text[max(0, at - 60): at + 100].split())
        hits.append({"id": ref.id, "title": ref.title, "group": ref.group, "snippet": mask_snippet(excerpt)})
        if len(hits) >= limit:
            break
    return hits
