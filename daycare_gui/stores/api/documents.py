"""What a store keeps as documents, files and lists: Markdown documents and the form that edits one
(:class:`Documents`, :class:`DocumentForm`), the folders shown as files (:class:`Files`), and a kind's own
lists (:class:`Collections`)."""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import Any

from daycare_gui.stores.api.kinds import Capability, EditableField, WriteRefused
from daycare_gui.stores.api.storage import StoreAction
from daycare_gui.stores.records import Collection, DocRef, DocVersion, FileEntry, FilePreview, FileRoot, Row


class DocumentForm:
    """How the file editor's Form tab shows one document: the store's reading of its bytes (#33).

    The store chooses it (:meth:`Documents.form`); the editor only renders it. Fields are
    :class:`EditableField` specs of kinds "text" (one line), "markdown" (several lines), "bool",
    "schedule" (a cron expression; it follows a bool field named "enabled" beside it) and "rules" (an
    ordered list of one-line items, each checked by :meth:`check_item`; ``help`` is the input's hint).
    Every edit is bytes in, bytes out, changing only the bytes of what was edited; a value refused raises
    ``ValueError`` (``InvalidValue``) with a sentence saying why. The default is the text alone: a body box.
    """

    label = "Markdown file"  # what the editor's header calls the document
    fields: tuple[EditableField, ...] = ()
    body_label: str | None = "Body"  # the body's box; None: no body box (the fields are the document)
    records_label: str | None = None  # a document made of titled records (## sections): their list
    runner = "the system"  # who runs a schedule field's expression ("Daycare cannot run this schedule")
    hint = ""  # a note under the form

    def values(self, data: bytes) -> dict[str, Any]:
        """The fields' current values (absent ones missing or None)."""
        return {}

    def set_value(self, data: bytes, name: str, value: Any) -> bytes:
        """``data`` with field ``name`` set to ``value`` (the empty value of an optional field: unset)."""
        raise ValueError(f"{self.label} has no field {name!r}")

    def check_item(self, name: str, text: str) -> tuple[str | None, str | None]:
        """One item of a "rules" field as typed: (why it is refused, a warning), either None."""
        return None, None

    def problems(self, data: bytes) -> list[str]:
        """What the system would refuse or question in the document, shown under the form."""
        return []

    # -- records (only when ``records_label`` is set): (title, text) in file order, edited by index --
    def records(self, data: bytes) -> list[tuple[str, str]]:
        return []

    def set_record_text(self, data: bytes, index: int, text: str) -> bytes:
        raise ValueError("this document has no records")

    def add_record(self, data: bytes, title: str, text: str = "") -> bytes:
        raise ValueError("this document has no records")

    def rename_record(self, data: bytes, index: int, title: str) -> bytes:
        raise ValueError("this document has no records")

    def remove_record(self, data: bytes, index: int) -> bytes:
        raise ValueError("this document has no records")


def in_shelf(group: str, shelf: str | None) -> bool:
    """Whether a document of ``group`` stands on ``shelf``: a shelf is a group and its sub-groups ("Skills"
    holds "Skills · personal (alex)"); None is every shelf."""
    return shelf is None or group == shelf or group.startswith(shelf + " · ")


