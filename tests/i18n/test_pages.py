"""Pages in every language: chosen from Accept-Language, switchable, remembered."""

import re
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import i18n
from tests.pdf.support import pdftext
from tests.web.support import Pages, text_of


def words(html: str) -> str:
    return re.sub(r"\s+", " ", text_of(html))


def test_no_accept_language_means_english(client: FlaskClient) -> None:
    body = client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in body
    assert "New game" in body and "Neues Spiel" not in body


def test_home_in_german(german: Pages) -> None:
    response = german.client.get("/")
    body = response.get_data(as_text=True)
    assert '<html lang="de">' in body
    assert "Neues Spiel" in body
    assert "Leeren Spielblock drucken" in body
    assert "Accept-Language" in response.headers["Vary"]


def test_home_in_english(english: Pages) -> None:
    body = english.client.get("/").get_data(as_text=True)
    assert "New game" in body and "Print a blank score pad" in body


def test_unknown_languages_fall_back_to_english(client: FlaskClient) -> None:
    body = client.get("/", headers={"Accept-Language": "pt-BR,pt;q=0.9"}).get_data(as_text=True)
    assert "New game" in body


def test_game_page_in_german(german: Pages) -> None:
    pid = german.new_game(["Ann", "Ben", "Cat"], dealer=0)
    text = words(german.whole_page(pid).get_data(as_text=True))
    for word in ("Runde 1 von 20", "je 1 Karte", "Ann gibt", "Ansage", "Stiche", "Trumpf"):
        assert word in text, word
    assert "Spielblock" in text and "Regeln dieses Spiels" in text and "Standardregeln" in text


def test_game_page_in_english(english: Pages) -> None:
    pid = english.new_game(["Ann", "Ben", "Cat"], dealer=0)
    text = words(english.whole_page(pid).get_data(as_text=True))
    assert "Round 1 of 20" in text and "1 card each" in text and "Standard rules" in text


def test_the_switch_is_remembered(app: Flask) -> None:
    client = app.test_client()  # no Accept-Language: English
    assert "New game" in client.get("/").get_data(as_text=True)
    games = f"/circles/{Pages(client).make_circle()}/games"
    response = client.get(f"/lang/de?next={games}")
    assert response.status_code == 303
    assert response.headers["Location"] == games
    assert "Neues Spiel" in client.get("/").get_data(as_text=True)
    assert "Spiele" in client.get(games).get_data(as_text=True)
    # The choice beats the browser's language, both ways.
    german_browser = {"Accept-Language": "de"}
    client.post("/lang/en?next=/")
    assert "New game" in client.get("/", headers=german_browser).get_data(as_text=True)


def test_the_switch_links_back_to_the_page(german: Pages) -> None:
    games = f"/circles/{german.make_circle()}/games"
    body = german.client.get(f"{games}?status=finished").get_data(as_text=True)
    assert f'href="/lang/en?next={games}?status%3Dfinished"' in body
    assert 'lang="de" aria-current="true"' in body


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x", ""]
)
def test_the_switch_only_goes_back_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/de", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_an_unknown_language_is_not_found(client: FlaskClient) -> None:
    assert client.get("/lang/pt").status_code == 404


def test_forbidden_bid_in_german(german: Pages) -> None:
    pid = german.new_game(["Ann", "Ben", "Cat"], dealer=0, dealer_rule="plus_minus_one")
    german.bid(pid, 1, 0)
    panel = words(german.bid(pid, 2, 0).get_data(as_text=True))
    expected = (
        "Ann (Geber) darf nicht 1 ansagen: Die Ansagen ergäben zusammen den einen Stich "
        "(Plus/minus eins). Erlaubt: 0."
    )
    assert expected in panel  # the reason beside the disabled key
    refused = german.bid(pid, 0, 1)
    assert refused.status_code == 422
    assert expected in words(refused.get_data(as_text=True))


def test_forbidden_bid_in_english(english: Pages) -> None:
    pid = english.new_game(["Ann", "Ben", "Cat"], dealer=0, dealer_rule="plus_minus_one")
    english.bid(pid, 1, 0)
    english.bid(pid, 2, 0)
    refused = english.bid(pid, 0, 1)
    assert refused.status_code == 422
    assert (
        "Ann (dealer) can't bid 1: the bids would add up to the 1 trick (plus/minus one). "
        "Allowed: 0." in words(refused.get_data(as_text=True))
    )


def test_tricks_that_do_not_fit_in_german(german: Pages) -> None:
    pid = german.new_game(["Ann", "Ben", "Cat"], dealer=0)
    for seat in (1, 2, 0):
        german.bid(pid, seat, 0)
    refused = german.tricks(pid, 1, 2)
    assert refused.status_code == 422
    assert "Die gemachten Stiche gehen von 0 bis 1." in words(refused.get_data(as_text=True))


def test_negative_totals_have_a_minus_sign(german: Pages) -> None:
    pid = german.new_game(["Ann", "Ben", "Cat"], dealer=0)
    german.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 0, 2: 0})  # Ben bid 1, took 0: −10
    text = words(german.whole_page(pid).get_data(as_text=True))
    assert "Ben −10" in text  # the last round's scores, U+2212
    # The change log is stored in English and read out in German.
    assert "Spiel angelegt" in text and "Runde 1 eingetragen" in text


