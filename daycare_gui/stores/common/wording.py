"""Counts in words ("1 agent", "3 agents") and stored keys in words ("model_id" → "Model ID"): the same
wording as the window and the commands (``core.display``)."""

from daycare_gui.core.display import count, plural_of, words_of

__all__ = ["count", "plural_of", "words_of"]
