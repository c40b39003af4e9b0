"""The score pad: recorded rounds checked and added up (R16, R17, P1, P2, P3; V2, V6)."""

import random
from typing import Any

import pytest

from scorekeeper.engine import (
    DealerRule,
    IllegalBid,
    InvalidRound,
    Plan,
    RoundDraft,
    RoundEntry,
    RuleSet,
    Scoring,
    Suit,
    TieBreak,
    TrumpCall,
    check_trump,
    plan_for,
    round_scores,
    score_sheet,
)


def entry(
    bids: list[int | None], tricks: list[int] | None = None, trump: str | None = None
) -> RoundEntry:
    return RoundEntry(
        tuple(bids),
        None if tricks is None else tuple(tricks),
        None if trump is None else TrumpCall.parse(trump),
    )


# -- P1: the trump of a round ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "suit", "wizard"),
    [
        ("red", Suit.RED, False),
        ("Yellow", Suit.YELLOW, False),
        ("none", None, False),
        ("jester", None, False),
        ("wizard:blue", Suit.BLUE, True),
        ("hearts", Suit.RED, False),  # P3
        ("wizard:spades", Suit.BLUE, True),  # P3
        ("diamonds", Suit.YELLOW, False),  # P3
        ("clubs", Suit.GREEN, False),  # P3
    ],
)
def test_p1_p3_trump_text(text: str, suit: Suit | None, wizard: bool) -> None:
    call = TrumpCall.parse(text)
    assert (call.suit, call.wizard_turned) == (suit, wizard)
    assert TrumpCall.parse(str(call)) == call


@pytest.mark.parametrize("text", ["wizard:none", "wizard:", "purple", "", "wizard"])
def test_p1_bad_trump_text(text: str) -> None:
    with pytest.raises(ValueError):
        TrumpCall.parse(text)


def test_p1_r7_wizard_turned_needs_a_suit() -> None:
    with pytest.raises(ValueError, match="must choose a suit"):
        TrumpCall(None, wizard_turned=True)


P1 = [
    # (tag, rules, players, cards, trump, fits)
    ("P1 suit in a normal round", RuleSet(), 4, 5, "red", True),
    ("P1 none in a normal round", RuleSet(), 4, 5, "none", True),
    ("P1 Wizard turned in a normal round", RuleSet(), 4, 5, "wizard:green", True),
    ("P1 nothing recorded", RuleSet(), 4, 15, None, True),
    ("P1 no suit in the last round (R8)", RuleSet(), 4, 15, "red", False),
    ("P1 no Wizard choice in the last round (R8)", RuleSet(), 4, 15, "wizard:red", False),
    ("P1 none in the last round", RuleSet(), 4, 15, "none", True),
    ("P1 last round of 3 players", RuleSet(), 3, 20, "blue", False),
    ("P1 last round of 6 players", RuleSet(), 6, 10, "blue", False),
    ("P1 round before the last", RuleSet(), 6, 9, "blue", True),
    ("P1 short game last round (V8)", RuleSet(round_plan=Plan.SHORT), 5, 12, "red", False),
    ("P1 short game earlier round (V8)", RuleSet(round_plan=Plan.SHORT), 5, 11, "red", True),
    (
        "P1 no suit in a unicoloured game (V9)",
        RuleSet(round_plan=Plan.UNICOLOURED),
        4,
        4,
        "red",
        False,
    ),
    (
        "P1 no Wizard choice in a unicoloured game (V9)",
        RuleSet(round_plan=Plan.UNICOLOURED),
        3,
        9,
        "wizard:red",
        False,
    ),
    (
        "P1 none in a unicoloured game (V9)",
        RuleSet(round_plan=Plan.UNICOLOURED),
        3,
        4,
        "none",
        True,
    ),
]


@pytest.mark.parametrize(
    ("rules", "players", "cards", "trump", "fits"), [c[1:] for c in P1], ids=[c[0] for c in P1]
)
def test_p1_recorded_trump_must_fit_the_round(
    rules: RuleSet, players: int, cards: int, trump: str | None, fits: bool
) -> None:
    call = None if trump is None else TrumpCall.parse(trump)
    if fits:
        check_trump(rules, players, cards, call)
    else:
        why = "unicoloured game has no trump" if rules.unicoloured else "last round"
        with pytest.raises(InvalidRound, match=why) as info:
            check_trump(rules, players, cards, call)
        assert info.value.code == "no_trump_round"


# -- a round's entry -------------------------------------------------------------------------


