"""One session's messages as a list model that fetches pages by key and never holds the whole session.

It reads any kind through the ``KeyedPages`` half of ``api.Conversations``: ``rowCount`` is the session's
message count (``tail``). A row that is not cached answers with a placeholder and asks the DB worker for
its page; the page is fetched by key from a cached neighbour (``page_after``/``page_before``), from the
row-key array once it has arrived (``key_chunk`` loads it in chunks between page fetches), or at a
position for a random jump before that (``page_at``). The page cache is an LRU of ``max_pages`` pages,
so memory stays flat however far the user scrolls. Pages arrive as :class:`PendingMessage` items, which a
kind may leave undecoded; a row is decoded the first time it is shown or asked for.
"""

from __future__ import annotations

import bisect
import itertools
from array import array
from collections import OrderedDict

from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt, QTimer, Signal

from daycare_gui.stores.records import Message, PendingMessage, SessionRef
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.roles import KeyRole, RecordRole, StateRole
from daycare_gui.ui.worker import LOW, NORMAL, DbWorker

PLACEHOLDER = "…"
ID_CHUNK = 5_000  # ~4 ms a chunk: a page asked for meanwhile never waits long behind one
_instances = itertools.count(1)

# A message's kind (the store's own record type) → (family used for styling, short label). Record types
# are data, not code: a kind not listed is drawn by its role below.
KINDS = {
    "user_message": ("user", "User"),
    "assistant_message": ("assistant", "Assistant"),
    "tool_result": ("tool", "Tool result"),
    "rlm_start": ("rlm", "Python start"),
    "rlm_tool_call": ("rlm", "Python → tool"),
    "rlm_tool_result": ("rlm", "Python ← tool"),
    "rlm_complete": ("rlm", "Python done"),
    "assistant_rewrite": ("rewrite", "Rewrite"),
    "note": ("note", "Note"),
    "start": ("marker", "Start"),
    "reset": ("marker", "Reset"),
}
ROLES = {
    "user": ("user", "User"),
    "assistant": ("assistant", "Assistant"),
    "tool": ("tool", "Tool result"),
    "system": ("note", "System"),
    "note": ("note", "Note"),
    "event": ("marker", "Event"),
}


def kind_of(message: Message) -> tuple[str, str]:
    """(family, label) of a message: by its kind's record type where it is a known one, else by role."""
    found = KINDS.get(message.kind)
    if found is None:
        found = ROLES.get(message.role) or ("other", message.role or "?")
    return found


def _key(entry: PendingMessage) -> int:
    return entry.key


