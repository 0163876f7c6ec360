"""Today's Daycare: its PostgreSQL schema, read from a PGlite folder (through a private copy served by
PGlite under Node.js) or from a PostgreSQL server, always in short read-only transactions."""
