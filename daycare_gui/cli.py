"""Command line: ``daycare-gui [PATH] | --demo`` opens the window; subcommands work without one.

This module only dispatches. Each subcommand lives in ``daycare_gui/commands/<name>.py`` with
``add_arguments(parser)`` and ``run(args) -> int``; the window lives in ``daycare_gui.ui``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# name → one-line help. Order is the order shown in --help.
SUBCOMMANDS = {
    "inspect": "print what a store holds, of any kind (never writes)",
    "demo": "write a realistic demo Daycare store (files + SQLite, or PGlite)",
    "upgrade": "run Daycare's migration pipeline on a store (backs up first)",
    "edit": "set keys of a Daycare Markdown file, an app's state.json or settings.json, safely",
    "search": "full-text search across conversations, of any store kind",
    "export": "write a conversation as Markdown, HTML or JSONL (any store kind)",
    "costs": "what a store's model calls cost, by day, model, agent, task or user (never writes)",
    "storage": "where a store's bytes go, with advice and what each safe action gives back (never writes)",
    "prune": "give back the space of old checkpoints (CianaParrot), backed up first; --dry-run says what goes",
    "automations": "list scheduled tasks and their runs: outcome, error, health (any store kind)",
}


def _subcommand_parser(name: str) -> argparse.ArgumentParser:
    module = importlib.import_module(f"daycare_gui.commands.{name}")
    parser = argparse.ArgumentParser(prog=f"daycare-gui {name}", description=SUBCOMMANDS[name])
    module.add_arguments(parser)
    parser.set_defaults(_run=module.run, _command=name)
    return parser


def _gui_parser() -> argparse.ArgumentParser:
    epilog = "subcommands:\n" + "\n".join(f"  {n:<9} {h}" for n, h in SUBCOMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="daycare-gui",
        description="Browse and safely edit the store of a personal AI agent: Daycare (files, SQLite, a PGlite\n"
                    "folder or a PostgreSQL server), Linggen, AgentStack or CianaParrot.",
        epilog=epilog + "\n\nRun 'daycare-gui SUBCOMMAND --help' for a subcommand's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("path", nargs="?", help="a store: Daycare root, data dir, settings.json or postgresql:// URL, or "
                                                  "another kind's folder (default: last opened)")
    parser.add_argument("--demo", action="store_true", help="write a demo store to a temporary folder and open it")
    parser.add_argument("--kind", help="open PATH as this store kind instead of detecting it "
                                       "(daycare, linggen, agentstack, cianaparrot)")
    parser.add_argument("--open", metavar="KIND:ID", dest="open_target",
                        help="open this item once the store is read: session:<id>, agent:<id>, user:<id>, "
                             "task:<id>, doc:<path>, app:<id> or table:<name> (Copy link makes these)")
    parser.add_argument("--version", action="version", version=_version())
    # Hidden: open a demo store, wait for the navigation counts, print "self-test ok" (packaging/check.sh).
    parser.add_argument("--self-test", action="store_true", help=argparse.SUPPRESS)
    return parser


def _version() -> str:
    from daycare_gui import __version__

    return f"daycare-gui {__version__}"


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP ended a command. A KeyboardInterrupt, so it unwinds as Ctrl+C does: every ``with``
    and ``finally`` runs (stores close, their private copies go) and what handles Ctrl+C handles it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _stop_signals_end_the_command(received: list[int]) -> Iterator[None]:
    """SIGTERM (``timeout``, a logout) and SIGHUP (a closed terminal) raise :class:`Stopped` in the command;
    by default they would end the process on the spot and leave its private copies in the temporary folder.
    Only the first raises: a second one must not cut the clean-up short. A signal the process was started
    ignoring (``nohup``) stays ignored. ``received`` gets the signals; the former handlers come back after."""

    def stop(signum, _frame) -> None:
        received.append(signum)
        if len(received) == 1:
            raise Stopped(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        try:
            if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
                previous[signum] = signal.signal(signum, stop)
        except ValueError:  # not the main thread (main() called from a thread): signals stay as they are
            break
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _run_command(args) -> int:
    from daycare_gui.commands.options import BadOption

    received: list[int] = []
    code = 1
    try:
        with _stop_signals_end_the_command(received):
            code = int(args._run(args) or 0)
    except Stopped:
        pass
    except BadOption as exc:  # one sentence, as argparse's own errors; exit 2 as they do
        print(f"daycare-gui {args._command}: {exc}", file=sys.stderr)
        return 2
    if received:  # (a command that handled the interrupt itself, as search does, returned 130)
        print(f"daycare-gui: stopped by {signal.Signals(received[0]).name}", file=sys.stderr)
        return 128 + received[0]
    return code


def main(argv: list[str] | None = None) -> int:
    try:
        code = _dispatch(argv)
        sys.stdout.flush()  # inside the try: a reader gone by now is met here, not at interpreter exit
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:  # Ctrl+C where a command has nothing of its own to say: no traceback
        print("\ndaycare-gui: interrupted", file=sys.stderr)
        return 130
    return code


def _reader_gone() -> int:
    """``| head`` closed the pipe: the reader has what it wanted, so a quiet exit 0 for every command.

    Standard output is pointed at the null device so that the flush at interpreter exit does not fail
    again and print "Exception ignored …"."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a stdout with no descriptor (a test's capture)
        pass
    return 0


