"""Faithful, atomic, conflict-aware saves of a store's text files (JSON, YAML, Markdown), their private copies
and the trash, for every kind."""
