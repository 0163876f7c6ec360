"""Linggen as a store kind: probing a folder (a few stats, nothing parsed) and opening it.

Only the layout rules are imported to probe; the readers (``store``) load when a Linggen home is opened.
"""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.api import Candidate, NotRecognised, OpenedStore, StoreKind, StorePath
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.linggen import layout


class LinggenKind(StoreKind):
    name = "linggen"
    title = "Linggen"
    open_modules = ("daycare_gui.stores.linggen.store",)

    def probe(self, path: StorePath) -> Candidate:
        try:
            root = _root_of(Path(os.fspath(path)).expanduser())
            if root is None:
                return Candidate(self.name, 0.0, "not a folder")
            return self._probe_root(root)
        except (OSError, ValueError) as exc:  # a probe never raises
            return Candidate(self.name, 0.0, f"cannot read it ({exc})")

    def _probe_root(self, root: Path) -> Candidate:
        if not root.is_dir():
            return Candidate(self.name, 0.0, "not a folder")
        ev = layout.gather_evidence(root)
        named = layout.named_as_home(root)
        if ev.strong:
            return Candidate(self.name, 1.0, f"a Linggen home ({', '.join(ev.strong[:3])})")
        if (root / ".linggen").is_dir() and not named:
            inner = self._probe_root(root / ".linggen")
            if inner.confidence >= 0.8:
                return Candidate(self.name, 0.6, f"holds a Linggen home in .linggen/ ({inner.reason})")
        if layout.is_workspace_dir(root):
            return Candidate(self.name, 0.0,
                             "a repository's .linggen folder (permissions only), not a Linggen home")
        if named and (ev.weak or not any(root.iterdir())):
            return Candidate(self.name, 0.9, f"named like a Linggen home ({', '.join(ev.weak) or 'empty'})")
        for marker, confidence in (("ling.pid", 0.8), ("credentials.json", 0.5)):
            if marker in ev.weak and len(ev.weak) > 1:
                beside = ", ".join(w for w in ev.weak if w != marker)
                return Candidate(self.name, confidence, f"{marker} beside {beside}")
        if ev.weak:  # agents/, skills/, plans/ alone: Claude Code and Daycare have such folders too
            return Candidate(self.name, 0.0, f"only {', '.join(ev.weak)}, which other tools use too; "
                                             "no projects/, sessions/ or missions/ in Linggen's shape")
        return Candidate(self.name, 0.0, "no Linggen files (projects/<folder>/project.json, sessions/<id>/"
                                         "session.yaml, missions/<id>/mission.md, ling.pid)")

    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        root = _root_of(Path(os.fspath(path)).expanduser())
        if root is None or not root.is_dir():
            raise NotRecognised(f"{mask_url(os.fspath(path))} is not a Linggen home: not a folder")
        if (root / ".linggen").is_dir() and not layout.gather_evidence(root).strong:
            inner = self._probe_root(root / ".linggen")
            if inner.confidence >= 0.8:
                root = root / ".linggen"
        if not self._probe_root(root).recognised:
            raise NotRecognised(f"{mask_url(str(root))} is not a Linggen home: {self._probe_root(root).reason}")
        from daycare_gui.stores.linggen.store import LinggenStore

        return LinggenStore(root)


def _root_of(given: Path) -> Path | None:
    """The home a path means: the folder itself, or the folder of ``ling.pid``/``credentials.json``."""
    if given.is_file():
        return given.parent if given.name in ("ling.pid", "credentials.json") else None
    return given


KIND = LinggenKind()
