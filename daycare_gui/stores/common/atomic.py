"""Atomic, conflict-checked file saves (temporary file in the same folder, fsync, rename)."""

from daycare_gui.core.edit.atomic import ConflictError, Loaded, load_for_edit, save_atomic, sha256_of

__all__ = ["ConflictError", "Loaded", "load_for_edit", "save_atomic", "sha256_of"]
