"""Daycare's trash (``<data dir>/.daycare-gui-trash``) as the shared Trash capability, for every generation
that has a data directory: everything this app deleted there (task folders and files, skills, documents),
restorable to its place. The Tasks page's deletes land here too: one list, one dialog."""

from __future__ import annotations

from collections.abc import Callable

from daycare_gui.stores.api import Trash, WriteRefused
from daycare_gui.stores.records import DeletedItem


class DaycareTrash(Trash):
    def __init__(self, paths, after_restore: Callable[[], None] | None = None) -> None:
        self.paths = paths
        self.after_restore = after_restore  # what must read the files again (the store's cached scan)
        self._entries: dict[str, object] = {}

    def where(self) -> str:
        from daycare_gui.stores.common.edit.trash import trash_dir

        return str(trash_dir(self.paths))

    def deleted(self) -> list[DeletedItem]:
        from daycare_gui.stores.common.edit.trash import scan_trash

        entries, refused = scan_trash(self.paths)
        self._entries = {str(e.folder): e for e in entries}
        out = [DeletedItem(str(e.folder), str(e.original), e.deleted_at, e.kind) for e in entries]
        # after the restorable ones: listed so nothing in the trash is hidden, never offered for restore
        out += [DeletedItem(str(r.folder), r.folder.name, "", "", problem=r.reason) for r in refused]
        return out

    def restore_blocked(self, item: DeletedItem) -> str | None:
        from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason

        return engine_running_reason(file=item.title, paths=self.paths)

    def restore(self, item: DeletedItem, *, force: bool = False) -> str:
        from daycare_gui.stores.common.edit.trash import TrashError, restore

        if item.problem is not None:
            raise WriteRefused(f"{item.title} cannot be restored: {item.problem}")
        entry = self._entries.get(item.key)
        if entry is None:  # listed by another instance, or before a reload: look again
            self.deleted()
            entry = self._entries.get(item.key)
        if entry is None:
            raise WriteRefused(f"{item.title} is no longer in the trash")
        blocked = self.restore_blocked(item)
        if blocked and not force:
            raise WriteRefused(blocked)
        try:
            restored = restore(entry)
        except TrashError as exc:
            raise WriteRefused(str(exc)) from exc
        except OSError as exc:  # restore() words its own failures; anything else still gets a sentence
            raise WriteRefused(f"Could not restore {item.title}: {exc}. Check {item.title} and the trash "
                               f"({item.key}) before trying again.") from exc
        if self.after_restore is not None:
            self.after_restore()
        return f"Restored {restored}."