def _no_display_reason() -> str | None:
    """Why the window cannot start here, decided before Qt starts (Qt aborts the process, blaming a
    platform plug-in's libraries, when it simply has no display to open a window on); None when it can."""
    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if platform and platform not in ("xcb", "wayland", "wayland-egl"):
        return None  # offscreen, minimal, vnc, eglfs, linuxfb …: needs no display server
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return ("there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set); "
            "run it in a desktop session, or with QT_QPA_PLATFORM=offscreen to start it without one, "
            "or use a subcommand (inspect, search, export)")


def _dispatch(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from daycare_gui.stores.common.leftovers import sweep_private_copies

    sweep_private_copies()  # private copies of killed instances, whatever this start opens
    if argv and argv[0] in SUBCOMMANDS:
        module = importlib.import_module(f"daycare_gui.commands.{argv[0]}")
        rest = argv[1:]
        if hasattr(module, "prepare_argv"):  # a subcommand whose positionals may start with '-'
            rest = module.prepare_argv(rest)
        args = _subcommand_parser(argv[0]).parse_args(rest)
        return _run_command(args)
    parser = _gui_parser()
    args = parser.parse_args(argv)
    if args.path is not None and "://" not in args.path and not os.path.exists(os.path.expanduser(args.path)):
        # Decided before Qt starts: without a display Qt aborts the process instead of showing an error.
        # (A postgres:// URL is a store too, and is left to the window to open.)
        guess = difflib.get_close_matches(args.path, SUBCOMMANDS, n=1, cutoff=0.6)
        if guess:
            parser.error(f"{args.path!r} is not a subcommand (did you mean {guess[0]!r}?) nor an existing path")
        parser.error(f"{args.path} does not exist (subcommands: {', '.join(SUBCOMMANDS)})")
    if args.open_target is not None and ":" not in args.open_target:
        parser.error(f"--open {args.open_target!r}: expected KIND:ID, e.g. session:<id>")
    if args.kind is not None:
        from daycare_gui.stores import registry

        try:
            registry.load_kind(args.kind)
        except registry.UnknownKind as exc:  # the sentence the subcommands say, before any window opens
            print(f"daycare-gui: {exc}", file=sys.stderr)
            return 2
    reason = _no_display_reason()
    if reason is not None:
        print(f"daycare-gui: {reason}", file=sys.stderr)
        return 2
    if not args.demo and not args.self_test:
        start = args.path
        if start is None:  # the store the window reopens (the last one): its copy begins early too
            from daycare_gui.ui.start_store import app_settings, initial_store

            start = initial_store(app_settings())
        if start is not None:
            from daycare_gui.stores import registry

            registry.head_start(start, args.kind)  # (a PGlite copy begins while Qt and the window load)
    from daycare_gui.ui.app import run_app  # imported late: subcommands must work without Qt libraries

    return run_app(path=args.path, demo=args.demo, self_test=args.self_test, kind=args.kind,
                   open_target=args.open_target)


if __name__ == "__main__":
    raise SystemExit(main())
