"""One module per domain. Each function takes a :class:`~daycare_gui.stores.common.sqlite_ro.ReadOnlyDatabase`, runs
short keyed queries, and returns typed records. Columns are introspected: real databases are older or
newer than the seed, so a missing column reads as ``None`` instead of failing the query."""
