"""Helpers every store kind may use: problems, secrets masking, JSON/JSONL/frontmatter reading, atomic
saves, schedules in words. Kinds import these, never another kind.

The implementations still live in ``daycare_gui.core`` (where Daycare's readers grew them); these
modules are the stable names kinds use, so the code can move without touching any kind.
"""
