"""``inspect --json`` for any kind: the shared keys, then whatever the kind adds."""

from __future__ import annotations

from daycare_gui.stores.api import OpenedStore


def inspect_report(store: OpenedStore, **options) -> dict:
    """kind, generation, counts, problems (shared), merged with ``store.report()`` (the kind's own keys,
    which come first and win: Daycare's report keeps the order it always had)."""
    summary = store.summary()
    out = dict(store.report(**options))
    base = {
        "path": summary.title,
        "kind": store.kind,
        "generation": summary.generation,
        "notes": list(summary.notes),
        "engine_running": summary.engine_running,
        "open_mode": summary.open_mode or None,
        "counts": store.counts(),
        "problems": [p.to_dict() for p in store.problems],
    }
    from daycare_gui.stores.api import Automations

    automations = store.capability(Automations)
    if automations is not None:  # scheduled work: how many, their runs, failures, which stopped firing
        from daycare_gui.stores.common.run_report import automations_summary

        base["automations"] = automations_summary(automations)
    for key, value in base.items():
        out.setdefault(key, value)
    out["kind"] = store.kind
    return out
