"""The shared Overview draws tokens per day beside activity per day for a store that keeps token usage,
with tokens and cost per model in words; a store without token usage shows activity alone."""

from __future__ import annotations

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.records import DayCount, StoreSummary
from daycare_gui.ui.panes.generic.overview import day_totals


class _Charts(api.Charts):
    def __init__(self, tokens: bool, unreadable: int = 0) -> None:
        self.tokens = tokens
        self.unreadable = unreadable

    def unreadable_token_calls(self):
        return self.unreadable

    def activity_per_day(self):
        return [DayCount("2026-11-01", "", 12), DayCount("2026-11-02", "", 30)]

    def tokens_per_day(self):
        if not self.tokens:
            return []
        return [DayCount("2026-11-01", "gpt-5", 1500), DayCount("2026-11-01", "sonnet-4", 500),
                DayCount("2026-11-02", "gpt-5", 2500)]

    def cost_per_day(self):
        return [DayCount("2026-11-01", "gpt-5", 0.75), DayCount("2026-11-02", "gpt-5", 1.25)] if self.tokens else []


class _Store(api.OpenedStore):
    kind = "tokens"

    def __init__(self, path, tokens: bool) -> None:
        super().__init__(str(path))
        self.offer(api.Charts, _Charts(tokens, 2 if "unreadable" in str(path) else 0))

    def summary(self):
        return StoreSummary(kind=self.kind, generation="test", title=self.title)


class _Kind(api.StoreKind):
    name = "tokens"
    title = "Tokens"

    def probe(self, path):
        return api.Candidate(self.name, 0.0, "only when asked for")

    def open(self, path, *, live=True):
        return _Store(path, tokens="with-tokens" in str(path) or "tokens-unreadable" in str(path))


@pytest.fixture
def token_kind():
    registry.register("tokens", _Kind())
    yield
    registry.unregister("tokens")


def _overview(qtbot, window, path):
    window.open_path(str(path), kind="tokens")
    qtbot.waitUntil(lambda: window.store is not None, timeout=10000)
    window.show_section("overview")
    pane = window.panes["overview"]
    qtbot.waitUntil(lambda: "Loading" not in pane.shown_text(), timeout=10000)
    return pane


def test_tokens_per_day_beside_activity(qtbot, window, token_kind, tmp_path):
    path = tmp_path / "with-tokens"
    path.mkdir()
    pane = _overview(qtbot, window, path)
    assert pane.activity_chart.message == "" and pane.tokens_chart.message == ""  # both charts drawn
    assert pane.tokens_chart.isVisible() and pane.tokens_chart.title == "Tokens per day"
    assert day_totals(_Charts(True).tokens_per_day()) == [(1793491200000, 2000), (1793577600000, 2500)]
    text = pane.shown_text()
    assert "Tokens by model, 2026-11-01 to 2026-11-02" in text
    # the store's own cost, in dollars and named as the store's (the Costs page recomputes it)
    assert "gpt-5\n4,000\n$2.00" in text and "sonnet-4\n500\n$0.00" in text
    assert "Stored cost" in text and "as the store recorded it" in text


def test_no_token_usage_shows_activity_alone(qtbot, window, token_kind, tmp_path):
    path = tmp_path / "plain"
    path.mkdir()
    pane = _overview(qtbot, window, path)
    assert pane.activity_chart.message == "" and not pane.tokens_chart.isVisible()
    assert "Tokens by model" not in pane.shown_text()


def test_calls_whose_counts_cannot_be_read_are_said_beside_the_tokens(qtbot, window, token_kind, tmp_path):
    path = tmp_path / "with-tokens-unreadable"
    path.mkdir()
    pane = _overview(qtbot, window, path)
    assert pane.tokens_chart.message == ""  # the readable days are drawn
    assert ("Not counted in these tokens: 2 model calls whose token counts cannot be read (Costs lists them and "
            "says why).") in pane.shown_text()


def test_only_unreadable_counts_say_so_in_the_chart(qtbot, window, token_kind, tmp_path):
    path = tmp_path / "unreadable"
    path.mkdir()
    pane = _overview(qtbot, window, path)
    assert pane.tokens_chart.isVisible()  # not hidden as if the store kept no token usage
    assert pane.tokens_chart.message == "2 model calls whose token counts cannot be read: Costs lists them."
