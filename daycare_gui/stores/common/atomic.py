"""Atomic, conflict-checked file saves (temporary file in the same folder, fsync, rename), and backup copies
no more open than their original."""

from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    Loaded,
    OutsideStoreError,
    ReadOnlyError,
    load_for_edit,
    refuse_outside,
    refuse_read_only,
    save_atomic,
    sha256_of,
)
from daycare_gui.stores.common.edit.copies import permission_bits, private_folder

__all__ = ["ConflictError", "Loaded", "OutsideStoreError", "ReadOnlyError", "load_for_edit", "permission_bits", "private_folder",
           "refuse_outside", "refuse_read_only", "save_atomic", "sha256_of"]
