"""What a pane needs from the window: the open store, the DB worker, and a way to ask for navigation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # a type only
    from daycare_gui.ui.worker import DbWorker


@dataclass(frozen=True)
class DetailItem:
    """What the detail pane shows for a selection: parsed fields, optional Markdown, and the raw value.

    Producers mask secrets before building one; the detail pane shows what it is given.
    """

    title: str
    fields: tuple[tuple[str, str], ...] = ()
    raw: Any = None
    markdown: str | None = None
    prefer_raw: bool = False  # open on the Raw JSON tab (the user asked for the raw record)


@dataclass
class PaneContext:
    store: Any  # what the pane reads: the opened store
    worker: DbWorker
    # navigate("agent", agent_id) / navigate("session", (agent_id, session_id, record_id|None)) / ...
    navigate: Callable[[str, Any], None]
    show_detail: Callable[[DetailItem | None], None]
    set_count: Callable[[str, int | None], None]  # update a navigation node's count
    # A second worker for whole-store aggregates (overview charts, counts) so they never queue in
    # front of the pages a user is waiting for on ``worker``.
    background: DbWorker | None = None
    # The opened store of any kind (for Daycare: the kind's face over ``store``), and what the section
    # this pane shows was registered with (a collection id, say).
    opened: Any = None
    arg: Any = None

    @property
    def slow_worker(self) -> DbWorker:
        return self.background or self.worker