def test_error_pages_in_german(german: Pages) -> None:
    response = german.client.get("/games/nothing-here")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.get_data(as_text=True)


def test_setup_errors_in_german(german: Pages) -> None:
    response = german.create(["Ann", "Ben"], 0)
    assert response.status_code == 422
    assert "Wizard wird von 3 bis 6 Spielern gespielt, nicht von 2." in words(
        response.get_data(as_text=True)
    )


def test_blank_pad_pdf_in_german(german: Pages) -> None:
    response = german.client.get("/pads/blank.pdf?players=4&plan=short")
    assert response.status_code == 200
    text = pdftext(response.data)
    for word in ("Block der Wahrheit", "Runde", "Karten", "Geber", "Trumpf", "Kurzes Spiel"):
        assert word in text, word
    english = german.client.get(
        "/pads/blank.pdf?players=4&plan=short", headers={"Accept-Language": "en"}
    )
    assert "score pad" in pdftext(english.data)
    assert english.headers["ETag"] != response.headers["ETag"]  # not the cached German one


def test_game_pad_pdf_in_german(german: Pages) -> None:
    pid = german.new_game(["Ann", "Ben", "Cat"], dealer=0, dealer_rule="plus_minus_one")
    german.play_round(pid, {1: 1, 2: 0, 0: 1}, {1: 1, 2: 0})
    text = pdftext(german.client.get(f"/games/{pid}/pad.pdf").data)
    assert "Nach Runde 1 von 20" in text
    assert "Plus/minus eins" in text and "Regeln dieses Spiels" in text


def test_history_in_german(german: Pages) -> None:
    circle = f"/circles/{german.make_circle()}"
    german.new_game(["Ann", "Ben", "Cat"], dealer=0, circle=circle.rsplit("/", 1)[1])
    text = words(german.client.get(f"{circle}/games").get_data(as_text=True))
    assert "Spiele" in text and "Laufend" in text
    assert "Spieler" in words(german.client.get(f"{circle}/players").get_data(as_text=True))
    assert "Rekorde" in words(german.client.get(f"{circle}/records").get_data(as_text=True))


def test_numbers_and_dates_follow_the_locale(app: Flask) -> None:
    when = datetime(2026, 11, 21, 13, 5)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.number(-1090) == "\N{MINUS SIGN}1090"
        assert i18n.signed(30) == "+30"
        assert i18n.decimal1(-2.46) == "\N{MINUS SIGN}2,5"
        assert i18n.percent(0.5) == "50\N{NO-BREAK SPACE}%"
        assert i18n.date_text(when) == "21. November 2026"
        assert i18n.day_text(when) == "21.\N{NO-BREAK SPACE}Nov.\N{NO-BREAK SPACE}2026"
        assert i18n.short_datetime(when) == "21. Nov. 13:05 UTC"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.number(-1090) == "\N{MINUS SIGN}1090"
        assert i18n.decimal1(-2.46) == "\N{MINUS SIGN}2.5"
        assert i18n.percent(0.5) == "50%"
        assert i18n.date_text(when) == "21 November 2026"
        assert i18n.day_text(when) == "21\N{NO-BREAK SPACE}Nov\N{NO-BREAK SPACE}2026"
        assert i18n.short_datetime(when) == "Nov 21 13:05 UTC"


def marks(body: str) -> dict[str, str]:
    """The legend under the pad: each suit's mark, the dealer's and the Wizard's, with
    the word the legend gives each."""
    legend = re.search(r'<p class="legend">(.*?)</p>', body, re.S)
    assert legend, "no legend"
    html = legend.group(1)
    found = {
        suit: mark
        for suit, mark in re.findall(r'class="trump-mark suit-(\w+)">([^<]+)<', html)
        if suit != "none"
    }
    dealer = re.search(r'class="dealer-mark">([^<]+)<', html)
    wizard = re.search(r'class="wiz">([^<]+)<', html)
    assert dealer and wizard
    return {**found, "dealer": dealer.group(1), "wizard": wizard.group(1)}


LEGEND_WORDS = {"yellow": "yellow", "red": "red", "green": "green", "blue": "blue",
                "dealer": "dealer", "wizard": "Wizard"}  # fmt: skip


@pytest.mark.parametrize("code", sorted(i18n.LANGUAGES))
def test_the_pad_legend_marks_each_suit_and_the_dealer_unmistakably(app: Flask, code: str) -> None:
    """Each mark is the start of its word in the reader's language (no English "Y" for
    Gelb, "Ja" for jaune), and no two marks read the same (in German "G" was the dealer's
    and green's)."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = code
    pages = Pages(client)
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0)
    found = marks(pages.page(pid).get_data(as_text=True))
    assert set(found) == set(LEGEND_WORDS)
    with app.test_request_context(headers={"Accept-Language": code}):
        words = {what: i18n.gettext(word) for what, word in LEGEND_WORDS.items()}
    for what, mark in found.items():
        assert words[what].lower().startswith(mark.lower()), (code, what, mark)
    assert len(set(found.values())) == len(found), found
