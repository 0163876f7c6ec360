"""What ``daycare-gui search`` prints: the matches grouped by thread and session, as text or one JSON
object, the same for every kind and every Daycare generation (a live search and one answered from what an
earlier search kept print through here alike).

A store whose search source declares facets of its threads (Daycare's agent kind and lifecycle) has each
thread's values shown beside its title, ``[subagent, active]``. Daycare's own search printed its JSON
under its own names (``agent_id``, ``kind``, ``lifecycle``, ``record_id``, ``type``) before every kind went
through one path: a store offering those facets gets those names too, beside the shared ones, so scripts
written for either keep working. Which names come is decided by the facets the source declares, never by
the store's kind.
"""

from __future__ import annotations

import json
import time

from daycare_gui.stores.common.fts import plain_snippet
from daycare_gui.stores.common.wording import words_of

# Thread facets shown beside a thread's title, in this order (a facet's values for each thread are what
# ``SearchSource.facet_threads`` answers).
LABEL_FACETS = ("agent_kind", "lifecycle")
# A thread facet → the key its value had in Daycare's own search's JSON groups.
_GROUP_KEYS = {"agent_kind": "kind", "lifecycle": "lifecycle"}
_UNKNOWN = "?"


def thread_labels(facet_threads: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, str]]:
    """Thread id → {facet: value} for the label facets, from facet → value → thread ids."""
    out: dict[str, dict[str, str]] = {}
    for name in LABEL_FACETS:
        for value, threads in (facet_threads.get(name) or {}).items():
            for thread in threads:
                out.setdefault(thread, {})[name] = value
    return out


class Shown:
    """What the printer knows of the store beyond the results: its kind, what tells each thread apart after
    its title (its place), the label facets' values of each thread, and the facets the source offers."""

    def __init__(self, kind: str, places: dict[str, str], labels: dict[str, dict[str, str]],
                 facets) -> None:
        self.kind = kind
        self.places = places
        self.labels = labels
        self.facets = frozenset(facets)

    def heading(self, thread_id: str, title: str) -> str:
        place = self.places.get(thread_id, thread_id)
        shown = [n for n in LABEL_FACETS if n in self.facets]
        values = self.labels.get(thread_id, {})
        labels = f"  [{', '.join(values.get(n, _UNKNOWN) for n in shown)}]" if shown else ""
        return title + labels + (f"  {place}" if place != title else "")

    def group_extras(self, thread_id: str, title: str) -> dict:
        """Daycare's former JSON names of a group, for a source offering its agents' facets."""
        if "agent_kind" not in self.facets:
            return {}
        values = self.labels.get(thread_id, {})
        out = {"agent_id": thread_id, "agent": title or thread_id or "(unknown agent)"}
        out.update({key: values.get(name, _UNKNOWN) for name, key in _GROUP_KEYS.items() if name in self.facets})
        return out

    def hit_extras(self, hit) -> dict:
        """Daycare's former JSON names of a hit, for a source whose messages are typed records."""
        if "record_type" not in self.facets:
            return {}
        return {"record_id": int(hit.message_id) if hit.message_id.isdigit() else hit.message_id, "type": hit.kind}


def print_results(args, results, index_path: str, shown: Shown) -> None:
    """The matches (and documents) on stdout, as text or one JSON object."""
    from daycare_gui.commands.search_documents import as_json, describe

    documents = as_json(results.documents)
    if args.json:
        out = {**_as_json(results, index_path, shown), "documents": documents}
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(_human(results, shown) + (describe(documents) if documents else ""))


def _as_json(results, index_file: str, shown: Shown) -> dict:
    return {
        "query": results.query, "expression": results.expression, "index": index_file, "kind": shown.kind,
        "total": results.total, "total_capped": results.total_capped, "ranked_within": results.ranked_within,
        "groups": [
            {"thread_id": g.thread_id, "thread": g.title, **shown.group_extras(g.thread_id, g.title),
             "sessions": [{"session_id": s.ref.session_id,
                           "hits": [{"message_id": h.message_id, "role": h.role, "kind": h.kind, "at": h.at,
                                     "snippet": plain_snippet(h.snippet), **shown.hit_extras(h)}
                                    for h in s.hits]} for s in g.sessions]}
            for g in results.groups
        ],
    }


def _human(results, shown: Shown) -> str:
    lines = [results.summary]
    for g in results.groups:
        lines.append("\n" + shown.heading(g.thread_id, g.title))
        for s in g.sessions:
            lines.append(f"  session {s.ref.session_id}")
            for h in s.hits:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(h.at / 1000)) if h.at else "time unknown"
                # (the stored kind is a class name, "HumanMessage": shown as words)
                kind = words_of(h.kind or "")
                kind = kind[:1].lower() + kind[1:] if kind[1:2].islower() else kind  # "human message", "AI message"
                role = h.role + (f" ({kind})" if h.kind and h.kind != h.role else "")
                lines.append(f"    #{h.message_id} · {when} · {role}: {plain_snippet(h.snippet)}")
    return "\n".join(lines)
