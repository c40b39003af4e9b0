"""The engine's errors and rule sets in words: English as the engine says it, and German."""

import itertools
import random
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper import engine, i18n
from scorekeeper.engine import (
    Bidding,
    Card,
    DealerRule,
    IllegalBid,
    InvalidRound,
    Plan,
    RoundEntry,
    RuleSet,
    Scoring,
    SuitNames,
    TieBreak,
    TrumpCall,
)

PM1 = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)


def refused_bid(rules: RuleSet, bid: object, **kw: object) -> IllegalBid:
    facts: dict[str, object] = {
        "round_number": 3,
        "cards": 3,
        "dealer": 0,
        "seat": 0,
        "bids": {1: 1, 2: 1},
        "totals_before": [0, 0, 0],
        "names": ["Ann", "Ben", "Cat"],
    }
    facts.update(kw)
    with pytest.raises(IllegalBid) as caught:
        engine.check_bid(rules, bid, **facts)  # type: ignore[arg-type]
    return caught.value


STANDARD = RuleSet()


def refused_round(entry: RoundEntry, rules: RuleSet = STANDARD, cards: int = 3) -> InvalidRound:
    with pytest.raises(InvalidRound) as caught:
        engine.RoundDraft.of_entry(rules, 3, cards, 0, (0, 0, 0), entry).check()
    return caught.value


CASES = [
    (
        lambda: refused_bid(PM1, 1),
        "Ann (Geber) darf nicht 1 ansagen: Die Ansagen ergäben zusammen die 3 Stiche "
        "(Plus/minus eins). Erlaubt: 0, 2, 3.",
    ),
    (
        lambda: refused_bid(RuleSet(), 4),
        "Ann (Geber) darf nicht 4 ansagen: In einer Runde mit 3 Karten gehen die Ansagen "
        "von 0 bis 3.",
    ),
    (
        lambda: refused_bid(RuleSet(), "x", seat=1, names=None),
        "Die Ansage von Spieler 2 muss eine ganze Zahl von 0 bis 3 sein.",
    ),
    (
        lambda: refused_bid(RuleSet(no_full_bid=True), 3, seat=2),
        "Cat darf nicht 3 ansagen: Ohne volle Ansage sind höchstens 2 erlaubt.",
    ),
    (
        lambda: refused_bid(RuleSet(saboteur=True), 1),
        "Ann (Geber) sagt nicht an: Beim Zauberer-Saboteur hat der Geber keine Ansage.",
    ),
    (
        lambda: refused_round(RoundEntry((1, 1, 0), (1, 1, 0))),
        "Die Stiche ergeben zusammen 2, aber in dieser Runde wurden 3 Stiche gespielt.",
    ),
    (
        lambda: refused_round(RoundEntry((1, 1, 0), (1, 1, 9))),
        "Die gemachten Stiche müssen ganze Zahlen von 0 bis 3 sein, nicht 9.",
    ),
    (
        lambda: refused_round(RoundEntry((1, 1, 0), (1, 2))),
        "Es muss eine Stichzahl pro Spieler geben (3), nicht 2.",
    ),
    (
        lambda: refused_round(RoundEntry((1, 1, 0), None, TrumpCall.parse("red")), cards=20),
        "In der letzten Runde werden alle Karten verteilt, daher gibt es keinen Trumpf.",
    ),
]


@pytest.mark.parametrize(("make", "german"), CASES)
def test_engine_errors_in_both_languages(app: Flask, make, german: str) -> None:  # type: ignore[no-untyped-def]
    exc = make()
    assert exc.params, "the engine attaches the facts of the message"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.rule_message(exc) == str(exc)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.rule_message(exc) == german


def test_forbidden_bid_params() -> None:
    exc = refused_bid(PM1, 1)
    assert exc.code == "bids_equal_tricks"
    assert exc.params == {
        "seat": 0,
        "name": "Ann",
        "dealer": True,
        "bid": 1,
        "cards": 3,
        "top": 3,
        "allowed": [0, 2, 3],
        "dealer_rule": "plus_minus_one",
    }


def test_plain_value_errors_of_the_rule_set_in_german(app: Flask) -> None:
    with pytest.raises(ValueError) as caught:
        RuleSet.from_dict({"scoring": {"per_miss": -5}})
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.rule_message(caught.value) == (
            "Das Minus pro Stich daneben muss eine ganze Zahl von 0 bis 1000 sein."
        )


