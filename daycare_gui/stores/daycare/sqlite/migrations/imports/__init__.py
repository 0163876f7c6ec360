"""Import migrations: legacy (pre-SQLite) files into tables, as Daycare 808af509 maps them (reference §6).

Each module has a ``read_*`` function that parses the legacy files (shared by the migration and the dry run)
and the migration body. Skips are silent in Daycare; here they are collected as problems so the dry run
can show them.
"""
