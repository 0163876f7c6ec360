"""``search`` and ``inspect`` asked again of an unchanged PGlite store answer from what the last run kept,
without copying the folder or starting PGlite under Node (seconds and ~400 MB each time otherwise).

Each run that reads the store live keeps, for the next one (:mod:`daycare_gui.stores.common.kept`: private,
keyed by the ``.pglite`` folder's real path and the fingerprint of every folder the answer came from,
:meth:`StoreKind.kept_target <daycare_gui.stores.api.StoreKind.kept_target>`: Daycare's PGlite stores):

* ``search``: the state of the search index it left (the index itself stays where it always lived), the
  threads' titles and places, the store's facets and which threads each facet value selects. The next
  search with the same fingerprint queries that index as it is: nothing in the store changed, so nothing
  in it is new.
* ``inspect``: the report (its strings masked once more), and what the automations' health is worked out
  from, so that "stopped firing" is judged against the time of the asking, not of the keeping. Whether
  Daycare's engine runs is looked at each time; when it runs, the store is read live.

Something is kept only when the fingerprint before the live read equals the one after it (nothing wrote
meanwhile) and nothing in the answer depends on a process's life (leftovers of other runs). Whatever
cannot be used (another fingerprint, a damaged record, an index that changed) means a live read, as before.
Opening a session, editing, anything that needs rows: always live.
"""

from __future__ import annotations

import logging
import sqlite3

from daycare_gui.stores.common import kept
from daycare_gui.stores.common.tree_fingerprint import fingerprint

log = logging.getLogger(__name__)
FACET_VALUES_KEPT = 500  # more values than this: a facet filter reads the store live
_STATE_KEYS = ("version", "identity", "cursor", "rows", "documents_digest")


def _masked(value):
    """``value`` with every string masked as free text (keys untouched: the report's keys are its names)."""
    from daycare_gui.stores.common.secrets import mask_free_text

    if isinstance(value, str):
        return mask_free_text(value)
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_masked(v) for v in value]
    return value


class _Kept:
    """One command on one store its kind reads dearly: its fingerprint when the command started."""

    name = ""

    def __init__(self, target, fp, kind: str) -> None:
        self.target = target  # records.KeptTarget
        self.fp = fp
        self.kind = kind  # the store kind whose hook gave the target

    @classmethod
    def find(cls, path, kind: str | None = None):
        """For the store at ``path`` (of ``kind``, else of the kind its probe finds), None when its kind
        reads it cheaply (then it is always read live) or when it cannot be fingerprinted."""
        from daycare_gui.stores import registry

        try:
            if kind is None:
                # the kind the open will choose, decided as it decides: the first kind that is certain ends
                # the asking (every kind's probe, and the scan of the installed packages for more kinds,
                # cost ~0.2 s of each inspect and search)
                kind = registry.choose(registry.absolute(path)).name
            target = registry.load_kind(kind).kept_target(path)
        except Exception as exc:  # a cache: the store is read live
            log.info("no kept answers for %s: %s", path, exc)
            return None
        if target is None:
            return None
        fp = fingerprint(target.roots, hand_over=target.fingerprinted_again)
        return None if fp is None else cls(target, fp, kind)

    @property
    def opened_as(self) -> dict:
        """The store's paths as this run spells them (a report names them, a search index is keyed by them:
        the same store reached another way, through a link, is read live once and kept that way), and the
        application's version (another one may answer otherwise)."""
        from daycare_gui import __version__

        return {"paths": self.target.opened_as, "version": __version__}

    def load(self) -> dict | None:
        data = kept.load(self.target.store, self.name, self.fp)
        return data if data is not None and data.get("opened_as") == self.opened_as else None

    def keep(self, data: dict) -> bool:
        """Keep ``data`` when the store is as it was when the command started (else nothing is kept)."""
        after = fingerprint(self.target.roots)
        if after is None or after.digest != self.fp.digest:
            return False
        return kept.save(self.target.store, self.name, after, {**data, "opened_as": self.opened_as})


