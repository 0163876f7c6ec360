"""Linggen's space through ``api.Storage``: its home by folder, and its sessions (each a folder of
append-only files) largest first. Linggen keeps no database and no migrations list."""

from __future__ import annotations

from daycare_gui.stores.api import Storage
from daycare_gui.stores.common.space import folder_size, subfolder_lines
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import SpaceLine, SpaceReport

HOLDERS = 50


class LinggenStorage(Storage):
    modules = ("daycare_gui.stores.common.space",)
    offers_upgrade = False

    def __init__(self, home) -> None:
        self.home = home

    def own_folders(self):
        return (self.home.root,)  # (document backups go to <home>/.daycare-gui-backups)

    def _sessions(self) -> list[SpaceLine]:
        folders = [self.home.sessions]
        if self.home.projects.is_dir():
            folders += [p / "sessions" for p in sorted(self.home.projects.iterdir()) if p.is_dir()]
        out = []
        for folder in folders:
            if not folder.is_dir():
                continue
            for session in folder.iterdir():
                if session.is_dir() and not session.is_symlink():
                    size, files, _ = folder_size(session)
                    out.append(SpaceLine(session.name, size, "session", files, str(session)))
        out.sort(key=lambda line: (-line.bytes, line.name))
        return out[:HOLDERS]

    def space(self, progress=None) -> SpaceReport | None:
        report = SpaceReport(holders_title="Sessions")
        report.folders = subfolder_lines(self.home.root)
        report.total = sum(f.bytes for f in report.folders)
        report.holders = self._sessions()
        if report.holders:
            top = report.holders[0]
            report.advice.append(f"Session {top.name} takes {byte_size(top.bytes)} in {top.count} files; Linggen only "
                                 "appends to a session's messages.")
        return report
