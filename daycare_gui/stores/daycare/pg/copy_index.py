"""Indexing the private PGlite copy a store is read from (off; the comment on INDEX_COPY says why).

Opening a copy (pg.open) and serving a fresh one after an edit (the store's reload) both index it when it
is on; kept below both, so the store need not import the module that opens it.
"""

from __future__ import annotations

# Daycare's schema has no index on session_history.session_id, so every page and count scans the whole
# history. The copy is ours and thrown away on close, so it could be indexed after the open (never the
# user's folder, never a server). Measured with bench/pglite.py on the 1M-record demo, two runs: open +
# session list + first conversation page took 62.8 s / 54.7 s indexed against 62.2 s / 53.1 s without
# (building the index costs what it saves there), although each later conversation then opens in ~0.4 s
# instead of ~4 s. Off, as the open is what the user waits for: sessions are counted and paged from their
# record ids read once instead (pg/history_keys: one aggregate, on first need).
INDEX_COPY = False
COPY_INDEXES = (("session_history", "daycare_gui_history_by_session", "(session_id, id)"),)


def index_copy(url: str, progress) -> None:
    import psycopg

    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn:
        for table, name, columns in COPY_INDEXES:
            if conn.execute("SELECT to_regclass(%s)", (f"public.{table}",)).fetchone()[0] is None:
                continue
            if progress:
                progress(0, 0, "Indexing the copy…")
            try:
                conn.execute("SET maintenance_work_mem = '256MB'")  # sort in memory, not in temporary files
                conn.execute(f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" {columns}')
            except psycopg.Error:  # only slower without it: read the copy as it is
                continue
