"""A message as one line (list rows, tooltips, search results): the same line whatever the text's length,
read from its start only when that is enough."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from daycare_gui.stores.records import Message
from daycare_gui.stores.records.conversations import one_line


def _whole(text: str, limit: int) -> str:
    """The line made from all of the text (what one_line must always answer)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


# Words and runs of white space of every kind Python splits on, long runs among them (indentation, blank
# lines), so that a text's start is sometimes mostly white space and sometimes cut inside a word or a run.
_pieces = st.one_of(st.text(alphabet=st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc")), min_size=1,
                            max_size=40),
                    st.text(alphabet=" \t\n\r\x0b\x0c\x1c\u00a0\u2028\u3000", min_size=1, max_size=300))


@settings(max_examples=400, deadline=None)
@given(st.lists(_pieces, max_size=60).map("".join), st.integers(min_value=-5, max_value=400))
def test_one_line_is_the_line_of_the_whole_text(text, limit):
    assert one_line(text, limit) == _whole(text, limit)


def test_a_huge_message_reads_as_its_first_words_with_an_ellipsis():
    text = "Here is the log you asked for:\n\n" + "  ERROR  disk full\n" * 500_000  # ~10 MB
    line = Message(id="1", role="tool", text=text).summary(60)
    assert line.startswith("Here is the log you asked for: ERROR disk full ERROR disk")
    assert line.endswith("…") and len(line) == 60 and line == _whole(text, 60)
    # a start that is nearly all white space still shows the words after it
    assert one_line(" " * 5_000 + "late words", 20) == "late words"
    assert one_line("short", 20) == "short" and one_line("", 5) == ""
