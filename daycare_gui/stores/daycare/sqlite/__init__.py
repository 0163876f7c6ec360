"""Daycare's SQLite generation offered through the shared capabilities (adapters over its queries)."""
