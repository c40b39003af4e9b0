"""The standings at a glance at the top of the game page: ranked with shared places
(R17), points behind the leader, who deals the open round; sent again with every answer
that scores a round, and to the following phones; the invitation to follow before the
first round; the pad's names breakable between syllables."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services.padview import SOFT_HYPHEN, breakable
from tests.web.support import Pages, section, text_of
from tests.web.test_final_standings import finished_game

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def strip(body: str) -> tuple[str, list[str]]:
    """The standings' heading and lines, as read: "1 Cat 50", "3 Ann 10 −40", …"""
    found = section(body, "standings")
    head = re.search(r'<h2[^>]*class="strip-head"[^>]*>(.*?)</h2>', found, re.S)
    assert head, "no standings"
    items = re.findall(r"<li[^>]*>(.*?)</li>", found, re.S)
    return text_of(head.group(1)), [text_of(item) for item in items]


def shown_version(body: str) -> int:
    return int(section(body, "entry").split('data-version="')[1].split('"')[0])


def two_rounds(pages: Pages) -> str:
    """Ann, Ben, Cat and Dan after two rounds: Cat and Dan 50, Ann and Ben 10."""
    pid = pages.new_game(NAMES, dealer=0)
    pages.play_round(pid, {1: 0, 2: 0, 3: 1, 0: 0}, {1: 0, 2: 0, 3: 1})  # 20 20 20 30
    pages.play_round(pid, {2: 1, 3: 0, 0: 0, 1: 1}, {2: 1, 3: 0, 0: 1})  # −10 −10 30 20
    return pid


def test_r17_the_standings_share_places_and_say_who_deals(pages: Pages) -> None:
    pid = two_rounds(pages)
    page = pages.page(pid).get_data(as_text=True)
    head, lines = strip(page)
    assert head == "After round 2 Cat deals round 3"
    # Equal totals share a place, and the place after them is counted on (R17).
    assert lines == ["1 Cat 50", "1 Dan 50", "3 Ann 10 −40", "3 Ben 10 −40"]
    # Read aloud: how far behind, in words.
    assert ", 40 behind" in section(page, "standings")
    # At the top: before the entry panel (and so before the pad).
    assert page.index('id="standings"') < page.index('id="entry"') < page.index('id="pad"')


def test_the_standings_come_with_the_answer_that_scores_a_round(pages: Pages) -> None:
    pid = two_rounds(pages)
    version = shown_version(pages.page(pid).get_data(as_text=True))
    # A tap in the open round leaves them home: the tap's answer stays small.
    tap = pages.bid(pid, 3, 0, v=version)
    assert tap.status_code == 200
    assert 'id="standings"' not in tap.get_data(as_text=True)
    for seat, bid in [(0, 1), (1, 0), (2, 1)]:
        pages.bid(pid, seat, bid)
    for seat, took in [(3, 0), (0, 1)]:
        pages.tricks(pid, seat, took)
    answer = pages.tricks(pid, 1, 0)  # Cat's 2 fill themselves in: scored
    body = answer.get_data(as_text=True)
    assert 'id="standings" class="strip' in body and 'hx-swap-oob="true"' in section(
        body, "standings"
    )
    # Dan 0/0 +20, Ann 1/1 +30, Ben 0/0 +20, Cat 1/2 −10.
    assert strip(body) == (
        "After round 3 Dan deals round 4",
        ["1 Dan 70", "2 Ann 40 −30", "2 Cat 40 −30", "4 Ben 30 −40"],
    )
    # The page is brought to the new standings, wherever the scorer had scrolled to.
    assert answer.headers["HX-Reswap"] == "outerHTML show:window:top"


def test_a_refused_tap_does_not_move_the_page(pages: Pages) -> None:
    pid = two_rounds(pages)
    answer = pages.tricks(pid, 0, 1)  # no bids yet
    assert answer.status_code == 422
    assert "HX-Reswap" not in answer.headers
    answer = pages.post(pid, "tricks/rest")
    assert answer.status_code == 422
    assert "HX-Reswap" not in answer.headers


