"""Seven languages: each is picked by the browser or the switch, listed in its own name,
words the API's messages, formats dates its own way, and prints its pads with every
letter it needs (Polish ą ć ę ł ń ó ś ź ż in the PDF's font)."""

from __future__ import annotations

import gettext
import subprocess
import tempfile
from datetime import datetime

import pytest
from babel import Locale, numbers
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import i18n, pdf
from tests.pdf.support import pdftext, pdfwords
from tests.web.support import Pages

LANGUAGES = sorted(i18n.LANGUAGES)
NBSP = "\N{NO-BREAK SPACE}"


def browser(code: str) -> dict[str, str]:
    """The Accept-Language of a phone set to ``code`` in one of its regions."""
    region = {"en": "GB", "de": "AT", "fr": "BE", "es": "MX", "it": "CH", "nl": "BE"}
    return {"Accept-Language": f"{code}-{region.get(code, code.upper())},{code};q=0.9,en;q=0.5"}


def translation(code: str, text: str) -> str:
    """``text`` as the language's catalog has it (the English itself for English)."""
    if code == i18n.DEFAULT_LOCALE:
        return text
    with open(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", "rb") as f:
        entry = read_po(f, locale=code).get(text)
    assert entry is not None and entry.string, f"no {code} for {text!r}"
    return str(entry.string)


def test_the_app_speaks_seven_languages_each_named_in_its_own() -> None:
    assert LANGUAGES == ["de", "en", "es", "fr", "it", "nl", "pl"]
    for code, name in i18n.LANGUAGES.items():
        assert name == Locale.parse(code).get_language_name(code).capitalize()


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_browsers_language_picks_the_pages(client: FlaskClient, code: str) -> None:
    body = client.get("/", headers=browser(code)).get_data(as_text=True)
    assert f'<html lang="{code}">' in body


def test_the_switch_lists_every_language_in_its_own_name(client: FlaskClient) -> None:
    body = client.get("/", headers=browser("pl")).get_data(as_text=True)
    assert '<span lang="pl" aria-current="true">Polski</span>' in body
    for code, name in i18n.LANGUAGES.items():
        if code != "pl":
            link = f'rel="alternate" href="/lang/{code}?next=/">{name}</a>'
            assert f'<a lang="{code}" hreflang="{code}" {link}' in body


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_switch_sets_each_language(app: Flask, code: str) -> None:
    client = app.test_client()
    assert client.post(f"/lang/{code}?next=/").status_code == 303
    body = client.get("/", headers=browser("de" if code != "de" else "en")).get_data(as_text=True)
    assert f'<html lang="{code}">' in body


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_api_answers_in_the_clients_language(client: FlaskClient, code: str) -> None:
    response = client.get("/api/v1/nowhere", headers=browser(code))
    assert response.status_code == 404
    expected = translation(code, "There is nothing at this address.")
    assert response.get_json()["error"]["message"] == expected


@pytest.mark.parametrize(
    ("code", "day", "date"),
    [
        ("en", "21 Nov 2026", "21 November 2026"),
        ("de", "21. Nov. 2026", "21. November 2026"),
        ("fr", "21 nov. 2026", "21 novembre 2026"),
        ("es", "21 nov 2026", "21 de noviembre de 2026"),
        ("it", "21 nov 2026", "21 novembre 2026"),
        ("nl", "21 nov 2026", "21 november 2026"),
        ("pl", "21 lis 2026", "21 listopada 2026"),
    ],
)
def test_dates_in_each_languages_own_format(app: Flask, code: str, day: str, date: str) -> None:
    when = datetime(2026, 11, 21, 13, 5)
    with app.test_request_context(headers=browser(code)):
        assert (i18n.day_text(when), i18n.date_text(when)) == (day.replace(" ", NBSP), date)


@pytest.mark.parametrize(
    ("code", "decimal", "percent"),
    [
        ("en", "\N{MINUS SIGN}2.5", "67%"),
        ("fr", "\N{MINUS SIGN}2,5", "67\N{NO-BREAK SPACE}%"),
        ("es", "\N{MINUS SIGN}2,5", "67\N{NO-BREAK SPACE}%"),
        ("it", "\N{MINUS SIGN}2,5", "67%"),
        ("nl", "\N{MINUS SIGN}2,5", "67%"),
        ("pl", "\N{MINUS SIGN}2,5", "67%"),
    ],
)
def test_numbers_in_each_languages_own_format(
    app: Flask, code: str, decimal: str, percent: str
) -> None:
    with app.test_request_context(headers=browser(code)):
        assert (i18n.decimal1(-2.46), i18n.percent(0.67)) == (decimal, percent)
        assert i18n.number(-10900) == "\N{MINUS SIGN}10900"  # a pad's numbers: no grouping
        # Whole numbers are written as Babel writes them in this language, without
        # asking it each time.
        for whole in (0, 7, -30, 1090, 123456):
            babel = numbers.format_decimal(abs(whole), locale=code, group_separator=False)
            assert i18n.number(whole) == ("\N{MINUS SIGN}" if whole < 0 else "") + babel


@pytest.mark.parametrize(
    ("code", "forms"),
    [
        ("pl", [0, 1, 2, 1, 2, 2]),  # 1 lewa, 3 lewy, 5 lew, 22 lewy, 25 lew, 112 lew
        ("fr", [0, 2, 2, 2, 2, 2]),  # 0 and 1 singular, the rest plural
        ("de", [0, 1, 1, 1, 1, 1]),
    ],
)
def test_plural_forms_follow_each_languages_rule(code: str, forms: list[int]) -> None:
    """The compiled catalog chooses among the language's forms by CLDR's rule (Polish has
    three), as gettext reads its Plural-Forms."""
    with open(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    assert [compiled.plural(n) for n in (1, 3, 5, 22, 25, 112)] == forms


def pdf_fonts(data: bytes) -> list[str]:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        out = subprocess.run(
            ["pdffonts", f.name], check=True, capture_output=True, text=True, timeout=30
        ).stdout
    return [line.split()[0] for line in out.splitlines()[2:]]


POLISH_NAMES = ["Łucja", "Gżegżółka", "Świętopełk", "Źrebię Ćma", "Ńina"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_printed_pad_has_every_polish_letter(app: Flask, paper: str) -> None:
    """Names and words with ą ć ę ł ń ó ś ź ż come out of the PDF as written, in the font
    the print CSS asks for (DejaVu has Latin Extended-A), none drawn from a fallback."""
    client = app.test_client()
    client.environ_base.update({"HTTP_ACCEPT_LANGUAGE": "pl"})
    pages = Pages(client)
    pid = pages.new_game(POLISH_NAMES, dealer=0)
    pages.play_round(pid, {1: 1, 2: 0, 3: 0, 4: 0, 0: 0}, {1: 1, 2: 0, 3: 0, 4: 0})
    response = client.get(f"/games/{pid}/pad.pdf?paper={paper}")
    assert response.status_code == 200
    text = pdftext(response.data)
    for name in POLISH_NAMES:
        assert name in text, name
    fonts = pdf_fonts(response.data)
    assert fonts and all("DejaVu" in font for font in fonts), fonts


def _columns(layout: pdf.PadLayout, players: int) -> list[tuple[float, float]]:
    """The pad's columns, left to right, as (left, right) in pt from the page's edge."""
    widths = [layout.round_col, layout.cards_col, layout.dealer_col]
    widths += [layout.trump_col] if layout.trump_col else []
    widths += [layout.total_col, layout.bid_col] * players
    edges = [layout.margin]
    for width in widths:
        edges.append(edges[-1] + width)
    to_pt = 72 / 25.4
    return [(a * to_pt, b * to_pt) for a, b in zip(edges, edges[1:], strict=False)]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize(("players", "paper"), [(6, "a4"), (6, "letter"), (3, "a4")])
def test_the_pads_column_heads_fit_their_columns(
    client: FlaskClient, code: str, players: int, paper: str
) -> None:
    """Every word of the heads (Round, Cards, Dealer, Trump, TOTAL, BID in the language)
    lies within its column: "ANNONCE" or "Manche" ran into the next one."""
    response = client.get(
        f"/pads/blank.pdf?players={players}&plan=full&paper={paper}", headers=browser(code)
    )
    assert response.status_code == 200
    words = pdfwords(response.data)
    columns = _columns(pdf.pad_layout(paper, players, 60 // players), players)
    first = min(
        (w for w in words if w.text == "1" and columns[0][0] <= w.left <= columns[0][1]),
        key=lambda w: w.top,
    )
    heads = [w for w in words if first.top - 16 * 72 / 25.4 < w.middle < first.top]
    assert len(heads) >= 4 + 2 * players, [w.text for w in heads]
    outside = []
    for word in heads:
        centre = word.left + word.width / 2
        left, right = next(c for c in columns if c[0] <= centre <= c[1])
        if word.left < left or word.left + word.width > right:
            outside.append(f"{word.text} ({word.left:.1f}–{word.left + word.width:.1f} pt "
                           f"in a column {left:.1f}–{right:.1f} pt)")  # fmt: skip
    assert outside == []
