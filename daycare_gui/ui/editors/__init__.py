"""Editors for Daycare's files (forms + raw text + preview, undo, safe saves) and task rows."""

from .document_editor import DocumentEditor, document_kind
from .permissions_editor import PermissionsEditor
from .row_editor import RowEditor
from .window import EditorWindow, open_file_editor, open_row_editor

__all__ = ["DocumentEditor", "EditorWindow", "PermissionsEditor", "RowEditor", "document_kind", "open_file_editor",
           "open_row_editor"]
