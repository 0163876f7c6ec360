"""Projects → sessions → messages, the search feed and the activity chart of a Linggen home.

Threads are the projects of the per-project layout (named by ``project.json``) and, for the flat layout,
the projects its sessions name (or "Sessions without a project"). Each is marked with its layout, because
after an upgrade Linggen reads only the flat one.
"""

from __future__ import annotations

import heapq
from collections import Counter, OrderedDict
from collections.abc import Iterator
from pathlib import Path

from daycare_gui.stores.api import THREADS, Charts, Conversations, SearchSource, when_utc
from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.linggen.inventory import FLAT, Inventory, Session
from daycare_gui.stores.linggen.messages import LineIndex, build_index, parse_line, read_entries
from daycare_gui.stores.records import DayCount, Message, Row, SessionRecord, SessionRef, ThreadRecord

_INDEX_CACHE = 8  # sessions whose line index is kept (a few MB for very long histories)
_SESSION_META = ("creator", "model_id", "skill", "cwd", "project", "project_name", "mission_id", "agent_id",
                 "user_id", "consumer_user_id", "compact_threshold", "compact_focus")


class LinggenConversations(Conversations):
    thread_label = "Projects"
    session_label = "Sessions"
    has_session_status = False  # session.yaml holds no state, and run files are per run, not per session

    def __init__(self, inv: Inventory, both_layouts: bool) -> None:
        self.inv = inv
        self.both = both_layouts
        self._sessions: dict[SessionRef, Session] = {s.ref: s for s in inv.sessions()}
        self._indexes: OrderedDict[Path, LineIndex] = OrderedDict()

    # -- threads and sessions -------------------------------------------------------------------------

    def threads(self) -> list[ThreadRecord]:
        out = []
        for p in self.inv.listed_projects():  # a folder naming the path of another is listed with it
            sessions = p.all_sessions
            last = max((s.stats.last_ms or s.created_ms or 0 for s in sessions), default=0) or None
            flags = ", ".join(dict.fromkeys(f for q in (p, *p.other_folders) for f in q.flags))
            problem = p.problem or next((q.problem for q in p.other_folders if q.problem), None)
            flagged = "; ".join(x for x in (p.stored_in, f"flagged: {flags}" if flags else "") if x)
            folders = ("folders", ", ".join(str(f) for f in p.folders)) if p.other_folders else \
                ("folder", str(p.folder))
            out.append(ThreadRecord(
                p.thread_id, p.title, f"{self._layouts(p)} · {p.path or p.folder.name}{self._stale(p)}"
                + (f" · in {len(p.folders)} folders" if p.other_folders else ""), last,
                len(sessions),
                meta=tuple(x for x in (("path", p.path), folders, ("flags", flags)) if x[1]),
                raw=p.info, problem="; ".join(x for x in (problem, flagged) if x) or None))
        for t in self.inv.flat_threads:
            if t.merged:  # listed with its project's folder above
                continue
            last = max((s.stats.last_ms or s.created_ms or 0 for s in t.sessions), default=0) or None
            out.append(ThreadRecord(t.thread_id, t.title, f"flat layout · {t.project or 'no project'}", last,
                                    len(t.sessions), meta=(("path", t.project),) if t.project else ()))
        return out

    # -- the thread list: each project's workspace and its sessions (Listing "threads") ----------------
    def thread_columns(self) -> tuple[str, ...]:
        return ("Name", "Workspace", "Sessions", "Updated")

    def list_rows(self, list_id: str) -> list[Row]:
        if list_id != THREADS:
            return []
        return [Row(t.id, (t.title, dict(t.meta).get("path") or "", t.session_count, when_utc(t.updated_at)),
                    raw=t.raw, markdown=t.subtitle, problem=t.problem) for t in self.threads()]

    def thread_place(self, thread: ThreadRecord) -> str:
        """The project's path: a thread id names an encoded folder (``per-project:-work-shop``) or a layout,
        which search headings would otherwise show."""
        return dict(thread.meta).get("path") or thread.title

    @staticmethod
    def _layouts(p) -> str:
        if p.flat_sessions and p.per_project_sessions:
            return "per-project and flat layouts"
        return "flat layout" if p.flat_sessions else "per-project layout"

    def _stale(self, p) -> str:
        if not (self.both and p.per_project_sessions):
            return ""
        if p.flat_sessions:
            return " — its per-project sessions are not read by Linggen since the flat layout"
        return " — not read by Linggen since the flat layout"

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        found = [s for s in self._sessions.values() if s.thread_id == thread_id]
        found.sort(key=lambda s: (s.created_ms or 0, s.id), reverse=True)
        return [self._record(s) for s in found]

    def _record(self, s: Session) -> SessionRecord:
        meta = [("id", s.id), ("layout", s.layout), ("folder", str(s.folder))]
        meta += [(k, _meta_text(k, s.meta[k])) for k in _SESSION_META if s.meta.get(k) not in (None, "")]
        if s.layout == FLAT or "title_locked" in s.meta:  # Linggen reads (and writes) it in flat sessions only
            meta.append(("title_locked", _title_locked(s.meta)))
        if s.stats.observations:
            meta.append(("observations", str(s.stats.observations)))
        if s.stats.plans:
            meta.append(("plans", str(s.stats.plans)))
        if s.stats.bad_lines:
            meta.append(("unreadable lines", str(s.stats.bad_lines)))
        if s.layout == FLAT and (s.folder / "permission.json").exists():
            meta.append(("permission.json", str(s.folder / "permission.json")))
        entries = s.stats.messages + s.stats.bad_lines
        return SessionRecord(s.ref, s.title, s.created_ms, s.stats.last_ms, entries, "",
                             tuple(meta), raw=s.meta, problem=s.problem)

    # -- messages ---------------------------------------------------------------------------------------

    def _index(self, s: Session) -> LineIndex:
        path = s.messages_path
        index = self._indexes.get(path)
        try:
            st = path.stat()
            current = (st.st_size, st.st_mtime_ns)
        except OSError:
            current = (0, 0)
        if index is None or (index.size, index.mtime_ns) != current:
            index = build_index(path)
            self._indexes[path] = index
        self._indexes.move_to_end(path)
        while len(self._indexes) > _INDEX_CACHE:
            self._indexes.popitem(last=False)
        return index

    def message_count(self, ref: SessionRef) -> int:
        s = self._sessions.get(ref)
        return 0 if s is None else len(self._index(s))

    def growth_paths(self, ref: SessionRef) -> tuple[Path, ...]:
        s = self._sessions.get(ref)
        return () if s is None else (s.messages_path,)

    def growth_token(self, ref: SessionRef):
        s = self._sessions.get(ref)
        try:
            st = s.messages_path.stat() if s is not None else None
        except OSError:
            return None
        return None if st is None else (st.st_size, st.st_mtime_ns)

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        s = self._sessions.get(ref)
        if s is None:
            return []
        return read_entries(s.messages_path, self._index(s), start, limit)

    def count(self) -> int | None:
        return self.inv.project_count()  # as the Overview counts them: "Sessions without a project" is none

    def all_sessions(self) -> list[Session]:
        return list(self._sessions.values())


