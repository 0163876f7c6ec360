"""The documents a store offers (skills, prompt files, notes), searched beside its indexed messages.

The shared index holds messages only; a store's documents are few and small, so the command reads them
(each through the kind's own bounded ``Documents.read``) and keeps those holding every word of the query,
case-insensitively. Snippets are masked before they are printed, as the index's are.
"""

from __future__ import annotations

import re

from daycare_gui.stores.api import Documents
from daycare_gui.stores.common.secrets import mask_snippet

MAX_DOCUMENTS = 2000  # a store listing more is searched in its first ones (said in the output)
_OPERATORS = {"and", "or", "not", "near"}


def _words(query: str) -> list[str]:
    words = re.findall(r"[\w'-]+", query)
    return [w.lower() for w in words if w.lower() not in _OPERATORS and len(w) > 1]


def document_hits(store, query: str, limit: int = 50) -> list[dict]:
    """``[{"id", "title", "group", "snippet"}]`` for the documents holding every word of ``query``."""
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


def describe(hits: list[dict]) -> str:
    lines = [f"\nDocuments ({len(hits)})"]
    for h in hits:
        lines.append(f"  {h['title']}  [{h['group']}]")
        lines.append(f"    {h['snippet']}")
    return "\n".join(lines)
