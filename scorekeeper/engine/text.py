"""What the table types that the pad shows: players' names and the reasons of bonuses and
penalties."""

from __future__ import annotations

import unicodedata


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control or other invisible character (Unicode's "other"
    categories: control, format, surrogate, private use, unassigned), such as a line
    break, a zero-width space or a mark that turns the text after it right to left.
    Names and reasons refuse them alike: on a pad, a list or a change log they would
    hide or reorder what is written around them."""
    # isprintable() (quick, in C) is false for each of them, and for spaces but " ".
    return not text.isprintable() and any(unicodedata.category(ch)[0] == "C" for ch in text)
