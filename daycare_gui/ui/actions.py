"""Every menu action in one place (after Picard's registry): id, text, shortcut, menu.

The main window binds handlers by id; menus are built from this table, so adding an action never
means editing the window's layout code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar, QWidget


@dataclass(frozen=True)
class ActionSpec:
    id: str
    text: str
    menu: str
    shortcut: str | QKeySequence.StandardKey | None = None
    tip: str = ""
    needs_store: bool = True
    separator_before: bool = False
    # Enabled only when the open store offers what it acts on (a search index, migrations, a trash):
    # ``set_offered`` names those the store offers.
    offered_by_store: bool = False


ACTION_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("open", "&Open Data Directory…", "&File", QKeySequence.StandardKey.Open,
               "Open a store: a Daycare root, data dir or settings.json, or another agent system's folder",
               needs_store=False),
    ActionSpec("open_demo", "Open &Demo Store", "&File", None, "Write a demo store to a temporary folder and open it",
               needs_store=False),
    # the other kinds' demos (stores.demos); the folder goes when the window closes, as Daycare's does
    *(ActionSpec(f"open_demo_{kind}", f"Open {title} Demo", "&File", None,
                 f"Write a demo {title} store to a temporary folder and open it", needs_store=False)
      for kind, title in (("linggen", "Linggen"), ("agentstack", "AgentStack"), ("cianaparrot", "CianaParrot"))),
    ActionSpec("refresh", "&Refresh", "&File", QKeySequence.StandardKey.Refresh, "Reload everything from disk"),
    ActionSpec("export_conversation", "&Export Conversation…", "&File", "Ctrl+Shift+E",
               "Write the conversation shown, or its selected records, as Markdown, HTML or JSONL",
               separator_before=True),
    ActionSpec("copy_markdown", "Copy Record as &Markdown", "&File", "Ctrl+Shift+C",
               "Copy the current record of the conversation shown as Markdown (secrets masked)"),
    ActionSpec("close_store", "&Close Store", "&File", "Ctrl+W", separator_before=True),
    ActionSpec("quit", "&Quit", "&File", QKeySequence.StandardKey.Quit, needs_store=False, separator_before=True),
    ActionSpec("filter", "&Filter Current Pane", "&View", QKeySequence.StandardKey.Find),
    ActionSpec("search", "&Search Histories…", "&View", "Ctrl+Shift+F", "Full-text search across every session",
               offered_by_store=True),
    ActionSpec("toggle_detail", "&Detail Pane", "&View", "F9", needs_store=False),
    ActionSpec("focus_nav", "&Navigation", "&View", "Ctrl+L", "Move the keyboard focus to the navigation tree"),
    ActionSpec("back", "&Back", "&View", QKeySequence.StandardKey.Back),
    ActionSpec("next_area", "Next &Area", "&View", "F6", "Move the keyboard focus: navigation → list → details"),
    ActionSpec("previous_area", "Previous A&rea", "&View", "Shift+F6"),
    ActionSpec("quick_open", "&Jump To…", "&Go", "Ctrl+K",
               "Find any agent, session, user, task, document, app or table by name, id or path"),
    ActionSpec("copy_link", "Copy &Link", "&Go", "Ctrl+Shift+L",
               "Copy a command that reopens this store at the selected item"),
    *(ActionSpec(f"section_{n}", f"Section {n}", "&Go", f"Ctrl+{n}", separator_before=n == 1) for n in range(1, 10)),
    ActionSpec("upgrade", "&Upgrade Storage…", "&Storage", None, "Run Daycare's migrations on this store",
               offered_by_store=True),
    ActionSpec("problems", "&Problems", "&Storage", "Ctrl+Shift+P"),
    ActionSpec("trash", "Deleted &Items (Trash)…", "&Storage", None, "Restore files deleted from daycare-gui",
               offered_by_store=True),
    ActionSpec("shortcuts", "&Keyboard Shortcuts", "&Help", "F1", "Every shortcut of the window", needs_store=False),
    ActionSpec("about", "&About daycare-gui", "&Help", None, needs_store=False),
)


@dataclass(frozen=True)
class LocalShortcut:
    """A key that works inside one pane or dialog (its widgets own it), listed in Help → Keyboard Shortcuts.
    A test reads every shortcut the UI's sources bind and fails when one is missing here."""

    id: str
    keys: str | QKeySequence.StandardKey
    text: str
    where: str


