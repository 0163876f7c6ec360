"""The masker's one look at a text (``STEP_HINTS``) lets through every text a rule of it could change: a text
with a secret in any spelling, any case, beside any characters is masked exactly as every rule would mask it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from daycare_gui.stores.common.secrets import (
    ASCII_LOWERING,
    FREE_TEXT_STEPS,
    STEP_HINTS,
    mask_free_text,
    texts_to_mask,
)
from daycare_gui.stores.masking import run_steps
from tests.secret_samples import SAMPLES

# pieces that make one rule or another apply (or nearly), in odd cases and with characters whose lower case is
# ASCII (KELVIN SIGN → k, İ → i̇) or that a case-blind match equates with ASCII (ſ ~ s)
PIECES = ("TOKEN", "ToKen", "to\u212aen", "Api_Key", "PASSWORD=", "pass\u0130", "ſecret", "Bearer ", "BEARER ",
          "SK-", "GHP_", "Github_Pat_", "AKIA", "eyJ", "EYJ", "://", ":/", "@", '"', "=", ": ", "x" * 20,
          "Q7xT9pLm2VbN4cR8sK1wE5yH3jF6aB0dZ", "postgres://me:pw@host/db", "xoxb-", "glpat-", "AIza", "ASIA",
          "Cookie", "SESSION_KEY", "credential", "authorization", "private_key", " ", "\n", "é", "…")
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_a_text_is_masked_as_every_rule_masks_it(text):
    assert mask_free_text(text) == run_steps(FREE_TEXT_STEPS, text)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_no_rule_applies_to_a_text_without_a_hint(text):
    lowered = text.lower()
    if not any(hint in lowered for hint in STEP_HINTS):
        assert not any(step.applies(text, lowered) for step in FREE_TEXT_STEPS)


def test_every_planted_secret_is_still_masked():
    for sample in SAMPLES:
        for text in (sample.text, sample.text.upper(), sample.text.title()):
            masked = mask_free_text(text)
            assert masked == run_steps(FREE_TEXT_STEPS, text)
        assert sample.hidden not in mask_free_text(sample.text), sample.name


def test_the_characters_that_lower_to_ascii_are_hints():
    lowering = {chr(i) for i in range(0x80, 0x110000)
                if any(ord(ch) < 0x80 for ch in chr(i).lower())}  # (this Python's Unicode tables)
    assert lowering <= set(ASCII_LOWERING)


@settings(max_examples=300, deadline=None)
@given(st.lists(texts, max_size=8))
def test_a_batch_look_names_every_text_a_rule_would_change(batch):
    raw = [t.encode("utf-8", "surrogatepass") for t in batch]
    named = texts_to_mask(b"\n".join(raw), [len(r) for r in raw])
    for i, text in enumerate(batch):
        if any(hint in text.lower() for hint in STEP_HINTS):
            assert i in named, (i, text)
    assert named <= set(range(len(batch)))
