"""Opening a store of any kind on the worker, in steps, so that the worker never imports a module first
(ui/preload.py says why) and the GUI thread never waits on the disk.

1. here: import the first kind (Daycare's) and what its probe uses;
2. worker: probe with what is imported, in registry order, stopping at the first certain kind; if the
   answer needs a kind not imported yet (a Daycare store is certain at once; anything else needs the
   other kinds, and those of installed packages found through their entry points), say so, and every
   kind is imported here before asking again;
3. here: import what the chosen kind's open uses (only that kind's readers);
4. worker: ask the kind what opening this very path needs besides (one generation's readers);
5. here: import those;
6. worker: open it.
"""

from __future__ import annotations

from typing import Callable

from daycare_gui.stores import registry as kinds

CHANNEL = "open"


def open_in_worker(worker, path: str, *, kind: str | None = None, live: bool = True,
                   first: Callable[[], None] | None = None,
                   on_result: Callable[[object], None] | None = None, on_error: Callable[[str], None],
                   submit_open: Callable[[Callable[[], object]], None] | None = None,
                   prepare: Callable[[object], None] | None = None) -> None:
    """Open PATH (as KIND when given) on ``worker``; ``first`` runs on the worker before anything else
    (the demo writes its store there). ``on_result(opened)`` or ``on_error("Type: message")`` follows.
    ``submit_open(fn)``, when given, runs the step that opens the store instead (``ui/open_progress.py``:
    progress and cancel for a slow open) and delivers its answer itself. ``prepare(opened)`` runs on the
    worker once the store is open, before the answer is delivered: what the window asks of the store first
    is read there, not on the GUI thread (a failure is left to the window, which asks again)."""

    path = kinds.absolute(path)  # every kind names its store by an absolute path, as the commands do

    def open_step(fn: Callable[[], object]) -> None:
        if prepare is not None:
            fn = _then(fn, prepare)
        if submit_open is not None:
            submit_open(fn)
        else:
            worker.submit(CHANNEL, fn, on_result=on_result, on_error=on_error)

    def opened_with(name: str) -> None:
        try:
            chosen = kinds.prepare_open(name)
        except Exception as exc:  # noqa: BLE001 - an unknown --kind: said like any other failure
            on_error(f"{type(exc).__name__}: {exc}")
            return

        def then_open(modules) -> None:
            kinds.import_modules(modules or ())
            open_step(lambda: chosen.open(path, live=live))

        needs = getattr(chosen, "open_modules_for", None)  # (a kind registered by an embedding application)
        worker.submit(CHANNEL, lambda: needs(path) if needs else (), on_result=then_open, on_error=on_error)

    def decided(name: str | None, everything: bool) -> None:
        if name is not None:
            opened_with(name)
        elif not everything:
            kinds.prepare_probe(everything=True)
            worker.submit(CHANNEL, lambda: kinds.choose_loaded(path), on_result=lambda n: decided(n, True),
                          on_error=on_error)
        else:  # every kind is loaded and still one is missing (registered meanwhile): open the plain way
            open_step(lambda: kinds.open_store(path, live=live))

    if kind and first is None:
        opened_with(kind)
        return
    kinds.prepare_probe()

    def decide():
        if first is not None:
            first()
        return kind or kinds.choose_loaded(path)

    worker.submit(CHANNEL, decide, on_result=lambda n: decided(n, False), on_error=on_error)


def _then(fn: Callable[[], object], prepare: Callable[[object], None]) -> Callable[[], object]:
    def run():
        opened = fn()
        try:
            prepare(opened)
        except Exception:  # noqa: BLE001 - the window reads it again itself, and says what went wrong
            pass
        return opened

    return run
