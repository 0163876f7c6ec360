"""The documents a store's search covers: what its ``SearchSource`` names (memory, settings keys, a kind's
own notes) and every document of its ``Documents`` capability (skills, prompt files), once each.

Each is read through the kind's own bounded ``Documents.read``; one that cannot be read is left out (the
store's problems say why). The index (:func:`~daycare_gui.stores.common.search_index.update_documents`)
masks secrets in what is gathered here before it stores a byte of it.
"""

from __future__ import annotations

from collections.abc import Iterator

from daycare_gui.stores.api import Documents, SearchSource
from daycare_gui.stores.records import SearchDocument

MAX_DOCUMENTS = 5000  # a store listing more is searched in its first ones
MAX_BYTES = 1 << 20  # of one document


def store_documents(store, source: SearchSource | None = None) -> Iterator[SearchDocument]:
    """Every document ``store`` offers to search, the source's own first."""
    seen: set[str] = set()
    source = source if source is not None else store.capability(SearchSource)
    if source is not None:
        for doc in source.documents():
            if doc.key not in seen:
                seen.add(doc.key)
                yield doc
    docs = store.capability(Documents)
    if docs is None:
        return
    for ref in docs.documents()[:MAX_DOCUMENTS]:
        if ref.id in seen:
            continue
        seen.add(ref.id)
        try:
            data = docs.read(ref)[:MAX_BYTES]
        except Exception:  # a document that cannot be read is no hit; the store's problems say why
            continue
        where = " · ".join(x for x in (ref.group, str(ref.path) if ref.path is not None else "") if x)
        yield SearchDocument(ref.id, ref.title, ref.group or "Documents", where,
                             data.decode("utf-8", "replace"))
