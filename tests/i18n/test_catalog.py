"""Every language's catalog covers every message of the app, keeps its placeholders, and
its compiled .mo is current.

One test per language and check: a failure lists every message at fault in that catalog
at once (a test per message cost the suite seconds for nothing).
"""

from functools import cache
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from scorekeeper import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = sorted(code for code in i18n.LANGUAGES if code != i18n.DEFAULT_LOCALE)
# The gettext functions the app calls, with the argument positions of their texts; the
# same keywords `bin/translations` passes to pybabel (which knows pgettext by itself).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "_n": (1, 2),
    "_l": None,
    "lazy_gettext": None,
    "pgettext": ((1, "c"), 2),
}

Key = tuple[str | None, tuple[str, ...]]


@cache
def extracted() -> dict[Key, str]:
    """Every translatable text in the templates and the Python code, as babel finds it:
    (context, the message's ids) → where it was found."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[Key, str] = {}
    for file, line, message, _comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        ids = (message,) if isinstance(message, str) else tuple(message)
        found.setdefault((context, ids), f"{file}:{line}")
    return found


def catalog(language: str) -> Catalog:
    with open(i18n.TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=language)


def _strings(entry: Message) -> list[str]:
    return [entry.string] if isinstance(entry.string, str) else list(entry.string)


def test_every_language_has_a_catalog() -> None:
    on_disk = {p.parent.parent.name for p in i18n.TRANSLATIONS.glob("*/LC_MESSAGES/*.po")}
    assert on_disk == set(TRANSLATED)


def test_extraction_finds_the_pages_and_the_code() -> None:
    ids = {ids[0] for _context, ids in extracted()}
    assert "New game" in ids  # a template
    assert "Page not found" in ids  # web/errors.py
    assert "%(who)s does not bid: under Wizard Saboteur the dealer has no bid." in ids  # i18n
    assert (("the yellow suit's mark", ("Y",))) in extracted()  # pgettext


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language: str) -> None:
    """Fails for a new, changed or fuzzy text until the language's messages.po has it,
    listing each one (a plural needs every form the language has: three in Polish)."""
    po = catalog(language)
    forms = get_plural(language).num_plurals
    problems = []
    for (context, ids), where in extracted().items():
        entry = po.get(ids[0] if len(ids) == 1 else ids, context=context)
        if entry is None:
            problems.append(f"not in messages.po (run bin/translations): {ids[0]!r} ({where})")
            continue
        strings = _strings(entry)
        if entry.fuzzy:
            problems.append(f"fuzzy: {ids[0]!r}")
        elif len(ids) > 1 and len(strings) != forms:
            problems.append(f"{len(strings)} plural forms, not {forms}: {ids[0]!r}")
        elif not strings or not all(s.strip() for s in strings):
            problems.append(f"untranslated: {ids[0]!r}")
    if problems:
        pytest.fail(f"{len(problems)} messages to do in {language}:\n" + "\n".join(problems))


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language: str) -> None:
    """A text with a missing or misspelt %(name)s would fail at run time."""
    problems = [
        (message.id, [str(e) for e in errors])
        for message, errors in catalog(language).check()
        if errors
    ]
    assert problems == []


def _texts(compiled: Catalog) -> dict[object, object]:
    return {
        (m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m.string
        if isinstance(m.string, str)
        else tuple(m.string)
        for m in compiled
        if m.id and not m.fuzzy
    }


@pytest.mark.parametrize("language", TRANSLATED)
def test_compiled_catalog_matches_the_po_file(language: str) -> None:
    """messages.mo is committed (no build step at run time): it must hold the .po's texts,
    every one (compared text by text: the header names the Babel release that wrote it)."""
    compiled = BytesIO()
    write_mo(compiled, catalog(language))
    compiled.seek(0)
    with open(i18n.TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo", "rb") as f:
        committed = read_mo(f)
    assert _texts(committed) == _texts(read_mo(compiled)), (
        f"{language}/messages.mo is out of date: run bin/translations"
    )
