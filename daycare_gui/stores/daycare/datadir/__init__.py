"""The files today's Daycare keeps beside its PGlite/PostgreSQL store: skills of every source, settings,
auth, user secrets, agents' prompt files, processes, mini apps' code folders and users' own databases.

Each is offered through the kind-neutral capabilities (Documents, Collections) by the PG store; nothing
here knows the database. Every read is bounded, opens only regular files and stays in its folder.
"""
