"""Helpers every store kind may use: problems, secrets masking, JSON/JSONL/frontmatter reading, atomic
saves, schedules in words. Kinds import these, never another kind, and nothing here imports a kind
(Daycare's readers grew much of this code; it names no Daycare thing).
"""
