"""What Daycare's search reads of a ``session_history`` record, and how it notices a rewritten history.

The searchable text of a record is extracted in SQL (SQLite's JSON functions run in C, and the large
``rlm_tool_call`` snapshot never leaves the database file): message text, tool call names and arguments,
tool result text, rlm code, tool names/arguments/results, output and print output, notes and rewrites.
The SQLite and legacy generations feed the shared search index with it (``sqlite/search.py``,
``legacy/search.py``). The fingerprint samples rows across the indexed range, so a history rewritten in the
middle is indexed afresh.
"""

from __future__ import annotations

SAMPLES = 8


def _s(path: str) -> str:
    """A JSON value as text ('' when missing), for concatenation."""
    return f"coalesce(json_extract(h.data, '{path}'), '')"


def _each_text(path: str, member: str | None = None) -> str:
    """The strings of an array (or ``member`` of its objects), space-joined."""
    if member is None:
        pick = "CASE WHEN j.type = 'text' THEN j.value END"
    else:
        pick = (f"CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.{member}') "
                "WHEN j.type = 'text' THEN j.value END")
    return f"coalesce((SELECT group_concat({pick}, ' ') FROM json_each(h.data, '{path}') AS j), '')"


# (json_each parses the record again, json_extract reuses its parse: most assistant messages call no tool,
# and an empty array, a missing key or a scalar gives '' without that second parse)
_TOOL_CALLS = ("CASE WHEN json_array_length(h.data, '$.toolCalls') > 0 OR json_type(h.data, '$.toolCalls') = 'object' "
               "THEN coalesce((SELECT group_concat(coalesce(json_extract(j.value, '$.name'), '') || ' ' || "
               "coalesce(json_extract(j.value, '$.arguments'), ''), ' ') "
               "FROM json_each(h.data, '$.toolCalls') AS j WHERE j.type = 'object'), '') ELSE '' END")

# One expression per record type; anything unknown is indexed as its stored JSON (minus a snapshot).
VALID_GUARD = "WHEN NOT json_valid(h.data) THEN h.data\n  "
BODY_SQL = f"""CASE
  {VALID_GUARD}WHEN h.type IN ('user_message', 'note', 'assistant_rewrite') THEN {_s('$.text')}
  WHEN h.type = 'assistant_message' THEN {_s('$.text')} || ' ' || {_TOOL_CALLS}
  WHEN h.type = 'tool_result' THEN {_s('$.output.toolMessage.toolName')} || ' '
       || {_each_text('$.output.toolMessage.content', 'text')}
  WHEN h.type = 'rlm_start' THEN {_s('$.code')}
  WHEN h.type = 'rlm_tool_call' THEN {_s('$.toolName')} || ' ' || {_s('$.toolArgs')} || ' '
       || {_each_text('$.printOutput')}
  WHEN h.type = 'rlm_tool_result' THEN {_s('$.toolName')} || ' ' || {_s('$.toolResult')}
  WHEN h.type = 'rlm_complete' THEN {_s('$.output')} || ' ' || {_s('$.error')} || ' ' || {_each_text('$.printOutput')}
  ELSE json_remove(h.data, '$.snapshot')
END"""


def _row_hash(row) -> str:
    import hashlib  # (only an index build hashes: not imported with the store; a window preloads it)

    return hashlib.sha1(repr(tuple(row)).encode()).hexdigest()[:16]


_SAMPLE_SQL = ("SELECT id, session_id, type, at, length(data), substr(data, 1, 128), substr(data, -64) "
               "FROM session_history WHERE id >= :t AND id <= :last ORDER BY id LIMIT 1")


def fingerprint(db, first_id: int, last_id: int) -> list[list]:
    """[(id, hash)] for up to ``SAMPLES`` rows of ``db`` (a ``ReadOnlyDatabase``) spread over
    ``first_id..last_id`` (ends included)."""
    if last_id < first_id:
        return []
    out: dict[int, str] = {}
    for i in range(SAMPLES):
        target = first_id + (last_id - first_id) * i // max(1, SAMPLES - 1)
        rows = db.rows(_SAMPLE_SQL, {"t": target, "last": last_id})
        if rows:
            out[rows[0][0]] = _row_hash(rows[0])
    return [[k, v] for k, v in sorted(out.items())]