def test_a_following_phone_gets_the_new_standings(pages: Pages, follower: Pages) -> None:
    pid = two_rounds(pages)
    seen = follower.page(pid).get_data(as_text=True)
    version = shown_version(seen)
    assert strip(seen)[0] == "After round 2 Cat deals round 3"
    pages.play_round(pid, {3: 0, 0: 1, 1: 0, 2: 1}, {3: 0, 0: 1, 1: 0})
    update = follower.client.get(f"/games/{pid}/live?v={version}", headers={"HX-Request": "true"})
    assert update.status_code == 200
    body = update.get_data(as_text=True)
    assert 'hx-swap-oob="true"' in section(body, "standings")
    assert strip(body)[0] == "After round 3 Dan deals round 4"
    assert strip(body)[1][0] == "1 Dan 70"


def test_before_the_first_round_the_other_phones_are_invited_instead(
    pages: Pages, follower: Pages
) -> None:
    pid = pages.new_game(NAMES)
    for phone in (pages, follower):
        page = phone.page(pid).get_data(as_text=True)
        standings = section(page, "standings")
        assert "hidden" in standings and "<li" not in standings  # nothing to rank yet
        invite = re.search(r'<details class="follow-early">(.*?)</details>', page, re.S)
        assert invite, "no invitation at the top"
        assert page.index("follow-early") < page.index('id="entry"')
        # The view link, never the scorer's; the QR code loads only when opened.
        assert f'href="http://localhost/games/{pid}"' in invite.group(1)
        assert "/score/" not in invite.group(1)
        assert re.search(
            r'<img class="qr" src="/games/[^"]+/qr.svg"[^>]*loading="lazy"', invite.group(1)
        )
    pages.play_round(pid, {1: 0, 2: 0, 3: 0, 0: 0}, {1: 1})
    page = pages.page(pid).get_data(as_text=True)
    assert "follow-early" not in page
    assert strip(page)[0] == "After round 1 Ben deals round 2"


def test_the_welcome_shows_the_qr_code_so_no_second_invitation(pages: Pages) -> None:
    pid = pages.new_game(NAMES)
    page = pages.client.get(f"/games/{pid}?welcome=1").get_data(as_text=True)
    welcome = re.search(r'<section class="note welcome".*?</section>', page, re.S)
    assert welcome and "qr.svg" in welcome.group(0)
    assert "follow-early" not in page


def test_the_final_standings_replace_the_strip(app: Flask, client: FlaskClient) -> None:
    body = client.get(finished_game(app), follow_redirects=True).get_data(as_text=True)
    standings = section(body, "standings")
    assert "hidden" in standings and "<li" not in standings
    assert "follow-early" not in body


def test_the_pad_heads_long_names_breakable_and_whole(pages: Pages) -> None:
    pid = pages.new_game(["Maximilian", "Anna-Lena", "Bo"])
    pad = section(pages.page(pid).get_data(as_text=True), "pad")
    heads = re.findall(r'<span class="name-text">(.*?)</span>', pad)
    assert heads == [f"Maxi{SOFT_HYPHEN}mi{SOFT_HYPHEN}lian", "Anna-Lena", "Bo"]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Maximilian", "Maxi-mi-lian"),
        ("Christopher", "Chris-to-pher"),  # "ph" stays together
        ("Konstantin", "Kons-tan-tin"),
        ("Schwarzschild", "Schwarz-schild"),
        ("Anna-Katharina", "Anna-Katha-rina"),  # each part of a double name
        ("Jean Baptiste", "Jean Bap-tiste"),
        ("Anna", "Anna"),  # short: whole
        ("Bernd", "Bernd"),
        ("R2-D2 X", "R2-D2 X"),  # not letters: whole
        ("Zoë Müller", "Zoë Mül-ler"),
    ],
)
def test_names_break_between_syllables_only(name: str, shown: str) -> None:
    broken = breakable(name)
    assert broken.replace(SOFT_HYPHEN, "") == name
    assert broken.replace(SOFT_HYPHEN, "-") == shown
    for word in re.split(r"[ -]", broken):
        # A word's first and last pieces have three letters at least.
        pieces = word.split(SOFT_HYPHEN)
        assert len(pieces) == 1 or (len(pieces[0]) >= 3 and len(pieces[-1]) >= 3)