def rule_sets() -> list[RuleSet]:
    """A spread of rule sets touching every line `describe()` can write."""
    found = [RuleSet()]
    for plan, dealer_rule, start, saboteur in itertools.product(
        Plan, DealerRule, (1, 3), (False, True)
    ):
        found.append(
            RuleSet(
                round_plan=plan,
                dealer_rule=dealer_rule,
                dealer_rule_from_round=start,
                saboteur=saboteur,
            )
        )
    found += [
        RuleSet(bidding=Bidding.HIDDEN, foresight=True, no_full_bid=True),
        RuleSet(bidding=Bidding.SECRET, tie_break=TieBreak.BID_TOTAL),
        RuleSet(suit_names=SuitNames.FRENCH, scoring=Scoring(30, 5, 15)),
    ]
    return found


@pytest.mark.parametrize("rules", rule_sets(), ids=lambda r: r.to_json()[:80])
def test_rule_lines_in_english_are_the_engines(app: Flask, rules: RuleSet) -> None:
    with app.test_request_context():
        assert i18n.describe_rules(rules) == rules.describe()


def test_rule_lines_in_german(app: Flask) -> None:
    rules = RuleSet(
        dealer_rule=DealerRule.CANADIAN, dealer_rule_from_round=2, saboteur=True, foresight=True
    )
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.describe_rules(rules) == [
            "Kanadische Regel ab Runde 2: Führt der Geber allein, dürfen die Ansagen nicht die "
            "Zahl der Karten der Runde ergeben (daran ist der letzte Ansager gebunden)",
            "Zauberer-Saboteur: Der Geber sagt nicht an und bekommt jede Runde 20",
            "Stirnrunde: In Runde 1 siehst du alle Karten außer deiner eigenen",
        ]
        assert i18n.describe_rules(RuleSet()) == ["Standardregeln"]


def _refusal(action: Callable[[], object]) -> engine.EngineError:
    with pytest.raises(engine.EngineError) as caught:
        action()
    return caught.value


def test_digital_play_errors_in_german(app: Flask) -> None:
    """R10 and whose turn it is, as the engine raises them, in German and with names."""
    game = engine.Game.new(RuleSet(), 3, 0)
    game.deal(random.Random(4))
    wrong_phase = _refusal(lambda: game.play(1, game.hands[1][0]))
    while game.phase is engine.Phase.CHOOSE_TRUMP or game.phase is engine.Phase.BIDDING:
        if game.phase is engine.Phase.CHOOSE_TRUMP:
            game.choose_trump(game.dealer, engine.Suit.RED)
        else:
            game.bid(game.waiting_for()[0], 0)
    bid_in_play = _refusal(lambda: game.bid(game.leader, 0))
    turn = _refusal(lambda: game.play((game.leader + 1) % 3, game.hands[(game.leader + 1) % 3][0]))
    revoke = engine.illegal_play(
        Card.parse("B3"), [Card.parse("B3"), Card.parse("R5")], [Card.parse("R2")]
    )
    assert revoke is not None
    names = ["Ann", "Ben", "Cat"]
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.rule_message(revoke) == "Du musst rot bedienen: Du hast rot auf der Hand."
        leader = game.leader
        assert i18n.rule_message(turn) == f"Spieler {leader + 1} ist mit dem Ausspielen dran."
        assert i18n.rule_message(turn, names) == f"{names[leader]} ist mit dem Ausspielen dran."
        assert i18n.rule_message(wrong_phase) == (
            "Du kannst jetzt keine Karte spielen: es wird angesagt."
        )
        assert i18n.rule_message(bid_in_play) == (
            "Du kannst jetzt nicht ansagen: die Karten werden gespielt."
        )
    with app.test_request_context():
        assert i18n.rule_message(turn, names) == f"It is {names[game.leader]}'s turn to play."
        assert i18n.rule_message(revoke) == str(revoke)


def test_engine_errors_are_worded_by_their_id_not_their_english(app: Flask) -> None:
    """Rewording an engine message in English keeps its German: the words come from the
    message id and the facts, never from the English text."""
    reworded = [
        engine.IllegalPlay("Follow red!", code="must_follow", params={"suit": "red"}),
        engine.OutOfTurn("Ben next.", message_id="turn_to_bid", params={"seat": 1}),
        engine.EngineError("Too many!", message_id="bad_player_count", params={"players": 7}),
        engine.EngineError("Nope.", message_id="not_a_card_text", params={"value": "'X9'"}),
    ]
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert [i18n.rule_message(e) for e in reworded] == [
            "Du musst rot bedienen: Du hast rot auf der Hand.",
            "Spieler 2 ist mit der Ansage dran.",
            "Wizard wird von 3 bis 6 Spielern gespielt, nicht von 7.",
            i18n.rule_message(_refusal(lambda: Card.parse("X9"))),
        ]


