"""Today's Daycare documents: the ``documents`` table (its memory) and the files beside the store."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.on_store import OnStore
from daycare_gui.stores.records import DocRef

MEMORY_GROUP = "memory"  # a documents row whose slug starts memory/ is a memory
MEMORY_SHELF = "Memory"  # where it stands in the window (as memory files do in the SQLite generation)


def _memory_shelf(slug: str | None) -> str:
    """Daycare's memory, knowledge and vault files became the documents table (slug "vault/trip"): all of
    it stands on the Memory shelf, as memory files do in the SQLite generation, each folder a sub-shelf."""
    folder = (slug or "").split("/")[0] if "/" in (slug or "") else ""
    return MEMORY_SHELF if folder in ("", MEMORY_GROUP) else f"{MEMORY_SHELF} · {folder}"


class PgDocuments(OnStore, api.Documents):
    """The ``documents`` table, and the files beside the store (skills, agents' prompt files) when the
    store was opened from its folder: one Documents section, each document routed to where it lives."""

    def __init__(self, store, files=None) -> None:
        self.store = store
        self.files = files  # datadir.documents.DataDirDocuments, or None

    def _table_docs(self) -> list[DocRef]:
        if not self.store.has("documents"):
            return []
        rows = self.db.rows("SELECT user_id, id, coalesce(title, slug, id), slug FROM documents "
                            "WHERE valid_to IS NULL ORDER BY slug, id")
        return [DocRef(f"{u}/{i}", title, None, group=_memory_shelf(slug)) for u, i, title, slug in rows]

    def count_of(self, shelf: str) -> int | None:
        # the navigation's count: a count query for the documents table (all of it is Memory), the files'
        # own list (read once, kept) for the rest
        files = self.files.count_of(shelf) if self.files is not None else 0
        if not self.store.has("documents") or not api.in_shelf(shelf, "Memory"):
            return files
        if shelf == "Memory":
            return files + int(self.db.scalar("SELECT count(*) FROM documents WHERE valid_to IS NULL") or 0)
        return files + sum(1 for d in self._table_docs() if api.in_shelf(d.group, shelf))

    def documents(self) -> list[DocRef]:
        return self._table_docs() + (self.files.documents() if self.files is not None else [])

    def count(self) -> int | None:
        return len(self._table_docs()) + (self.files.count() if self.files is not None else 0)

    def _file(self, ref: DocRef) -> bool:
        return self.files is not None and self.files.owns(ref)

    def read(self, ref: DocRef) -> bytes:
        if self._file(ref):
            return self.files.read(ref)
        user_id, _, doc_id = ref.id.partition("/")
        body = self.db.scalar("SELECT body FROM documents WHERE user_id = :u AND id = :i AND valid_to IS NULL",
                              {"u": user_id, "i": doc_id})
        return (body or "").encode("utf-8")

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *, force: bool = False):
        if self._file(ref):
            return self.files.save(ref, data, expected_sha256, force=force)
        from daycare_gui.stores.daycare.pg.writes import update_document

        update_document(self.store, ref, data.decode("utf-8"), expected_sha256, force=force)

    # The files beside the store answer for their own documents (outlines, fields, skill versions).
    def outline(self, ref: DocRef):
        return self.files.outline(ref) if self._file(ref) else []

    def fields(self, ref: DocRef):
        """A row's title and description (a memory renamed); the files' own fields for a file."""
        if self._file(ref):
            return self.files.fields(ref)
        user_id, _, doc_id = ref.id.partition("/")
        rows = self.db.rows("SELECT title, description FROM documents WHERE user_id = :u AND id = :i "
                            "AND valid_to IS NULL", {"u": user_id, "i": doc_id}) if self.store.has("documents") else []
        if not rows:
            return ()
        return ((api.EditableField("title", "Title"), rows[0][0] or ""),
                (api.EditableField("description", "Description"), rows[0][1] or ""))

    def update_fields(self, ref: DocRef, changes, expected_sha256, *, force: bool = False):
        if self._file(ref):
            return self.files.update_fields(ref, changes, expected_sha256, force=force)
        from daycare_gui.stores.daycare.pg.writes import update_document_fields

        update_document_fields(self.store, ref, changes, expected_sha256, force=force)
        return None

    def memory_of(self, thread_id: str) -> list[DocRef]:
        """The memory rows (slug memory/…) of the agent's user."""
        if not thread_id or not self.store.has("documents") or not self.store.has("agents"):
            return []
        current = self.store.current("agents").replace(" WHERE ", " AND ")  # (the agent's current version)
        rows = self.db.rows(f"SELECT user_id FROM agents WHERE id = :a{current}", {"a": thread_id})
        user_id = rows[0][0] if rows else None
        return [d for d in self._table_docs() if user_id and d.group == MEMORY_SHELF
                and d.id.partition("/")[0] == user_id]

    # -- New memory… (a ``documents`` row under memory/, as Daycare keeps a memory since 7c3c466c) ------
    def _owners(self) -> list[tuple[str, str]]:
        """(label, user id) of each current user, the label "name (id)"."""
        if not self.store.has("users"):
            return []
        rows = self.db.rows("SELECT id, trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) FROM users "
                            "WHERE valid_to IS NULL ORDER BY created_at, id")
        return [(f"{name} ({uid})" if name else str(uid), str(uid)) for uid, name in rows]

    def creatable(self, group: str):
        if group not in ("", MEMORY_GROUP, MEMORY_SHELF) or not self.store.has("documents"):
            return ()
        owners = tuple(label for label, _ in self._owners())
        if not owners:
            return ()
        return (api.EditableField("user", "User", "choice", owners, default=owners[0]),
                api.EditableField("name", "Name", help="one word or a few, the end of its slug (memory/<name>)"),
                api.EditableField("title", "Title"), api.EditableField("description", "Description"),
                api.EditableField("body", "Text", "markdown"))

    def create(self, group: str, values: dict, *, force: bool = False):
        from daycare_gui.stores.daycare.pg.writes import create_document

        if group not in ("", MEMORY_GROUP, MEMORY_SHELF):
            return super().create(group, values, force=force)
        owners = dict(self._owners())
        user_id = owners.get(str(values.get("user") or ""))
        name = "-".join(str(values.get("name") or "").lower().split())
        if user_id is None or not name or "/" in name:
            raise api.WriteRefused("A new memory needs a user and a name (no slash).")
        title = str(values.get("title") or "").strip() or name
        doc_id = create_document(self.store, user_id, f"{MEMORY_GROUP}/{name}", title,
                                 str(values.get("description") or ""), str(values.get("body") or ""), force=force)
        return f"{MEMORY_GROUP}/{name} ({user_id}/{doc_id})"

    def versions(self, ref: DocRef):
        return self.files.versions(ref) if self._file(ref) else []

    # The file editor opens files by path (a skill, a prompt file): the files beside the store answer.
    def form(self, ref: DocRef):
        return self.files.form(ref) if self.files is not None and ref.path is not None else super().form(ref)

    def read_version(self, ref: DocRef, version_id: str) -> bytes:
        return self.files.read_version(ref, version_id) if self._file(ref) else b""
