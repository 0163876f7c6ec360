"""Today's Daycare in PGlite: open, first and last page of the largest session, and a word search, each
beside a plain psycopg baseline measured in the same run.

    python bench/pglite.py [--store DIR] [--runs N]

Without ``--store`` it writes (once, cached in bench/.cache/pglite-large) ``demo --generation pglite
--scale large``: 1,013 agents, 20,013 sessions, 1,000,000 history records, written by PGlite itself.
Baselines: *open* — copying the folder and starting PGlite on the copy with the same sidecar, then a
psycopg connection (what any reader must do, since only PGlite reads the folder); *pages* and *search* —
the same rows fetched with psycopg and ``json`` only (no typed records). Prints a table, then one JSON line.
The application's figures are taken twice, with and without the index it adds to its private copy
(``session_history(session_id, id)``); ``open_and_first_page`` is open + the agent's sessions + the
largest conversation's last page (counted), what a user waits for. Nothing is written to the store.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def _median_ms(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def _ensure_store(store: Path | None) -> Path:
    if store is not None:
        return store
    cache = HERE / ".cache" / "pglite-large"
    if not (cache / "daycare.pglite" / "PG_VERSION").is_file():
        print(f"writing the large PGlite demo into {cache} (once)…", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "daycare_gui.cli", "demo", str(cache), "--generation", "pglite",
                        "--scale", "large", "--now", "fixed", "--quiet"], check=True, cwd=HERE.parent)
    return cache


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    store = _ensure_store(args.store)

    import psycopg

    from daycare_gui.stores import api, registry
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime
    from daycare_gui.stores.records import SessionRef

    runtime = ensure_runtime()
    figures: dict[str, float] = {}

    def baseline_open():
        server = PgliteServer(store / "daycare.pglite", runtime)
        conn = psycopg.connect(server.url.replace("postgresql+psycopg://", "postgresql://"))
        conn.execute("SELECT 1")
        conn.close()
        server.close()

    from daycare_gui.stores.daycare.pg import open as pg_open

    def app_open():
        registry.open_store(store).close()

    def app_figures(suffix: str) -> tuple[str, int]:
        """Open, then what opening the largest conversation costs: its agent's sessions, its last page
        (where a conversation opens) and its first page, each on a fresh store (counts are cached)."""
        figures["open" + suffix + "_ms"] = _median_ms(app_open, args.runs)
        with registry.open_store(store) as opened:
            conv = opened.capability(api.Conversations)
            sid, agent, n = opened.db.rows(
                "SELECT h.session_id, s.agent_id, count(*) c FROM session_history h JOIN sessions s "
                "ON s.id = h.session_id GROUP BY h.session_id, s.agent_id ORDER BY c DESC LIMIT 1")[0]
            ref = SessionRef(agent, sid)
            figures["largest_session_records"] = n
            figures["sessions" + suffix + "_ms"] = _median_ms(lambda: conv.sessions(agent), args.runs)
            t = time.perf_counter()
            conv.messages(ref, n - 200, 200)  # includes the session's count, as the window pays it
            figures["open_conversation" + suffix + "_ms"] = (time.perf_counter() - t) * 1000
            figures["first_page" + suffix + "_ms"] = _median_ms(lambda: conv.messages(ref, 0, 200), args.runs)
            figures["last_page" + suffix + "_ms"] = _median_ms(lambda: conv.messages(ref, n - 200, 200), args.runs)
        figures["open_and_first_page" + suffix + "_ms"] = (
            figures["open" + suffix + "_ms"] + figures["sessions" + suffix + "_ms"]
            + figures["open_conversation" + suffix + "_ms"])
        return sid, n

    # The copy can be indexed on session_history(session_id, id) after the open (pg.open.INDEX_COPY, off
    # by default); the same figures with and without that index show whether it pays for itself.
    pg_open.INDEX_COPY = False
    app_figures("_noindex")
    pg_open.INDEX_COPY = True
    sid, n = app_figures("")
    pg_open.INDEX_COPY = False
    figures["open_baseline_ms"] = _median_ms(baseline_open, args.runs)

    # Baselines on their own copy: PGlite serves one connection at a time.
    server = PgliteServer(store / "daycare.pglite", runtime)
    raw = psycopg.connect(server.url.replace("postgresql+psycopg://", "postgresql://"))

    def plain_page(offset):
        rows = raw.execute("SELECT id, type, at, data FROM session_history WHERE session_id = %s ORDER BY id "
                           "LIMIT 200 OFFSET %s", (sid, offset)).fetchall()
        return [json.dumps(r[3]) for r in rows]

    figures["first_page_baseline_ms"] = _median_ms(lambda: plain_page(0), args.runs)
    figures["last_page_baseline_ms"] = _median_ms(lambda: plain_page(n - 200), args.runs)
    figures["search_baseline_ms"] = _median_ms(lambda: raw.execute(
        "SELECT id FROM session_history WHERE data->>'text' ILIKE %s LIMIT 50", ("%invoice garden%",)).fetchall(),
        args.runs)
    raw.close()
    server.close()

    print(f"{'figure':<28}{'indexed copy':>14}{'no index':>12}{'baseline':>12}")
    for key in ("open", "sessions", "open_conversation", "first_page", "last_page", "open_and_first_page"):
        base = figures.get(key + "_baseline_ms")
        print(f"{key:<28}{figures[key + '_ms']:>12.1f}ms{figures[key + '_noindex_ms']:>10.1f}ms"
              + (f"{base:>10.1f}ms" if base is not None else ""))
    print(f"{'search (ILIKE, baseline)':<28}{'':>26}{figures['search_baseline_ms']:>10.1f}ms")
    print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    # a command asked again of an unchanged store (small demos, whole processes): bench/repeat.py's JSON line
    subprocess.run([sys.executable, str(HERE / "repeat.py"), "--runs", str(args.runs)], check=False)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("DAYCARE_GUI_PGLITE_DIR", str(HERE.parent / ".cache" / "pglite"))
    raise SystemExit(main())
