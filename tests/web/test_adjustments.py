"""Bonuses and penalties: one-off points for a player in a played round (a misdeal, a
revoke, a house rule), in their total from that round on, on the pad, in the change log,
the exports and the printed pad; refused in the scorer's words with nothing stored."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess

import pytest
from flask import Flask

from scorekeeper import transaction
from scorekeeper.engine import (
    Adjustment,
    InvalidRound,
    RoundEntry,
    RuleSet,
    check_adjustment,
    score_sheet,
)
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import transfer
from scorekeeper.services.errors import NotFound, Rejected
from tests.web.support import Pages, alert, pad_totals, section, text_of

# Characters a name can't hold, and so neither can a reason: a mark that shows the text
# after it right to left, a zero-width space, a byte order mark, a left-to-right isolate.
HIDDEN = ["\u202e", "\u200b", "\ufeff", "\u2066"]
HIDDEN_REFUSED = "The reason can't contain invisible or control characters."


def _game(pages: Pages) -> str:
    """Ann, Ben, Cat; two rounds played, every bid made (round 1: 20, 30, 20)."""
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    pages.play_round(pid, {2: 1, 0: 0, 1: 1}, {2: 1, 0: 0})
    return pid


def _adjust(pages: Pages, pid: str, number: int, **form: object) -> object:
    return pages.post(pid, f"rounds/{number}/adjust", **form)


# -- the engine -------------------------------------------------------------------------------


def test_an_adjustment_counts_in_the_total_from_its_round_on() -> None:
    rounds = [
        RoundEntry((1, 0, 0), (1, 0, 0), adjustments=(Adjustment(1, -10, "revoke"),)),
        RoundEntry((0, 1, 1), (0, 1, 1)),
    ]
    sheet = score_sheet(RuleSet(), 3, 0, rounds)
    first, second = sheet.rounds
    assert first.scores == (30, 20, 20)  # the round's scores stay the rules' (R16)
    assert first.adjusted == (0, -10, 0)
    assert first.totals == (30, 10, 20)
    assert second.totals == (50, 40, 50)
    assert sheet.totals == (50, 40, 50)


@pytest.mark.parametrize(
    ("adjustment", "code"),
    [
        (Adjustment(3, 10), "adjustment_seat"),
        (Adjustment(0, 0), "adjustment_points"),
        (Adjustment(0, 501), "adjustment_points"),
        (Adjustment(0, -501), "adjustment_points"),
        (Adjustment(0, True), "adjustment_points"),  # type: ignore[arg-type]
        (Adjustment(0, 10, "x" * 61), "adjustment_reason"),
        (Adjustment(0, 10, "line\nbreak"), "adjustment_reason_characters"),
        *((Adjustment(0, 10, f"re{c}voke"), "adjustment_reason_characters") for c in HIDDEN),
    ],
)
def test_the_engine_refuses_what_is_not_an_adjustment(adjustment: Adjustment, code: str) -> None:
    from scorekeeper.engine import InvalidRound

    entry = RoundEntry((1, 0, 0), (1, 0, 0), adjustments=(adjustment,))
    with pytest.raises(InvalidRound) as refused:
        score_sheet(RuleSet(), 3, 0, [entry])
    assert refused.value.code == code


@pytest.mark.parametrize(
    "text",
    [*(f"Ann{c}e" for c in [*HIDDEN, "\x07", "\x7f", "\ue000", "\U000e0041"]), "Anne", "Zoë ♠"],
)
def test_a_reason_takes_the_characters_a_name_takes(text: str) -> None:
    try:
        player_service.clean_name(text)
        name_taken = True
    except Rejected as exc:
        assert exc.message == "Names can't contain control characters."
        name_taken = False
    try:
        check_adjustment(Adjustment(0, 10, text), 3)
        reason_taken = True
    except InvalidRound as exc:
        assert exc.code == "adjustment_reason_characters"
        reason_taken = False
    assert reason_taken == name_taken == (text.isprintable())


def test_a_round_not_played_has_no_adjustment() -> None:
    entry = RoundEntry((1, 0, 0), None, adjustments=(Adjustment(0, 10),))
    with pytest.raises(ValueError, match="not played yet"):
        score_sheet(RuleSet(), 3, 0, [entry])


# -- the pad ----------------------------------------------------------------------------------


def test_a_penalty_given_on_the_correction_panel(app: Flask, pages: Pages) -> None:
    pid = _game(pages)
    before = pad_totals(pages.page(pid).get_data(as_text=True), 2)
    panel = pages.client.get(f"/games/{pid}/rounds/1/edit", headers={"HX-Request": "true"})
    assert "Bonus or penalty" in panel.get_data(as_text=True)
    answer = _adjust(pages, pid, 1, seat=1, points="10", reason="  revoke ", sign="penalty")
    body = answer.get_data(as_text=True)  # type: ignore[attr-defined]
    assert answer.status_code == 200  # type: ignore[attr-defined]
    # Back at the round being entered, saying what was given, with Undo to take it back.
    entry = section(body, "entry")
    assert "Round 1: −10 for Ben (revoke). ↶ Undo" in text_of(entry)
    assert f'action="/games/{pid}/rounds/1/adjust/0/remove"' in entry
    assert '<h2 id="entry-title">Round 3 <span class="of">of 20</span></h2>' in entry
    page = pages.whole_page(pid).get_data(as_text=True)
    assert pad_totals(page, 2) == [before[0], before[1] - 10, before[2]]
    row = section(page, "round-1")
    assert re.search(
        r'<sup class="adj" title="revoke">−10<span class="visually-hidden"> '
        r"penalty: revoke</span></sup>",
        row,
    )
    assert "Ben: −10 in round 1 (revoke)" in text_of(section(page, "log"))
    with app.app_context():
        rnd = game_service.get_game(pid).rounds[0]
        assert rnd.adjustments == [{"seat": 1, "points": -10, "reason": "revoke"}]
        assert [r.score for r in rnd.results] == [20, 30, 20]  # the round's own scores


def test_a_bonus_and_taking_it_back(app: Flask, pages: Pages) -> None:
    pid = _game(pages)
    before = pad_totals(pages.page(pid).get_data(as_text=True), 2)
    assert _adjust(pages, pid, 2, seat=2, points="25", sign="bonus").status_code == 200
    assert pad_totals(pages.page(pid).get_data(as_text=True), 2)[2] == before[2] + 25
    taken = pages.post(pid, "rounds/2/adjust/0/remove")
    assert taken.status_code == 200
    entry = section(taken.get_data(as_text=True), "entry")
    assert "Round 2: +25 for Cat taken back." in text_of(entry)
    assert "Undo" not in entry
    page = pages.whole_page(pid).get_data(as_text=True)
    assert pad_totals(page, 2) == before
    assert "Cat: +25 in round 2 taken back" in text_of(section(page, "log"))
    assert 'class="adj"' not in section(page, "pad")


def test_a_typed_minus_sign_is_read_too(pages: Pages) -> None:
    pid = _game(pages)
    before = pad_totals(pages.page(pid).get_data(as_text=True), 2)
    assert _adjust(pages, pid, 2, seat=0, points="−5").status_code == 200
    assert pad_totals(pages.page(pid).get_data(as_text=True), 2)[0] == before[0] - 5


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"seat": 0, "points": "0", "sign": "bonus"}, "not 0"),
        ({"seat": 0, "points": "", "sign": "bonus"}, "whole number of points"),
        ({"seat": 0, "points": "ten", "sign": "bonus"}, "whole number of points"),
        ({"seat": 0, "points": "9" * 5000, "sign": "bonus"}, "whole number of points"),
        ({"seat": 0, "points": "501", "sign": "penalty"}, "from −500 to 500"),
        ({"seat": 7, "points": "10", "sign": "bonus"}, "Choose one of the 3 players."),
        ({"seat": "x", "points": "10", "sign": "bonus"}, "Choose one of the 3 players."),
        ({"seat": 0, "points": "10", "reason": "x" * 61}, "at most 60 characters"),
        ({"seat": 0, "points": "10", "reason": "a\x00b"}, HIDDEN_REFUSED),
        *(({"seat": 0, "points": "10", "reason": f"re{c}voke"}, HIDDEN_REFUSED) for c in HIDDEN),
    ],
)
def test_refused_in_words_where_the_scorer_looks_and_nothing_stored(
    pages: Pages,
    snapshot,
    form: dict[str, object],
    message: str,  # type: ignore[no-untyped-def]
) -> None:
    pid = _game(pages)
    before = snapshot(pid)
    answer = _adjust(pages, pid, 1, **form)
    assert answer.status_code == 422  # type: ignore[attr-defined]
    said = alert(answer)  # type: ignore[arg-type]
    assert said is not None and message in said
    # The panel stays the correction panel, with what was typed.
    assert "Bonus or penalty" in section(answer.get_data(as_text=True), "entry")  # type: ignore[attr-defined]
    assert snapshot(pid) == before


def test_an_open_round_a_missing_one_and_a_missing_adjustment(pages: Pages, snapshot) -> None:  # type: ignore[no-untyped-def]
    pid = _game(pages)
    pages.bid(pid, 0, 1)  # round 3 is open
    before = snapshot(pid)
    assert _adjust(pages, pid, 3, seat=0, points="10").status_code == 404  # type: ignore[attr-defined]
    assert _adjust(pages, pid, 9, seat=0, points="10").status_code == 404  # type: ignore[attr-defined]
    assert pages.post(pid, "rounds/1/adjust/0/remove").status_code == 404
    assert snapshot(pid) == before


def test_only_the_scorer_adjusts(pages: Pages, follower: Pages, snapshot) -> None:  # type: ignore[no-untyped-def]
    pid = _game(pages)
    before = snapshot(pid)
    assert _adjust(follower, pid, 1, seat=0, points="10").status_code == 403  # type: ignore[attr-defined]
    assert follower.post(pid, "rounds/1/adjust/0/remove").status_code == 403
    assert follower.post("no-such-game", "rounds/1/adjust", seat=0, points=1).status_code == 404
    assert snapshot(pid) == before


def test_taking_back_the_tricks_of_an_adjusted_round_is_refused(pages: Pages) -> None:
    pid = _game(pages)
    assert _adjust(pages, pid, 2, seat=0, points="10", sign="bonus").status_code == 200  # type: ignore[attr-defined]
    with pages.client.application.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        with pytest.raises(Rejected, match="take it back before its tricks"):
            game_service.update_round(game, 2, tricks=None)


def test_the_german_pad_and_log(pages: Pages) -> None:
    pid = _game(pages)
    _adjust(pages, pid, 1, seat=1, points="10", reason="Revoke", sign="penalty")
    page = pages.client.get(f"/games/{pid}?all=1", headers={"Accept-Language": "de"})
    body = page.get_data(as_text=True)
    assert "Ben: −10 in Runde 1 (Revoke)" in text_of(section(body, "log"))
    refused = pages.client.post(
        f"/games/{pid}/rounds/1/adjust",
        data={"seat": "0", "points": "0"},
        headers={"HX-Request": "true", "Accept-Language": "de"},
    )
    assert alert(refused) == "Bonus oder Strafe ist eine ganze Punktzahl von −500 bis 500, nicht 0."


# -- exports, the printed pad ---------------------------------------------------------------


def test_kept_in_the_exports_and_read_back(app: Flask, pages: Pages) -> None:
    pid = _game(pages)
    _adjust(pages, pid, 1, seat=1, points="10", reason="=HYPERLINK(1)", sign="penalty")
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        data = transfer.game_data(game)
        assert data["rounds"][0]["adjustments"] == [
            {"seat": 1, "points": -10, "reason": "=HYPERLINK(1)"}
        ]
        assert "adjustments" not in data["rounds"][1]
        rows = list(csv.reader(io.StringIO(transfer.game_csv(game))))
        ben = rows[2]
        assert ben[5] == "Ben" and ben[9] == "-10" and ben[10] == "'=HYPERLINK(1)"
        text = transfer.history_json(None)
        # Imported elsewhere (a copy under another id): the same totals.
        copy = json.loads(text)
        copy["games"][0]["public_id"] = "A" * 22
        result = transfer.import_history(json.dumps(copy), None)
        assert result.imported == 1
        moved = game_service.get_game("A" * 22)
        assert game_service.sheet_of(moved).totals == game_service.sheet_of(game).totals
        assert moved.rounds[0].adjustments == game.rounds[0].adjustments


@pytest.mark.parametrize(
    ("adjustments", "says"),
    [
        ([{"seat": 1, "points": 0, "reason": ""}], "not 0"),
        ([{"seat": 5, "points": 10, "reason": ""}], "Choose one of the 3 players."),
        ([{"seat": 1, "points": 10, "why": ""}], "each is {seat, points, reason}"),
        ("ten", "must be a list"),
        ([{"seat": 1, "points": 10, "reason": ""}] * 21, "must be a list of at most 20"),
        *(([{"seat": 1, "points": 10, "reason": f"re{c}voke"}], HIDDEN_REFUSED) for c in HIDDEN),
    ],
)
def test_an_import_with_bad_adjustments_is_refused(
    app: Flask, pages: Pages, adjustments: object, says: str
) -> None:
    _game(pages)
    with app.app_context():
        data = json.loads(transfer.history_json(None))
        data["games"][0]["public_id"] = "B" * 22
        data["games"][0]["rounds"][0]["adjustments"] = adjustments
        with pytest.raises(Rejected, match=re.escape(says)):
            transfer.import_history(json.dumps(data), None)
        with pytest.raises(NotFound):
            game_service.get_game("B" * 22)


def test_totals_in_an_import_must_count_the_adjustment(app: Flask, pages: Pages) -> None:
    pid = _game(pages)
    _adjust(pages, pid, 1, seat=1, points="10", sign="penalty")
    with app.app_context():
        data = json.loads(transfer.history_json(None))
        data["games"][0]["public_id"] = "C" * 22
        del data["games"][0]["rounds"][0]["adjustments"]  # totals no longer add up
        with pytest.raises(Rejected, match="total"):
            transfer.import_history(json.dumps(data), None)


def test_the_printed_pad_marks_it_and_lists_it(pages: Pages, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pid = _game(pages)
    _adjust(pages, pid, 1, seat=1, points="10", reason="misdeal", sign="penalty")
    pdf = pages.client.get(f"/games/{pid}/pad.pdf")
    assert pdf.status_code == 200
    path = tmp_path / "pad.pdf"
    path.write_bytes(pdf.data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "−10*" in text
    assert "Bonuses and penalties (marked *): Ben −10 in round 1 (misdeal)." in " ".join(
        text.split()
    )
