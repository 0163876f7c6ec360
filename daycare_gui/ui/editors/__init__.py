"""The file editor: the form a store gives for its file, raw text and preview, undo, safe saves."""

from .document_editor import DocumentEditor
from .window import EditorWindow, open_file_editor

__all__ = ["DocumentEditor", "EditorWindow", "open_file_editor"]