def _meta_text(key: str, value) -> str:
    if key == "compact_threshold" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value} (Linggen compacts the history at {value:.0%} of the model's context window)"
    return str(value)


def _title_locked(meta: dict) -> str:
    """Linggen 1.7 renames a session from what the user types only while its title is not locked; a
    session.yaml without the field (written before 1.7) counts as locked."""
    value = meta.get("title_locked", True)
    if "title_locked" not in meta:
        return "yes (not written; Linggen takes a missing value as yes): the title stays"
    if value is True:
        return "yes: the title stays"
    if value is False:
        return "no: Linggen may rename the session from what you type"
    return f"{value!r} (not true or false: Linggen cannot read this session.yaml)"


class LinggenSearch(SearchSource):
    """Every message of every session, merged in time order.

    The cursor is ``<time ms, 13 digits>|<session key>|<line, 9 digits>``. Within one file the time never goes
    backwards (a line older than the one before it takes that one's time), so a merge of the files yields
    cursors in order, and a line appended to any session later sorts after what was already indexed.
    """

    def __init__(self, home: Path, conversations: LinggenConversations) -> None:
        self.home = home
        self.conversations = conversations

    def identity(self) -> str:
        # "/2": flat sessions of a project folder's path moved into that folder's thread; "/3": so did the
        # sessions of a second folder naming the same path, and a copied session became "<id>@<folder>".
        # Refs changed each time, so an index built before (which would keep refs that open nothing) is
        # built afresh.
        return f"linggen/3:{self.home}"

    def former_identities(self) -> tuple[str, ...]:
        return f"linggen:{self.home}", f"linggen/2:{self.home}"  # their index files are removed

    def location(self) -> str:
        return str(self.home)

    def messages(self, after: str | None) -> Iterator[tuple[str, SessionRef, Message]]:
        after_key = _parse_cursor(after)
        streams = [self._stream(s) for s in sorted(self.conversations.all_sessions(), key=_session_key)]
        for key, ref, message in heapq.merge(*streams, key=lambda item: item[0]):
            if after_key is not None and key <= after_key:
                continue
            yield _cursor(key), ref, message

    def _stream(self, s: Session):
        ref = s.ref
        skey = _session_key(s)
        floor = 0
        try:
            handle = open_regular(s.messages_path)
        except OSError:
            return
        with handle:
            for number, chunk in enumerate(handle, 1):
                if not chunk.strip():
                    continue
                message = parse_line(chunk, number)
                if message.problem and message.kind == "unreadable line":
                    continue  # listed in problems; nothing to index
                floor = max(floor, message.at or 0)
                yield (floor, skey, number), ref, message


def _session_key(s: Session) -> str:
    return f"{s.layout}/{s.folder.parent.parent.name if s.layout != FLAT else ''}/{s.id}"


def _cursor(key: tuple[int, str, int]) -> str:
    return f"{key[0]:013d}|{key[1]}|{key[2]:09d}"


def _parse_cursor(cursor: str | None) -> tuple[int, str, int] | None:
    if not cursor:
        return None
    try:
        head, rest = cursor.split("|", 1)
        middle, tail = rest.rsplit("|", 1)
        return int(head), middle, int(tail)
    except ValueError:
        return None


class LinggenCharts(Charts):
    activity_what = "messages"  # chat lines of every session, by their timestamps
    activity_none = "No messages yet."
    activity_unit = "message"

    def __init__(self, inv: Inventory) -> None:
        self.inv = inv

    def activity_per_day(self) -> list[DayCount]:
        per: Counter = Counter()
        for s in self.inv.sessions():
            for day, n in s.stats.days.items():
                if day:
                    per[(day, s.layout)] += n
        return [DayCount(day, layout, float(n)) for (day, layout), n in sorted(per.items())]
