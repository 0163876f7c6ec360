"""Faithful editing of Daycare's Markdown files: frontmatter documents, typed views, atomic conflict-aware saves.

Qt-free: the GUI's editors wrap these models; the ``daycare-gui edit`` command uses them directly.
"""

from .atomic import ConflictError, Loaded, load_for_edit, save_atomic, sha256_of
from .document import FrontmatterDocument, FrontmatterProblem
from .errors import DocumentError, InvalidValue

__all__ = [
    "ConflictError",
    "DocumentError",
    "FrontmatterDocument",
    "FrontmatterProblem",
    "InvalidValue",
    "Loaded",
    "load_for_edit",
    "save_atomic",
    "sha256_of",
]
