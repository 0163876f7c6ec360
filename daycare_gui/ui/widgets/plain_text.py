"""The text a user typed into an editor, exactly.

``QPlainTextEdit.toPlainText()`` turns every no-break space (U+00A0) into a plain space: a file holding
one (text pasted from a web page, French punctuation) would read as changed when it is not, and a save
would rewrite those characters. The document's raw text keeps them; only its paragraph and line
separators need turning back into line feeds.
"""

from __future__ import annotations

_SEPARATORS = {0x2029: "\n", 0x2028: "\n"}  # QChar::ParagraphSeparator, QChar::LineSeparator


def text_of(editor) -> str:
    """What ``editor`` (a QPlainTextEdit or QTextEdit holding plain text) holds, no character replaced."""
    return editor.document().toRawText().translate(_SEPARATORS)