def check_entry(
    rules: RuleSet,
    e: RoundEntry,
    *,
    round_number: int,
    cards: int,
    dealer: int,
    totals_before: Any,
) -> None:
    """A round entered whole, checked by the round model (P2)."""
    RoundDraft.of_entry(rules, round_number, cards, dealer, tuple(totals_before), e).check()


CHECK = {"round_number": 3, "cards": 3, "dealer": 3, "totals_before": [0, 0, 0, 0]}


def test_check_entry_accepts_a_good_round() -> None:
    check_entry(RuleSet(), entry([1, 1, 0, 1], [1, 1, 0, 1], "red"), **CHECK)
    check_entry(RuleSet(), entry([1, 1, 0, 1]), **CHECK)  # bids only, being played


@pytest.mark.parametrize(
    ("bad", "message", "code"),
    [
        (
            entry([1, 1, 0, 1], [1, 1, 0, 0]),
            "add up to 2, but 3 tricks were played",
            "tricks_do_not_add_up",
        ),
        (entry([1, 1, 0, 1], [1, 1, 1, 1]), "add up to 4", "tricks_do_not_add_up"),
        (entry([1, 1, 0, 1], [4, 0, 0, 0]), "from 0 to 3", "tricks_out_of_range"),
        (entry([1, 1, 0, 1], [-1, 2, 1, 1]), "from 0 to 3", "tricks_out_of_range"),
        (entry([1, 1, 0, 1], [1, 1, 1]), "one trick count per player", "wrong_count"),
        (entry([1, None, 0, 1], [1, 1, 0, 1]), "Every bid must be in", "bids_missing"),
    ],
)
def test_check_entry_refuses_tricks_that_do_not_fit(
    bad: RoundEntry, message: str, code: str
) -> None:
    with pytest.raises(InvalidRound, match=message) as info:
        check_entry(RuleSet(), bad, **CHECK)
    assert info.value.code == code


def test_check_entry_refuses_forbidden_bids_and_a_bad_trump() -> None:
    with pytest.raises(IllegalBid, match="Allowed: 0, 2, 3"):
        check_entry(
            RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE),
            entry([1, 1, 0, 1], [1, 1, 0, 1]),
            **CHECK,
        )
    with pytest.raises(InvalidRound, match="no trump"):
        check_entry(
            RuleSet(),
            entry([5] * 4, [5, 5, 5, 0], "red"),
            **{**CHECK, "cards": 15, "round_number": 15},
        )


@pytest.mark.parametrize(
    ("rules", "bids", "tricks", "scores"),
    [
        (RuleSet(), [1, 1, 0, 1], [1, 1, 0, 1], (30, 30, 20, 30)),
        (RuleSet(), [0, 2, 0, 3], [1, 1, 0, 1], (-10, -10, 20, -20)),
        (RuleSet(saboteur=True), [0, 2, 0, None], [1, 1, 0, 1], (-10, -10, 20, 20)),  # V6
        (RuleSet(saboteur=True), [1, 1, 1, None], [1, 1, 1, 0], (30, 30, 30, 20)),  # V6
        (
            RuleSet(scoring=Scoring(30, 5, 15)),
            [0, 2, 0, 3],
            [1, 1, 0, 1],
            (-15, -15, 30, -30),
        ),  # V10
        (
            RuleSet(saboteur=True, scoring=Scoring(25, 5, 5)),
            [0, 2, 0, None],
            [1, 1, 0, 1],
            (-5, -5, 25, 25),
        ),  # V6 + V10
    ],
)
def test_r16_v6_v10_round_scores(
    rules: RuleSet, bids: list[int | None], tricks: list[int], scores: tuple[int, ...]
) -> None:
    assert round_scores(rules, 3, entry(bids, tricks)) == scores


def test_round_scores_need_the_tricks_and_every_bid() -> None:
    with pytest.raises(ValueError, match="not recorded"):
        round_scores(RuleSet(), 0, entry([0, 0, 0]))
    with pytest.raises(ValueError, match="Player 1 has no bid"):
        round_scores(RuleSet(), 0, entry([None, 1, 0], [0, 1, 0]))
    with pytest.raises(ValueError, match="Player 1 has no bid"):  # V6: only the dealer
        round_scores(RuleSet(saboteur=True), 2, entry([None, 1, None], [0, 1, 0]))
    with pytest.raises(ValueError, match="no tricks|no bid"):
        score_sheet(RuleSet(), 3, 0, [entry([None, 1, 0], [0, 1, 0])])