class Documents(Capability):
    """Markdown documents. The contract holds no way to read or write a file: a kind reads its documents
    (regular files only, ``stores.common.regular_files``) and saves them atomically and conflict-checked
    (``stores.common.edit.atomic``), after its own checks and backup. The Documents page and the editor
    window save a document the kind lists through :meth:`save` only (``daycare-gui edit`` too, for every kind
    but Daycare, whose files it still saves with the shared atomic save)."""

    @abstractmethod
    def documents(self) -> list[DocRef]: ...

    def read(self, ref: DocRef) -> bytes:
        """The document's bytes; a kind that lists documents without saying how to read them shows none."""
        return b""

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *,
             force: bool = False) -> Path | None:
        """Atomically replace the document if it still holds what was read (sha256 of those bytes):
        :class:`WriteConflict` when it does not. A kind refuses while its engine runs (WriteRefused),
        keeps a backup of the old bytes first (returning the copy's path; None when none was made) or
        writes elsewhere. ``force`` insists past such a refusal; it never skips the check for a change
        made meanwhile (to write over one, save again with the sha256 of the bytes now there).
        A ref whose id starts with ``file:`` is one the editor window made of a file of the store that
        :meth:`documents` does not list (a task's TASK.md, opened by its path): a kind whose files are edited
        that way saves it here too, the others refuse it (they never hand such a file to the editor).
        The default, for a kind that says nothing of saving: its documents are read-only."""
        raise WriteRefused(ref.readonly_reason or f"{ref.title} cannot be edited: this store saves no documents")

    def count(self) -> int | None:
        # A copy the system derives from another document (DocRef.derived_from) is not counted twice.
        return sum(1 for d in self.documents() if not d.derived_from)

    def count_of(self, shelf: str) -> int | None:
        """How many documents one shelf holds (``in_shelf``; derived copies not counted), for the navigation.
        By default every document is listed to count them; a kind with a cheaper way (a count query) says so."""
        return sum(1 for d in self.documents() if in_shelf(d.group, shelf) and not d.derived_from)

    # -- optional, each with a default every kind passes with (#33) --------------------------------
    def outline(self, ref: DocRef) -> list[Row]:
        """A masked tree of a structured document (settings, credentials): ``Row.parent`` keys, values
        ``(key, value)`` with every secret masked. Shown instead of the text when ``ref.secret``."""
        return []

    def fields(self, ref: DocRef) -> tuple[tuple[EditableField, Any], ...]:
        """The document's editable fields (a skill's name, a setting) with their current values; empty when
        it has none. ``update_fields`` takes the names."""
        return ()

    def update_fields(self, ref: DocRef, changes: dict[str, Any], expected_sha256: str | None, *,
                      force: bool = False) -> Path | None:
        """Write ``changes`` into the document as spliced edits (the bytes outside each value's span stay
        as they were), checked first (WriteRefused says why a value is invalid), conflict-checked against
        ``expected_sha256`` and saved like :meth:`save`."""
        raise WriteRefused(f"{ref.title} has no fields to edit")

    def versions(self, ref: DocRef) -> list[DocVersion]:
        """Earlier versions the system keeps of the document, oldest first."""
        return []

    def read_version(self, ref: DocRef, version_id: str) -> bytes:
        return b""

    def of_thread(self, thread_id: str) -> list[DocRef]:
        """The documents of one thread (an agent's prompt files)."""
        return [d for d in self.documents() if d.thread_id == thread_id]

    def memory_of(self, thread_id: str) -> list[DocRef]:
        """The listed documents holding what a thread remembers (a Daycare agent's user's MEMORY.md, its
        memory rows): the thread list's Memory button opens them. Empty: none, or the kind keeps no memory."""
        return []

    def creatable(self, group: str) -> tuple[EditableField, ...]:
        """What a new document of ``group`` asks for (a skill's place, name and description); empty: none
        can be made there. ``create`` takes the names."""
        return ()

    def create(self, group: str, values: dict[str, Any], *, force: bool = False) -> Path:
        """Make a new document of ``group`` from the system's template, never over an existing one; the
        path written. WriteRefused says why not (a running engine, unless ``force``; a bad name)."""
        raise WriteRefused(f"new {group or 'documents'} cannot be made here")

    def form(self, ref: DocRef) -> DocumentForm:
        """How the file editor's form shows ``ref`` (any file of the store the window opened, listed here or
        not: a task's file too); the default, its text alone, suits every Markdown file."""
        return DocumentForm()

    def deletable(self, ref: DocRef) -> bool:
        return False

    def delete(self, ref: DocRef, *, force: bool = False) -> str:
        """Move the document (a skill: its folder) aside, where the store's Trash restores it; says where."""
        raise WriteRefused(f"{ref.title} cannot be deleted")


