"""A tap in the open round (trump, a bid, tricks, taking one back) answers with the entry
panel alone: the pad and the change log cannot have changed, so they stay home — a
tap's round trip is what a phone on a slow network waits for."""

from __future__ import annotations

import re

from tests.web.support import HX, Pages, section


def _version(body: str) -> int:
    return int(section(body, "entry").split('data-version="')[1].split('"')[0])


def _keyless(html: str) -> str:
    """Without the idempotency keys and CSRF tokens (signed with the time), which every
    rendering makes afresh, and the note of a take-back with its "Undo", which only the
    answer to the take-back shows (white space folded)."""
    html = re.sub(r'<form [^>]*class="note taken-back">.*?</form>', "", html, flags=re.S)
    return " ".join(re.sub(r'name="(idempotency_key|csrf_token)" value="[^"]*"', "", html).split())


def _parts(body: str) -> tuple[str, str]:
    return section(body, "pad"), section(body, "log")


def test_draft_taps_answer_with_the_panel_and_the_open_rounds_row_only(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    page = pages.page(pid).get_data(as_text=True)
    version = _version(page)
    taps = [
        ("bid", {"seat": 2, "bid": 1}),
        ("bid", {"seat": 0, "bid": 0}),
        ("clear", {"clear": "bid:0"}),
        ("bid", {"seat": 0, "bid": 0}),
        ("bid", {"seat": 1, "bid": 0}),
        ("tricks", {"seat": 2, "tricks": 1}),
        ("clear", {"clear": "tricks:2"}),
        ("tricks", {"seat": 2, "tricks": 1}),
    ]
    for action, data in taps:
        pad, log = _parts(page)
        answer = pages.post(pid, action, v=version, **data)
        assert answer.status_code == 200, (action, data)
        body = answer.get_data(as_text=True)
        assert body.lstrip().startswith('<section id="entry"'), action
        assert 'id="pad"' not in body and 'id="log"' not in body, action
        row = section(body, "round-2")
        assert 'hx-swap-oob="true"' in row
        # A row can't stand alone in HTML: it comes inside a template, after the panel.
        assert re.search(r'</section>\s*<template>\s*<tr id="round-2"', body), action
        version = _version(body)
        # The full page agrees: the panel and that row moved, nothing else.
        page = pages.page(pid).get_data(as_text=True)
        expected = pad.replace(section(pad, "round-2"), row.replace(' hx-swap-oob="true"', ""))
        assert _parts(page) == (expected, log), (action, data)
        panel, answered = section(page, "entry"), section(body, "entry")
        if "taken-back" in answered:
            # The answer to a take-back offers to put it back, in place of the undo line.
            panel = re.sub(r'<p class="undo-line">.*?</p>', "", panel, flags=re.S)
        assert _keyless(panel) == _keyless(answered)
    # Confirming the round changes the whole pad: that answer brings it along.
    done = pages.post(pid, "confirm", v=version)
    assert 'id="pad"' in done.get_data(as_text=True)


def test_a_tap_without_the_version_gets_everything(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    answer = pages.client.post(f"/games/{pid}/bid", data={"seat": "1", "bid": "0"}, headers=HX)
    assert answer.status_code == 200
    assert 'id="pad"' in answer.get_data(as_text=True)


def test_a_stale_tap_gets_everything_and_changes_nothing(pages: Pages, snapshot) -> None:  # type: ignore[no-untyped-def]
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    before = snapshot(pid)
    answer = pages.post(pid, "bid", seat=1, bid=0, v=999)
    assert answer.status_code == 409
    assert 'id="pad"' in answer.get_data(as_text=True)
    assert snapshot(pid) == before
