"""Reconstructed runs kept while the store stays as it is.

Telling runs from records (Daycare's system messages, CianaParrot's checkpoints) reads a task's agent history:
on a big store, a second or more per automation. An :class:`~daycare_gui.stores.api.Automations` that can say
its store's fingerprint (``fingerprint()``: what any write changes) gets its automations and runs kept here,
in memory, and read again only once the fingerprint differs; one that cannot (None) is read each time.
"""

from __future__ import annotations

from collections.abc import Callable

from daycare_gui.stores.records import Automation, Run

Progress = Callable[[int, int, str], None]  # (done, total, what): may raise to stop


class RunCache:
    """``automations()`` and ``runs()`` of one capability, kept per store fingerprint. Used from one thread
    at a time (the window's worker)."""

    def __init__(self, cap) -> None:
        self.cap = cap
        self._fingerprint: object = None
        self._automations: list[Automation] | None = None
        self._runs: dict[tuple, list[Run]] = {}
        self.reads = 0  # runs reconstructed (not taken from the cache): what a test can count

    def _current(self) -> None:
        fingerprint = self.cap.fingerprint()
        if fingerprint is None or fingerprint != self._fingerprint:
            self._fingerprint = fingerprint
            self._automations = None
            self._runs = {}

    def automations(self) -> list[Automation]:
        self._current()
        if self._automations is None:
            self._automations = self.cap.automations()
        return self._automations

    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        self._current()
        key = (automation_id, since, limit)
        hit = self._runs.get(key)
        if hit is None:
            whole = self._runs.get((automation_id, since, None))  # every run read: the latest are its head
            if whole is not None:
                return whole[:limit] if limit is not None else whole
            self.reads += 1
            hit = self._runs[key] = self.cap.runs(automation_id, since=since, limit=limit)
        return hit
