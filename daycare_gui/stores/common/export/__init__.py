"""Export a conversation of any store kind: Markdown, one self-contained HTML file, or JSONL.

Works on the neutral records of the ``Conversations`` capability, so every kind that offers it exports
the same way (the window and ``daycare-gui export`` both call :func:`export_session` or
:func:`export_to_file`). Messages stream page by page: a 120,000-record session is never held in memory.
Secrets are masked in every format (JSONL inside the values, so each line stays valid JSON).
"""

from daycare_gui.stores.common.export.formats import FORMATS, Format, format_for_path
from daycare_gui.stores.common.export.markdown import message_markdown
from daycare_gui.stores.common.export.stream import (
    ExportCancelled,
    ExportHeader,
    ExportIncomplete,
    export_session,
    export_to_file,
    header_for,
)

__all__ = ["FORMATS", "ExportCancelled", "ExportHeader", "ExportIncomplete", "Format", "export_session",
           "export_to_file", "format_for_path", "header_for", "message_markdown"]
