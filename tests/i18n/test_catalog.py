"""The German catalog covers every message of the app, and the compiled .mo is current."""

from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from scorekeeper import i18n

ROOT = Path(__file__).resolve().parents[2]
CATALOG = i18n.TRANSLATIONS / "de" / "LC_MESSAGES"
# The gettext functions the app calls, with the argument positions of their texts; the
# same keywords `bin/translations` passes to pybabel.
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "_n": (1, 2),
    "_l": None,
    "lazy_gettext": None,
}


def extracted() -> list[tuple[str, ...]]:
    """Every translatable text in the templates and the Python code, as babel finds it."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: set[tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        found.add((message,) if isinstance(message, str) else tuple(message))
    return sorted(found)


def german() -> Catalog:
    with open(CATALOG / "messages.po", "rb") as f:
        return read_po(f, locale="de")


def test_extraction_finds_the_pages_and_the_code() -> None:
    ids = {m[0] for m in extracted()}
    assert "New game" in ids  # a template
    assert "Page not found" in ids  # web/errors.py
    assert "%(who)s does not bid: under Wizard Saboteur the dealer has no bid." in ids  # i18n


@pytest.mark.parametrize("message", extracted(), ids=lambda m: m[0][:60])
def test_every_message_has_a_german_translation(message: tuple[str, ...]) -> None:
    """Fails for a new or changed text until messages.po has German for it."""
    catalog = german()
    entry = catalog.get(message[0] if len(message) == 1 else message)
    assert entry is not None, f"not in messages.po: {message[0]!r} (run bin/translations)"
    assert not entry.fuzzy, f"fuzzy translation of {message[0]!r}"
    strings = [entry.string] if isinstance(entry.string, str) else list(entry.string)
    assert strings and all(s.strip() for s in strings), f"no German for {message[0]!r}"


def test_translations_keep_their_placeholders() -> None:
    """A German text with a missing or misspelt %(name)s would fail at run time."""
    problems = [
        (message.id, [str(e) for e in errors]) for message, errors in german().check() if errors
    ]
    assert problems == []


def _texts(catalog: Catalog) -> dict[object, object]:
    return {
        m.id if isinstance(m.id, str) else tuple(m.id): m.string
        if isinstance(m.string, str)
        else tuple(m.string)
        for m in catalog
        if m.id and not m.fuzzy
    }


def test_compiled_catalog_matches_the_po_file() -> None:
    """messages.mo is committed (no build step at run time): it must hold the .po's texts,
    every one (compared text by text: the header names the Babel release that wrote it)."""
    compiled = BytesIO()
    write_mo(compiled, german())
    compiled.seek(0)
    with open(CATALOG / "messages.mo", "rb") as f:
        committed = read_mo(f)
    assert _texts(committed) == _texts(read_mo(compiled)), (
        "messages.mo is out of date: run bin/translations"
    )