# -- search ----------------------------------------------------------------------------------------------
class KeptSearch(_Kept):
    name = "search"

    def answer(self, args, print_results) -> int | None:
        """The search answered from the kept index (``print_results`` prints as the live search does); None
        when it cannot be (then the caller reads the store)."""
        from daycare_gui.commands import search_args
        from daycare_gui.commands.search_output import Shown
        from daycare_gui.stores.common.search_index import INDEX_VERSION, SourceIndex, index_file
        from daycare_gui.stores.common.search_query import SourceFilter, search_source

        if getattr(args, "rebuild", False):
            return None
        data = self.load()
        if data is None:
            return None
        try:
            path = index_file(data["identity"], args.index_dir)
            if str(path) != data["index"] or not path.is_file():
                return None
            flags = {name: flag for name, (_arg, flag) in search_args.FACET_OPTIONS.items() if name in data["facets"]}
            refused = search_args.refuse_filters(args, search_args.SHARED_FILTERS + tuple(flags.values()),
                                                  f"this {data['title']} store")
            if refused is not None:
                return refused
            choices = search_args.choices_of(args, flags)
            threads = data["facet_threads"]
            if any(name in threads and value not in threads[name] for name, value in choices):
                return None  # a value the store may know now: asked of it
            with SourceIndex(path) as index:
                meta = index.meta()
                if [meta.get(k) for k in _STATE_KEYS] != data["index_state"]:
                    return None  # the index was rebuilt or grew since (the window, another search)
                if meta.get("version") != str(INDEX_VERSION):
                    return None  # kept by a version of another layout: the live search rebuilds it
                flt = SourceFilter(roles=tuple(args.roles or ()), since=args.since, until=args.until,
                                   choices=choices)
                results = search_source(index, search_args.query_of(args), flt, limit=args.limit,
                                        newest_first=args.newest, titles=data["titles"],
                                        source=_KeptFacets(threads))
            shown = Shown(data["kind"], data["places"], data["labels"], data["facets"])
        except (KeyError, TypeError, AttributeError, ValueError, sqlite3.Error) as exc:
            log.info("the kept search of %s is not usable (%s): reading the store", self.target.store, exc)
            return None
        print_results(args, results, str(path), shown)
        return 0

    def remember(self, *, source, index, title: str, titles: dict, shown, threads: dict) -> None:
        """After a live search: keep what the next one needs (``threads``: :func:`facet_threads`). Never
        fails the search."""
        try:
            meta = index.meta()
            data = {"kind": shown.kind, "title": title, "identity": source.identity(), "index": str(index.path),
                    "index_state": [meta.get(k) for k in _STATE_KEYS], "facets": sorted(shown.facets),
                    "facet_threads": threads, "labels": shown.labels,
                    "titles": _masked(titles), "places": _masked(shown.places)}  # (ids are no secrets; names may hold one)
            self.keep(data)
        except Exception as exc:  # a cache: the search has its answer anyway
            log.info("could not keep the search of %s: %s", self.target.store, exc)


class _KeptFacets:
    """What ``search_source`` asks a source while searching: the threads a facet value selects."""

    def __init__(self, threads: dict) -> None:
        self.threads = threads

    def facet_threads(self, name: str, value: str):
        if name not in self.threads:
            return None  # a tagged facet (record type): in the index itself
        return frozenset(self.threads[name].get(value, ()))


def facet_threads(source, facet_flags: dict) -> dict:
    """Facet → value → thread ids, for every value of every thread facet (those ``facet_threads`` answers)."""
    out: dict[str, dict[str, list[str]]] = {}
    spent = 0
    for spec in source.facets():
        if spec.name not in facet_flags:
            continue
        values = [v for v, _label in spec.choices]
        probe = source.facet_threads(spec.name, values[0]) if values else None
        if values and probe is None:
            continue  # tagged, not a thread facet
        spent += len(values)
        if spent > FACET_VALUES_KEPT:
            out[spec.name] = {}
            continue
        out[spec.name] = {v: sorted(source.facet_threads(spec.name, v) or ()) for v in values}
    return out