LOCAL_SHORTCUTS: tuple[LocalShortcut, ...] = (
    LocalShortcut("history_first", "Ctrl+Home", "First record", "Conversation"),
    LocalShortcut("history_last", "Ctrl+End", "Last record", "Conversation"),
    LocalShortcut("save", QKeySequence.StandardKey.Save, "Save", "Editors and documents"),
    LocalShortcut("undo", QKeySequence.StandardKey.Undo, "Undo", "Editors"),
    LocalShortcut("redo", QKeySequence.StandardKey.Redo, "Redo", "Editors"),
    LocalShortcut("palette_move", "Up", "Previous result (also Down, Page Up, Page Down)", "Jump To"),
    LocalShortcut("palette_open", "Return", "Open the selected result", "Jump To"),
    LocalShortcut("palette_close", "Esc", "Close", "Jump To"),
    LocalShortcut("list_open", "Return", "Open the selected item", "Lists"),
    LocalShortcut("focus_next", "Tab", "Next field (Shift+Tab: previous)", "Everywhere"),
)


def key_text(keys) -> str:
    """A shortcut as the user reads it on this platform ("Ctrl+K")."""
    return QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) if keys is not None else ""


def shortcut_rows(texts: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """(keys, what it does, where) for every registered shortcut: the window's actions (``texts``: their
    current text by id, e.g. "Section 2" renamed after the open store's second section), then local keys."""
    texts = texts or {}
    rows = [(key_text(spec.shortcut), plain(texts.get(spec.id, spec.text)), plain(spec.menu))
            for spec in ACTION_SPECS if spec.shortcut]
    rows += [(key_text(s.keys), s.text, s.where) for s in LOCAL_SHORTCUTS]
    return [row for row in rows if row[0]]  # a standard key this platform leaves unbound (Quit on some)


def plain(text: str) -> str:
    """Menu text as a person reads it: mnemonic ampersands removed ("&&" stays one "&")."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def menu_path(action_id: str) -> str:
    """ "Storage → Upgrade Storage…": where an action lives, for text that sends the user to it (taken from
    this table, so a renamed or moved action cannot leave stale directions behind)."""
    spec = next(s for s in ACTION_SPECS if s.id == action_id)
    return f"{plain(spec.menu)} → {plain(spec.text)}"


class ActionRegistry:
    def __init__(self, parent: QWidget) -> None:
        self._parent = parent
        self.actions: dict[str, QAction] = {}
        for spec in ACTION_SPECS:
            action = QAction(spec.text, parent)
            action.setObjectName(f"action_{spec.id}")
            if spec.shortcut is not None:
                action.setShortcut(QKeySequence(spec.shortcut))
            if spec.tip:
                action.setStatusTip(spec.tip)
            self.actions[spec.id] = action
        parent.addActions(list(self.actions.values()))  # shortcuts work even with the menu bar hidden

    def bind(self, handlers: dict[str, Callable[[], None]]) -> None:
        for action_id, handler in handlers.items():
            self.actions[action_id].triggered.connect(lambda _checked=False, h=handler: h())

    def build_menus(self, menubar: QMenuBar, extra: dict[str, list[QAction]] | None = None) -> dict:
        menus = {}
        for spec in ACTION_SPECS:
            menu = menus.get(spec.menu) or menubar.addMenu(spec.menu)
            menus[spec.menu] = menu
            if spec.separator_before:
                menu.addSeparator()
            menu.addAction(self.actions[spec.id])
        return menus

    def set_store_open(self, is_open: bool) -> None:
        for spec in ACTION_SPECS:
            if spec.needs_store:
                self.actions[spec.id].setEnabled(is_open)

    def set_offered(self, offered: set[str]) -> None:
        """Enable the store's own actions it offers (by action id), disable the rest."""
        for spec in ACTION_SPECS:
            if spec.offered_by_store:
                self.actions[spec.id].setEnabled(spec.id in offered)

    def name_sections(self, titles: list[str]) -> None:
        """Ctrl+1…9 go to the open store's first nine sections: each action is named after its section,
        and those beyond the store's sections are hidden (a hidden action's shortcut does nothing)."""
        for n in range(1, 10):
            action = self.actions[f"section_{n}"]
            title = titles[n - 1] if n <= len(titles) else ""
            action.setText(f"&{n} {title.replace('&', '&&')}" if title else f"Section {n}")
            action.setVisible(bool(title))
            action.setEnabled(bool(title))

    def texts(self) -> dict[str, str]:
        return {action_id: action.text() for action_id, action in self.actions.items()}
