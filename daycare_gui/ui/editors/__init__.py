"""Editors for Daycare's files (forms + raw text + preview, undo, safe saves)."""

from .document_editor import DocumentEditor, document_kind
from .permissions_editor import PermissionsEditor
from .window import EditorWindow, open_file_editor

__all__ = ["DocumentEditor", "EditorWindow", "PermissionsEditor", "document_kind", "open_file_editor"]
