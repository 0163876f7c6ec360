"""What a reader shows of a message it could not read: the record as stored.

A message of a record type no reader knows (a newer system's) or with a payload that is not an object
shows no text, calls or result of its own, only its problem; its content is in its record. The window's
conversation and the readable exports show that record, secrets masked, so nothing of it is lost from view.
"""

from __future__ import annotations

import json

from daycare_gui.stores.common.secrets import mask_free_text, mask_tree
from daycare_gui.stores.records import Message


def stored_only(m: Message) -> str | None:
    """The record as stored of a message that shows nothing else because it could not be read, as JSON with
    its secrets masked; None for any other message (its text, calls or result say it)."""
    if not m.problem or m.text or m.tool_calls or m.tool_result is not None or m.raw in (None, "", {}, []):
        return None
    raw = mask_tree(m.raw)
    try:
        return json.dumps(raw, ensure_ascii=False, indent=1)
    except (TypeError, ValueError):  # (not JSON's: a kind's own value, said as text)
        return mask_free_text(str(raw))
