"""Reading only regular files: a named pipe would block a read for ever and a device never ends, so every
kind opens a store's files through these (one copy of the code, in the core) and reports a refusal as a
problem, and copies a store's files with a bound on their size."""

from daycare_gui.core.regular_copy import FileGrew, copy_regular, copy_stream, growth_limit
from daycare_gui.core.regular_files import (
           NotRegularFile,
           missing_or_what,
           open_regular,
           read_regular,
           what_is,
)

__all__ = ["FileGrew", "NotRegularFile", "copy_regular", "copy_stream", "growth_limit", "missing_or_what",
           "open_regular", "read_regular", "what_is"]