# -- inspect ---------------------------------------------------------------------------------------------
class KeptInspect(_Kept):
    name = "inspect"

    def report(self, home_skills: bool) -> tuple[dict, str] | None:
        """(report, title) from what was kept, with the engine looked at now and the automations' health
        judged now; None when the store must be read."""
        from daycare_gui.stores.common import leftovers

        data = self.load()
        if data is None or data.get("home_skills") != bool(home_skills):
            return None
        if leftovers.read_copies(gone_only=True):
            return None  # a live open would remove them and say so
        engine = self.target.engine()
        if engine.get("running"):
            return None  # the system writes the store: read it as it is now
        try:
            report = dict(data["report"])
            report["engine_running"] = False
            if "engine" in report:
                report["engine"] = engine
            if data.get("automations") is not None:
                from daycare_gui.stores.common.run_report import automations_summary

                report["automations"] = automations_summary(_Replay(data["automations"]))
            return report, data["title"]
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            log.info("the kept report of %s is not usable (%s): reading the store", self.target.store, exc)
            return None

    def watch(self, store) -> None:
        """Before the live report: note what the automations' health is read from as it is read."""
        from daycare_gui.stores.api import Automations

        cap = store.capability(Automations)
        self._recorder = _Recorder(cap) if cap is not None else None
        if self._recorder is not None:
            store.offer(Automations, self._recorder)

    def remember(self, report: dict, title: str, home_skills: bool) -> None:
        try:
            if report.get("engine_running") or any(str(p.get("message", "")).startswith("leftover ")
                                                   for p in report.get("problems", [])):
                return  # depends on processes, not only on the files
            recorder = getattr(self, "_recorder", None)
            if recorder is not None and recorder.broken:
                return
            self.keep({"report": _masked(report), "title": title, "home_skills": bool(home_skills),
                       "automations": recorder.recorded() if recorder is not None else None})
        except Exception as exc:  # a cache: the report is printed anyway
            log.info("could not keep the report of %s: %s", self.target.store, exc)


class _Recorder:
    """An Automations capability passing every call through and noting what the health summary reads."""

    def __init__(self, cap) -> None:
        self.cap = cap
        self.seen_automations: list = []
        self.seen_runs: dict[str, list] = {}
        self.broken = False  # asked something the replay could not answer the same way

    def __getattr__(self, name):
        return getattr(self.cap, name)

    def automations(self):
        found = self.cap.automations()
        self.seen_automations = list(found)
        return found

    def runs(self, automation_id: str, *, since=None, limit=None):
        found = self.cap.runs(automation_id, since=since, limit=limit)
        if since is None and limit == _health_runs():
            self.seen_runs[automation_id] = list(found)
        elif limit != 0:
            self.broken = True
        return found

    def recorded(self) -> dict:
        return {"automations": [_automation_dict(a) for a in self.seen_automations],
                "runs": {k: [_run_dict(r) for r in v] for k, v in self.seen_runs.items()}}


def _health_runs() -> int:
    from daycare_gui.stores.common.run_report import HEALTH_RUNS

    return HEALTH_RUNS


_TASK_FIELDS = ("id", "title", "schedule_kind", "schedule", "timezone", "enabled", "last_run_at", "next_run_at")
_RUN_FIELDS = ("id", "automation_id", "started_at", "finished_at", "outcome", "certainty")


def _automation_dict(a) -> dict:
    from daycare_gui.stores.common.secrets import mask_free_text

    task = None if a.task is None else {f: getattr(a.task, f) for f in _TASK_FIELDS}
    if task is not None:
        task["title"] = mask_free_text(task["title"])
    return {"id": a.id, "title": mask_free_text(a.title), "task": task, "runs_told": a.runs_told, "why": a.why,
            "deleted": a.deleted, "notes": list(a.notes)}


def _run_dict(r) -> dict:
    return {f: getattr(r, f) for f in _RUN_FIELDS}


class _Replay:
    """The recorded automations and runs, as an Automations capability for the health summary."""

    def __init__(self, data: dict) -> None:
        from daycare_gui.stores.records import Automation, Run, TaskItem

        self._automations = [Automation(a["id"], a["title"], None if a["task"] is None else TaskItem(**a["task"]),
                                        a["runs_told"], a["why"], a["deleted"], tuple(a["notes"]))
                             for a in data["automations"]]
        self._runs = {k: [Run(**r) for r in v] for k, v in data["runs"].items()}

    def automations(self):
        return list(self._automations)

    def runs(self, automation_id: str, *, since=None, limit=None):
        if limit == 0:
            return []
        return list(self._runs.get(automation_id, []))[:limit]

