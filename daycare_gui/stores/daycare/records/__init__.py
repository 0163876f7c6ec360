"""Typed records for the JSON columns of Daycare's SQLite tables.

Parsers never raise on bad data. A value that does not parse becomes :class:`Unparsed` (raw text plus
the reason), so a view can still show it and the loader can report it as a problem. Known keys become
fields; keys Daycare added later land in ``extra`` so nothing is dropped.

Each module holds the records of one part of the schema, and each reader imports the module it reads:
:mod:`.json_values` (``Unparsed``, ``parse_json_text`` and the readers of a parsed object's keys),
:mod:`.agents` (descriptors, permissions, tokens), :mod:`.history` (``HistoryRecord`` and its parsers),
:mod:`.subsystems` (inbox, signals, expose, string lists).
"""