class MessagePagesModel(QAbstractListModel):
    rows_loaded = Signal(int, int)  # first and last row of a page that arrived
    ids_ready = Signal()  # every row key is known: row_of_key() answers for any message
    grown = Signal(int, int)  # first and last row a live writer appended (inserted already)

    def __init__(self, worker: DbWorker, *, page_size: int = 200, max_pages: int = 16, parent=None) -> None:
        super().__init__(parent)
        self._worker = worker
        # One worker channel for this model's pages (several in flight) and one for its row keys.
        self._channel = f"message-pages-{next(_instances)}"
        self._ids_channel = f"{self._channel}-ids"
        self.page_size = page_size
        self.max_pages = max_pages
        self._cap = None  # the api.Conversations read
        self._ref: SessionRef | None = None
        self._count = 0
        self._pages: OrderedDict[int, list[PendingMessage]] = OrderedDict()  # page → entries, LRU order
        # page → a number given when its list was stored, never given again (see paint_token)
        self._page_tokens: dict[int, int] = {}
        self._serial = itertools.count(1)
        self._pending: set[int] = set()
        self._ids = array("q")
        self._ids_complete = False
        self._ids_wanted = False
        self._epoch = 0  # bumps per session so late answers for another session are dropped
        self._counted = True  # False while the count is only the first page's (see set_session)
        self._last_key: int | None = None  # the session's last key as counted (None: cannot follow)
        self._growing = False  # a read of what a writer appended is on its way
        self._grow_again = False  # the store changed again meanwhile
        self.rows_fetched = 0  # messages fetched so far (tests prove paging with it)
        self.pages_fetched = 0

    # -- feeding ---------------------------------------------------------------------------------
    def set_session(self, cap, ref: SessionRef | None, count: int, *, load_ids: bool = True,
                    counted: bool = True, last_key: int | None = None) -> None:
        """``counted=False``: ``count`` is only what is known so far (the first page); :meth:`grow` follows.
        ``last_key``: the key of the session's last message counted (-1 for none yet); with it the model
        can :meth:`follow_writer` when a live writer appends."""
        self._worker.cancel(self._channel)  # the old session's pages and keys: skipped or stopped
        self._worker.cancel(self._ids_channel)
        self._worker.cancel(f"{self._channel}-grow")
        self.beginResetModel()
        self._counted = counted
        self._epoch += 1
        self._cap, self._ref, self._count = cap, ref, max(0, int(count))
        self._last_key = last_key if cap is not None and ref is not None else None
        self._growing = self._grow_again = False
        self._pages.clear()
        self._page_tokens.clear()
        self._pending.clear()
        self._ids = array("q")
        self._ids_complete = False
        # Row keys are queued behind the first page a view asks for, so opening a session is one page
        # away; if no view asks soon, they start anyway.
        self._ids_wanted = bool(load_ids and cap is not None and ref is not None and self._count)
        self.endResetModel()
        if self._ids_wanted:
            epoch = self._epoch
            QTimer.singleShot(50, lambda: self._start_ids(epoch))

    def clear(self) -> None:
        self.set_session(None, None, 0)

    def grow(self, count: int, last_key: int | None = None) -> None:
        """The session turned out longer than ``set_session`` was told (it was shown before it was
        counted): append the rows, keep the pages, and start loading the row keys. ``last_key``: the last
        message counted, from which :meth:`follow_writer` reads what a live writer appends."""
        self._counted = True
        if last_key is not None:
            self._last_key = last_key
        if count > self._count:
            self.beginInsertRows(QModelIndex(), self._count, count - 1)
            self._count = count
            self.endInsertRows()
        if self._cap is not None and self._ref is not None and not self._ids and not self._ids_wanted:
            self._ids_wanted = True
            epoch = self._epoch
            QTimer.singleShot(50, lambda: self._start_ids(epoch))
        if self._grow_again and not self._growing:
            self.follow_writer()

    @property
    def ref(self) -> SessionRef | None:
        return self._ref

    @property
    def session_id(self) -> str | None:
        return self._ref.session_id if self._ref is not None else None

    @property
    def counted(self) -> bool:
        """False while rowCount is only what is known so far (see set_session)."""
        return self._counted

    def cached_pages(self) -> int:
        return len(self._pages)

    def ids_complete(self) -> bool:
        return self._ids_complete

    def record(self, row: int) -> Message | None:
        """The message of ``row`` (decoded now if it was not), or None while its page is on its way."""
        entry = self._entry(row)
        return entry.message() if entry is not None else None

    def key_of(self, row: int) -> int | None:
        entry = self._entry(row)
        if entry is not None:
            return entry.key
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def problem(self, row: int) -> str | None:
        message = self.record(row)
        return message.problem if message is not None else None

    def is_loaded(self, row: int) -> bool:
        return (row // self.page_size) in self._pages

    def row_of_key(self, key: int) -> int:
        """The row of a message key, or -1 while it cannot be told without a query."""
        if self._ids:
            i = bisect.bisect_left(self._ids, key)
            if i < len(self._ids) and self._ids[i] == key:
                return i
        for page, entries in self._pages.items():
            for offset, entry in enumerate(entries):
                if entry.key == key:
                    return page * self.page_size + offset
        return -1

    def row_of_id(self, message_id: str) -> int:
        """The row of a message id among the cached pages (or -1)."""
        for page, entries in self._pages.items():
            for offset, entry in enumerate(entries):
                if entry.message().id == message_id:
                    return page * self.page_size + offset
        return -1

    def page_rows(self, page: int) -> list:
        """The rows of ``page`` held now (empty while it is not)."""
        return list(self._pages.get(page, ()))

    def seed_page(self, page: int, rows: list, *, held: int = 0) -> None:
        """Install a page fetched together with the session's count (see session_reads);
        ``held``: how many of its rows were held already, placed again (not counted as fetched)."""
        if rows and page not in self._pages:
            self._arrived(self._epoch, page, rows)
            self.rows_fetched -= held
            if held == len(rows):  # (a page held whole was not fetched)
                self.pages_fetched -= 1

    def seed_tail(self, rows: list, *, fetched: int | None = None) -> None:
        """Install the session's last rows, split at the pages' own bounds; a page only partly among
        them is left to be read. ``fetched``: how many of them, the first, were read now (the rest were
        held already)."""
        fetched = len(rows) if fetched is None else fetched
        end = self._count
        while rows and end > 0:
            page = (end - 1) // self.page_size
            n = end - page * self.page_size
            if len(rows) < n:
                return
            start = len(rows) - n
            self.seed_page(page, rows[start:], held=n - max(0, min(fetched, len(rows)) - start))
            rows, end = rows[:len(rows) - n], page * self.page_size

    def paint_entry(self, row: int) -> tuple[Message | None, str]:
        """What the row painter paints, in one Python call instead of several item-data round trips:
        ``(the message's line, state)`` (see ``PendingMessage.line``), or ``(None, placeholder text)`` while the row's page is on its way (asked
        for here)."""
        entry = self._entry(row)
        if entry is None:
            if 0 <= row < self._count and (row // self.page_size) not in self._pages:
                self._request(row // self.page_size)
                return None, PLACEHOLDER
            return None, "(message no longer there — refresh)"
        line = entry.line()  # (what the row shows: a kind may make it for less than the whole message)
        return line, "problem" if line.problem else kind_of(line)[0]

    badge = staticmethod(kind_of)  # (family, label) the row painter draws for a message

    def request_row(self, row: int) -> None:
        """Make sure ``row``'s page is cached or on its way (views do this by asking for data)."""
        if 0 <= row < self._count:
            self._request(row // self.page_size)

    def read_ahead(self, row: int) -> None:
        """Fetch ``row``'s page ahead of being asked (the view asks for the page past the screen while the
        user scrolls, so the next screen is there when it is shown). As urgent as a page shown: behind the
        row-key chunks it would arrive after the user got there."""
        if 0 <= row < self._count:
            self._request(row // self.page_size)

    def read_ends(self) -> None:
        """Fetch the session's first and last pages in the background, behind anything shown (Home and
        End are the jumps people make most; with their pages here, either is one paint)."""
        if self._counted and self._count:
            self._request(0, priority=LOW)
            self._request((self._count - 1) // self.page_size, priority=LOW)

    def paint_token(self, row: int) -> int | None:
        """What the row painter checks its images of ``row``'s rows against: a number that stays the same
        for as long as the model holds the same messages for the rows of ``row``'s page (rows appended
        after its last may join them), or None while that page is not here. Counts as showing the page."""
        page = row // self.page_size
        token = self._page_tokens.get(page)
        if token is not None:
            self._pages.move_to_end(page)
        return token

    # -- pages -----------------------------------------------------------------------------------
    def _store_page(self, page: int, rows: list) -> list:
        self._pages[page] = rows
        self._pages.move_to_end(page)
        self._page_tokens[page] = next(self._serial)
        return rows

    def _evict(self) -> None:
        while len(self._pages) > self.max_pages:
            page, _rows = self._pages.popitem(last=False)
            del self._page_tokens[page]

    def _entry(self, row: int) -> PendingMessage | None:
        if not (0 <= row < self._count):
            return None
        page = self._pages.get(row // self.page_size)
        if page is None:
            return None
        self._pages.move_to_end(row // self.page_size)
        offset = row % self.page_size
        return page[offset] if offset < len(page) else None

    def _page_fetcher(self, page: int):
        """A worker-thread callable for ``page``, by key wherever a key is known."""
        cap, ref, size = self._cap, self._ref, self.page_size
        start = page * size
        n = min(size, self._count - start)
        if start < len(self._ids):
            first = self._ids[start]
            return lambda: cap.page_after(ref, first - 1, n)
        before = self._pages.get(page - 1)
        if before and len(before) == size:
            last = before[-1].key
            return lambda: cap.page_after(ref, last, n)
        after = self._pages.get(page + 1)
        if after:
            first = after[0].key
            return lambda: cap.page_before(ref, first, n)
        if start + n >= self._count and self._counted:  # the session's last page: newest messages by key
            before_key = None if self._last_key is None else self._last_key + 1  # up to the last counted
            return lambda: cap.page_before(ref, before_key, n)
        return lambda: cap.page_at(ref, start, n)

    def _request(self, page: int, priority: int = NORMAL) -> None:
        if page in self._pages or page in self._pending or self._cap is None:
            return
        self._pending.add(page)
        epoch, fetch = self._epoch, self._page_fetcher(page)
        # Several pages can be in flight on the one channel; the epoch drops other sessions' pages.
        asked = min(self.page_size, self._count - page * self.page_size)
        self._worker.submit(self._channel, fetch, supersede=False,
                            on_result=lambda rows: self._arrived(epoch, page, rows, asked=asked),
                            on_error=lambda msg: self._arrived(epoch, page, [], msg), priority=priority)
        self._start_ids(epoch)

    def _arrived(self, epoch: int, page: int, rows: list, error: str | None = None, *,
                 asked: int | None = None) -> None:
        if epoch != self._epoch:
            return
        self._pending.discard(page)
        if error is not None:
            rows = []
        elif asked is not None and len(rows) == asked < min(self.page_size, self._count - page * self.page_size):
            self._request(page)  # the session grew while this (last) page was read: read it whole
            return
        self.rows_fetched += len(rows)
        self.pages_fetched += 1
        self._store_page(page, list(rows))
        self._evict()
        first = page * self.page_size
        last = min(self._count, first + self.page_size) - 1
        if last >= first:
            self.dataChanged.emit(self.index(first), self.index(last))
            self.rows_loaded.emit(first, last)

    # -- a live writer -----------------------------------------------------------------------------
    def follow_writer(self) -> bool:
        """Read what was appended after the last message counted (the store changed on disk) and insert it.

        Only messages after the last key are read (their count and the newest page of them), never the
        session again; a change seen while a read is on its way reads once more when it is done."""
        if self._cap is None or self._ref is None or self._last_key is None:
            return False
        if self._growing or not self._counted:  # (not counted yet: the count will include it)
            self._grow_again = True
            return True
        self._growing, self._grow_again = True, False
        cap, ref, after, size, epoch = self._cap, self._ref, self._last_key, self.page_size, self._epoch
        self._worker.submit(f"{self._channel}-grow",
                            lambda: cap.growth(ref, None if after < 0 else after, size),
                            supersede=False, on_result=lambda result: self._grew(epoch, after, result),
                            on_error=lambda _msg: self._grew(epoch, after, (0, after, [])))
        return True

    def _grew(self, epoch: int, after: int, result) -> None:
        if epoch != self._epoch:
            return
        self._growing = False
        added, last_key, rows = result
        if added and after == self._last_key:
            self._append(added, last_key, rows)
        if self._grow_again:
            self.follow_writer()

    def _append(self, added: int, last_key: int, rows: list) -> None:
        old, size = self._count, self.page_size
        first_new = old + added - len(rows)  # the row of rows[0]: the newest messages are what was read
        self.beginInsertRows(QModelIndex(), old, old + added - 1)
        self._count, self._last_key = old + added, last_key
        # Pages are cached whole from their first row: extend the old last page where the rows join it,
        # start new pages at page boundaries, and forget a partial page the rows do not reach.
        tail_page = (old - 1) // size if old else -1
        cached_tail = self._pages.get(tail_page)
        if cached_tail is not None and len(cached_tail) < size and not (
                first_new == old and len(cached_tail) == old - tail_page * size):
            del self._pages[tail_page]
            del self._page_tokens[tail_page]
        for offset, entry in enumerate(rows):
            row = first_new + offset
            page = row // size
            entries = self._pages.get(page)
            if entries is None and row % size == 0:
                entries = self._store_page(page, [])
            if entries is not None and len(entries) == row - page * size:
                entries.append(entry)  # (rows added after a page's last: its token stays, see paint_token)
                self._pages.move_to_end(page)  # the newest rows are the last to be evicted
        self._evict()
        if self._ids_complete and len(self._ids) == old:
            if first_new == old:
                self._ids.extend(entry.key for entry in rows)
            else:  # a gap: its keys are read in chunks like the session's first ones
                self._ids_complete = False
                self._load_ids(self._ids[-1] if self._ids else None)
        self.endInsertRows()
        self.rows_fetched += len(rows)
        self.grown.emit(old, self._count - 1)

    # -- row keys --------------------------------------------------------------------------------
    def _start_ids(self, epoch: int) -> None:
        if self._ids_wanted and epoch == self._epoch:
            self._ids_wanted = False
            self._load_ids(None)

    def _load_ids(self, after: int | None) -> None:
        cap, ref, epoch = self._cap, self._ref, self._epoch
        # One chunk per job: pages the user is waiting for are served between chunks.
        self._worker.submit(self._ids_channel, lambda: array("q", cap.key_chunk(ref, after, ID_CHUNK)),
                            on_result=lambda chunk: self._ids_arrived(epoch, chunk), priority=LOW)

    def _ids_arrived(self, epoch: int, chunk: array) -> None:
        if epoch != self._epoch:
            return
        if self._last_key is not None and chunk and chunk[-1] > self._last_key:
            # A live writer appended after the count: those rows are not in the model yet (grow adds them).
            chunk = array("q", (i for i in chunk if i <= self._last_key))
        self._ids.extend(chunk)
        if len(chunk) == ID_CHUNK and len(self._ids) < self._count:
            self._load_ids(chunk[-1])
        else:
            self._ids_complete = True
            self.ids_ready.emit()

    # -- Qt model API ----------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else self._count

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < self._count) or index.column() != 0:
            return None
        row = index.row()
        page = row // self.page_size
        if page not in self._pages:
            self._request(page)
            if role == Qt.ItemDataRole.DisplayRole:
                return PLACEHOLDER
            if role == StateRole:
                return "placeholder"
            if role == KeyRole and row < len(self._ids):
                return self._ids[row]
            return None
        entry = self._entry(row)
        if entry is None:  # the page came back short: the session changed since it was counted
            if role == Qt.ItemDataRole.DisplayRole:
                return "(message no longer there — refresh)"
            if role == StateRole:
                return "missing"
            return None
        if role == KeyRole:
            return entry.key
        message = entry.message()
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{fmt_time(message.at)}  {kind_of(message)[1]}  {message.summary(200)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = message.summary(600)
            return f"{tip}\n\nProblem: {message.problem}" if message.problem else tip
        if role == RecordRole:
            return message
        if role == StateRole:
            return "problem" if message.problem else kind_of(message)[0]
        return None