@pytest.mark.parametrize(
    ("message", "facts", "english", "german"),
    [
        ("game_set_up", {}, "Game set up", "Spiel angelegt"),
        ("round_recorded", {"number": 3}, "Round 3 recorded", "Runde 3 eingetragen"),
        (
            "bid_entered",
            {"number": 3, "name": "Ann"},
            "Round 3: Ann bid entered",
            "Runde 3: Ansage von Ann eingetragen",
        ),
        (
            "trump_set",
            {"number": 3, "trump": "wizard:red"},
            "Round 3: trump Wizard: dealer chose red",
            "Runde 3: Trumpf Zauberer: Geber wählte rot",
        ),
        (
            "round_corrected",
            {
                "number": 2,
                "parts": [
                    {"part": "bid", "name": "Ann", "old": "1", "new": "2"},
                    {"part": "trump", "old": "–", "new": "green"},
                ],
            },
            "Round 2 corrected: Ann's bid 1 → 2; trump – → green",
            "Runde 2 korrigiert: Ansage von Ann 1 → 2; Trumpf – → grün",
        ),
        (
            "adjusted",
            {"name": "Ben", "points": -10, "number": 4, "reason": "misdeal"},
            "Ben: −10 in round 4 (misdeal)",
            "Ben: −10 in Runde 4 (misdeal)",
        ),
        ("game_restored", {}, "Game brought back", "Spiel zurückgeholt"),
    ],
)
def test_change_log_lines_are_worded_from_their_id_and_facts(
    app: Flask, message: str, facts: dict[str, object], english: str, german: str
) -> None:
    assert message in i18n.LOG_MESSAGES
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.log_line(message, facts, "stored words") == german
    with app.test_request_context():
        assert i18n.log_line(message, facts, "stored words") == english
        assert i18n.log_line_in_english(message, facts) == english


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        (None, None),  # a line of a file written before lines had ids
        ("no_such_message", {}),
        ("bid_entered", {"number": 3}),  # facts that don't fit (an imported file)
        ("round_corrected", {"number": 2, "parts": [{"part": "bid"}]}),
        ("adjusted", {"name": "Ben", "points": "many", "number": 4}),
        ("round_recorded", ["not", "an", "object"]),
        ("adjusted", {"name": "Ben", "points": float("inf"), "number": 4}),
    ],
)
def test_a_line_without_an_id_or_with_facts_that_do_not_fit_shows_its_stored_words(
    app: Flask, message: str | None, facts: object
) -> None:
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.log_line(message, facts, "Something the log wrote long ago") == (
            "Something the log wrote long ago"
        )


def _draft_refusal(command: Callable[[engine.RoundDraft], object]) -> engine.RuleError:
    draft = engine.RoundDraft.empty(STANDARD, 3, 3, 0, (0, 0, 0))
    for seat in draft.bidders:
        draft = draft.bid(seat, 1)
    with pytest.raises(engine.RuleError) as caught:
        command(draft)
    return caught.value


@pytest.mark.parametrize(
    ("command", "english", "german"),
    [
        (
            lambda d: d.bid(2, None).bid(0, 1),
            "Cat bids first.",
            "Cat sagt zuerst an.",
        ),
        (
            lambda d: d.record_tricks(1, 3)[0].record_tricks(2, 1),
            "Cat can't have taken 1: only 0 of the 3 tricks are left.",
            "Cat kann nicht 1 Stiche gemacht haben: Von den 3 Stichen sind nur noch 0 übrig.",
        ),
        (
            lambda d: d.confirm(),
            "Enter every player's tricks first.",
            "Trage zuerst die Stiche aller Spieler ein.",
        ),
    ],
)
def test_a_round_being_entered_is_refused_by_message_id_naming_the_players(
    app: Flask, command: Callable[[engine.RoundDraft], object], english: str, german: str
) -> None:
    """The draft's errors carry their id and facts (a seat number, not a name): the words
    and the names are chosen when shown."""
    exc = _draft_refusal(command)
    assert "Cat" not in str(exc)
    names = ["Ann", "Ben", "Cat"]
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.rule_message(exc, names) == english
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.rule_message(exc, names) == german
