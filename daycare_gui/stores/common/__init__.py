"""Helpers every store kind may use: problems, secrets masking, JSON/JSONL/frontmatter reading, atomic
saves, schedules in words. Kinds import these, never another kind, and nothing here imports
``daycare_gui.core``: Daycare's readers grew much of this code, and ``daycare_gui.core`` keeps the old
module names as aliases of the modules here so its code reads on unchanged.
"""