# -- the sheet -------------------------------------------------------------------------------


def test_r16_001_example_as_a_sheet() -> None:
    """001's pad: Thomas, Ute, Kevin; round 1 and 2 (R16)."""
    sheet = score_sheet(RuleSet(), 3, 2, [entry([0, 1, 1], [0, 0, 1]), entry([2, 0, 0], [1, 0, 1])])
    assert [r.totals for r in sheet.rounds] == [(20, -10, 30), (10, 10, 20)]
    assert [r.scores for r in sheet.rounds] == [(20, -10, 30), (-10, 20, -10)]
    assert sheet.leaders == [2] and sheet.winners == [] and not sheet.finished
    assert sheet.next_number() == 3
    assert [r.dealer for r in sheet.rounds] == [2, 0]  # R5
    assert [r.cards for r in sheet.rounds] == [1, 2]


def test_r16_000_example_round_3() -> None:
    """000's pad: Henry, Anya, Freya; round 3 from totals 10, 10, 20 (R16)."""
    rounds = [entry([0, 0, 1], [0, 0, 1]), entry([1, 1, 1], [0, 0, 2]), entry([2, 2, 0], [2, 1, 0])]
    # The first two rounds are made up to reach the book's totals after round 2.
    sheet = score_sheet(RuleSet(), 3, 0, rounds)
    assert sheet.rounds[1].totals == (10, 10, 20)
    assert sheet.rounds[2].scores == (40, -10, 20)
    assert sheet.rounds[2].totals == (50, 0, 40)


