"""explain's samples are cut between words, not inside one (a long word is still cut)."""

import json
import re

import jqmagic
from jqmagic.core.explain.render import _cut

SENTENCE = ("The quick brown fox jumps over the lazy dog and then keeps on running through "
            "the forest until nightfall comes")
WORDS = set(SENTENCE.split())


def _last_words(text: str) -> list[str]:
    """The word before each "…" in ``text``."""
    return re.findall(r"(\w+)…", text)


def test_a_string_sample_ends_on_a_whole_word():
    report = jqmagic.explain(".[] | .d", text=json.dumps([{"d": SENTENCE}]))
    cut_words = _last_words(report.text)
    assert cut_words, report.text
    assert all(word in WORDS for word in cut_words), cut_words


def test_a_word_longer_than_the_slack_is_still_cut_to_the_bound():
    report = jqmagic.explain(".[]", text=json.dumps(["x" * 100]))
    assert '"' + "x" * 60 + "…" in report.text


def test_the_text_view_cut_backs_up_to_a_space():
    assert _cut(SENTENCE, 40) == "The quick brown fox jumps over the lazy…"
    assert _cut("y" * 50, 40) == "y" * 39 + "…"
    assert _cut("short", 40) == "short"