class Files(Capability):
    """Folders beside the store, browsed lazily: a folder is listed only when opened, a file read bounded.

    Implementations never follow a link out of its root without saying so (``FileEntry.link``), open only
    regular files, and read at most ``limit`` bytes (the head, or the end with ``tail``: a long log)."""

    @abstractmethod
    def roots(self) -> list[FileRoot]: ...

    @abstractmethod
    def children(self, root_id: str, rel: str) -> list[FileEntry]: ...

    @abstractmethod
    def preview(self, root_id: str, rel: str, limit: int = 262_144, tail: bool = False) -> FilePreview: ...

    def count(self) -> int | None:
        return len(self.roots())


class Collections(Capability):
    """A kind's own lists (runs, missions, memory, checkpoints), shown by the shared list pane."""

    @abstractmethod
    def collections(self) -> list[Collection]: ...

    @abstractmethod
    def size(self, collection_id: str) -> int: ...

    @abstractmethod
    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]: ...

    def items(self, collection_id: str) -> int | None:
        """How many of its own items a tree collection holds, where its rows also hold groups or the
        items' children (memory entries under namespace headers, projects with their tasks): the count a
        person reads. None: every row is an item (``size``)."""
        return None

    def editable(self, collection_id: str, row: Row) -> tuple[EditableField, ...]:
        return ()

    def update(self, collection_id: str, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
        """Write ``changes`` to one row if it is still as ``row`` says (else WriteConflict)."""
        raise WriteRefused("this list cannot be edited")

    def search_columns(self, collection_id: str) -> tuple[str, ...]:
        """The columns of :meth:`search_rows`' hits when the list can be searched (a full-text index of the
        kind's own); ``()`` when it cannot, and the window then shows no search box."""
        return ()

    def search_rows(self, collection_id: str, query: str, limit: int = 200) -> list[Row]:
        """Up to ``limit`` rows matching ``query``, best first, with ``search_columns`` as values; a hit's
        ``markdown`` is its snippet and a link leads to the row itself. Read-only; may be slow (the window
        calls it off the GUI thread). When search cannot run: one row whose ``problem`` says why. A row
        without a key whose ``flag`` is set is no hit but a warning about the hits (an index out of step
        with the list): the window shows it as a line above them."""
        return []

    # -- row actions (Revoke grant…): what a person may do to one row, beyond editing its fields --------
    def row_actions(self, collection_id: str, row: Row) -> tuple[StoreAction, ...]:
        """The actions offered on ``row`` (none by default). ``description`` is what the window asks the
        person to confirm: what it changes on disk, in a sentence or two."""
        return ()

    def run_row_action(self, collection_id: str, row: Row, action_id: str, *, force: bool = False) -> str:
        """Run one of ``row_actions`` and say what happened in a sentence. A write is refused
        (:class:`WriteRefused`) while ``writes_blocked()`` says why unless ``force``; it checks that what
        it changes is still as ``row`` showed it (else :class:`WriteConflict`, nothing written), is atomic,
        and keeps a backup where the kind keeps one."""
        raise WriteRefused("this row has no such action")

    def create_fields(self, collection_id: str) -> tuple[EditableField, ...]:
        """What a new row of the list is made from (New app…); ``()``: the list takes no new rows."""
        return ()

    def create(self, collection_id: str, values: dict[str, Any], *, force: bool = False) -> str:
        """Add a row from ``values`` (keys of ``create_fields``) and return its key. Never replaces what is
        there; refused while ``writes_blocked()`` says why unless ``force``; a value that cannot be used
        raises ValueError with the sentence to show."""
        raise WriteRefused("this list takes no new rows")

    def row(self, collection_id: str, key: str) -> Row | None:
        """One row by key (to follow a link). The default scans; kinds with an index override it."""
        n = self.size(collection_id)
        for offset in range(0, n, 500):
            for r in self.rows(collection_id, offset, 500):
                if r.key == key:
                    return r
        return None