def test_sheet_open_round_has_no_scores_and_keeps_totals() -> None:
    sheet = score_sheet(RuleSet(), 3, 0, [entry([0, 1, 1], [0, 0, 1]), entry([1, 1, 1])])
    assert sheet.rounds[-1].scores is None and not sheet.rounds[-1].complete
    assert sheet.totals == (20, -10, 30) and sheet.next_number() == 2
    assert sheet.totals_before(2) == (20, -10, 30) and sheet.totals_before(1) == (0, 0, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 3, "first_dealer": 3, "entries": []}, "first dealer"),
        ({"players": 2, "first_dealer": 0, "entries": []}, "3 to 6 players"),
        (
            {"players": 6, "first_dealer": 0, "entries": [entry([0] * 6, [1] + [0] * 5)] * 11},
            "only 10 rounds",
        ),
        (
            {
                "players": 3,
                "first_dealer": 0,
                "entries": [entry([0, 0, 0]), entry([0, 0, 0], [1, 1, 0])],
            },
            "no tricks",
        ),
    ],
)
def test_score_sheet_bad_shapes(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_sheet(RuleSet(), **kwargs)


def short_game(seat0: list[tuple[int, int]], seat1: list[tuple[int, int]]) -> list[RoundEntry]:
    """A finished 6-player short game (10 rounds) from seats 0 and 1's (bid, tricks); the
    others bid 0 and take 0. score_sheet adds up what was recorded without re-checking it."""
    return [
        entry([a[0], b[0], 0, 0, 0, 0], [a[1], b[1], 0, 0, 0, 0])
        for a, b in zip(seat0, seat1, strict=True)
    ]


# Seat 0: ten times bid 1 took 1 → 300, bids 10. Seat 1: eight times bid 1 took 1, once
# bid 5 took 5, once bid 1 took 0 → 240 + 70 − 10 = 300, bids 14. Seats 2–5: 200.
EVEN = short_game([(1, 1)] * 10, [(1, 1)] * 8 + [(5, 5), (1, 0)])


@pytest.mark.parametrize(
    ("tie_break", "winners"),
    [(TieBreak.SHARED, [0, 1]), (TieBreak.BID_TOTAL, [1])],
    ids=["R17 equal totals share the win", "R17 tie broken by the higher sum of bids"],
)
def test_r17_sheet_winners(tie_break: TieBreak, winners: list[int]) -> None:
    sheet = score_sheet(RuleSet(round_plan=Plan.SHORT, tie_break=tie_break), 6, 0, EVEN)
    assert sheet.finished and sheet.next_number() is None
    assert sheet.totals == (300, 300, 200, 200, 200, 200)
    assert sheet.bid_totals == (10, 14, 0, 0, 0, 0)
    assert sheet.winners == winners and sheet.leaders == [0, 1]


def test_r17_tie_break_still_equal_is_shared() -> None:
    same = short_game([(1, 1)] * 10, [(1, 1)] * 10)
    sheet = score_sheet(RuleSet(round_plan=Plan.SHORT, tie_break=TieBreak.BID_TOTAL), 6, 0, same)
    assert sheet.winners == [0, 1]


def test_r17_no_winners_before_the_end() -> None:
    sheet = score_sheet(RuleSet(round_plan=Plan.SHORT), 6, 0, EVEN[:9])
    assert not sheet.finished and sheet.winners == [] and sheet.leaders == [1]


def test_r17_v6_bid_total_tie_break_counts_no_bid_as_zero() -> None:
    """V6: a round without a bid (the saboteur dealer's) counts 0 in the tie-break."""
    rules = RuleSet(saboteur=True, tie_break=TieBreak.BID_TOTAL)
    # Three players, first dealer 0: dealers 0, 1, 2 in rounds 1–3.
    rounds = [
        entry([None, 1, 0], [0, 1, 0]),  # dealer 0: 20, 30, 20
        entry([1, None, 0], [1, 0, 1]),  # dealer 1: 30, 20, -10
        entry([2, 1, None], [2, 1, 0]),  # dealer 2: 40, 30, 20
    ]
    sheet = score_sheet(rules, 3, 0, rounds)
    assert sheet.totals == (90, 80, 30)
    assert sheet.bid_totals == (3, 2, 0)


def test_p2_correction_keeps_later_rounds_as_played() -> None:
    """P2: under V2 a correction of round 1 may mean round 2 would now be refused; the
    sheet still scores round 2 as recorded, and check_entry with the new totals flags it."""
    rules = RuleSet(dealer_rule=DealerRule.CANADIAN)
    # Three players, first dealer 2: round 2 is dealt by seat 0, 2 cards each.
    played = [entry([1, 0, 0], [0, 1, 0]), entry([1, 1, 0], [1, 0, 1])]
    sheet = score_sheet(rules, 3, 2, played)
    # Seat 0 bid 1 took 0 in round 1: not leading before round 2, so bids may total 2.
    assert sheet.totals_before(2) == (-10, -10, 20)
    check_entry(
        rules, played[1], round_number=2, cards=2, dealer=0, totals_before=sheet.totals_before(2)
    )
    # The correction: seat 0 actually took the trick in round 1, seat 1 did not.
    corrected = [entry([1, 0, 0], [1, 0, 0]), played[1]]
    check_entry(rules, corrected[0], round_number=1, cards=1, dealer=2, totals_before=(0, 0, 0))
    sheet = score_sheet(rules, 3, 2, corrected)  # no error: round 2 stays as played
    assert sheet.totals_before(2) == (30, 20, 20)
    assert sheet.rounds[1].entry == played[1] and sheet.rounds[1].scores == (30, -10, -10)
    # Checked now, round 2 would be refused: seat 0 deals it and leads outright.
    with pytest.raises(IllegalBid, match="Canadian rule"):
        check_entry(
            rules,
            played[1],
            round_number=2,
            cards=2,
            dealer=0,
            totals_before=sheet.totals_before(2),
        )


@pytest.mark.parametrize("seed", range(20))
def test_r16_a_tap_in_the_open_round_changes_the_sheet_as_adding_up_would(seed: int) -> None:
    """Sheet.with_open_round (the pad's tap: bids and trump so far) gives the sheet that
    score_sheet gives for the same rounds, whether the round was open or is new."""
    rng = random.Random(seed)
    rules = RuleSet()
    players = rng.randint(3, 6)
    plan = plan_for(rules, players)
    played = rng.randint(0, len(plan) - 1)
    entries = []
    for cards in plan[:played]:
        tricks = [0] * players
        for _ in range(cards):
            tricks[rng.randrange(players)] += 1
        entries.append(
            RoundEntry(tuple(rng.randint(0, cards) for _ in range(players)), tuple(tricks))
        )
    scored = score_sheet(rules, players, 0, entries)
    cards = plan[played]
    first = RoundEntry((rng.randint(0, cards),) + (None,) * (players - 1))
    second = RoundEntry(first.bids[:1] + (rng.randint(0, cards),) + (None,) * (players - 2))
    opened = scored.with_open_round(first)
    assert opened == score_sheet(rules, players, 0, [*entries, first])
    assert opened.with_open_round(second) == score_sheet(rules, players, 0, [*entries, second])
    with pytest.raises(ValueError):
        scored.with_open_round(RoundEntry(first.bids, (cards,) + (0,) * (players - 1)))
