"""The round model's stack of moves (engine.RoundDraft): undo the last, take back one
player's entry, put it back, reopen a scored round; each refusal an engine error."""

import random
from dataclasses import replace

import pytest

from scorekeeper.engine import (
    Bidding,
    DealerRule,
    Game,
    IllegalBid,
    InvalidRound,
    Move,
    Phase,
    RoundDraft,
    RoundEntry,
    RuleError,
    RuleSet,
    Suit,
    Taken,
    TrumpCall,
    moves_text,
    parse_moves,
)
from scorekeeper.models import DRAFT_MOVES_MAX

PM1 = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)


def draft(rules: RuleSet = PM1, cards: int = 3, dealer: int = 0) -> RoundDraft:
    """Four players, the dealer seat 0: seats bid 1, 2, 3, then 0."""
    return RoundDraft.empty(rules, 3, cards, dealer, (0, 0, 0, 0))


def bid_all(d: RoundDraft, bids: list[int]) -> RoundDraft:
    for seat, bid in zip(d.bidders, bids, strict=False):
        d = d.bid(seat, bid)
    return d


def refused(call, code: str):  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        call()
    assert caught.value.code == code
    return caught.value


def test_every_command_pushes_its_move() -> None:
    d = bid_all(draft(), [1, 0, 0, 1]).with_trump(TrumpCall.parse("red"))
    d, _ = d.record_tricks(2, 1)
    d, filled = d.record_tricks(1, 2)  # every trick taken: the others took none
    assert filled == [0, 3]
    assert [m.kind for m in d.moves] == ["bid"] * 4 + ["trump", "tricks", "tricks"]
    assert d.moves[-1] == Move("tricks", 1, (0, 3))
    # A count taken back takes its move off the stack (here the tap that filled it in).
    assert d.clear_tricks(0).moves == d.moves[:-1]


def test_undo_step_names_the_last_bid_then_the_count_tapped_last() -> None:
    d = draft()
    assert d.undo_step is None
    d = bid_all(d, [1, 0])
    assert d.undo_step == ("bid", 2)
    d = bid_all(d, [1, 0, 0, 1])
    d, _ = d.record_tricks(3, 1)
    d, _ = d.record_tricks(1, 1)
    assert d.undo_step == ("tricks", 1)  # counts go in in any order: the one tapped
    # Read back from storage without its moves: the last count in bidding order.
    assert replace(d, moves=()).undo_step == ("tricks", 3)


def test_undo_takes_back_the_last_bid_alone_and_refuses_when_nothing_is_in() -> None:
    d = bid_all(draft(), [1, 0, 2])
    after, taken = d.undo()
    assert after.bids == (None, 1, 0, None) and taken == Taken("bid", {3: 2})
    exc = refused(lambda: draft().undo(), "nothing_to_take_back")
    assert str(exc) == "There is nothing to take back."


def test_take_back_one_players_entry() -> None:
    d = bid_all(draft(), [1, 0, 0, 1])
    after, taken = d.take_back("bid", 2)
    assert after.bids == (1, 1, None, 0) and taken.values == {2: 0}
    d, _ = d.record_tricks(1, 2)
    d, _ = d.record_tricks(2, 0)
    after, taken = d.take_back("tricks", 1)
    assert after.tricks == (None, None, 0, None) and taken == Taken("tricks", {1: 2})
    # Nothing there: nothing taken, nothing changed.
    assert d.take_back("tricks", 3) == (d, Taken("tricks", {}))


def test_take_back_refusals() -> None:
    d, _ = bid_all(draft(), [1, 0, 0, 1]).record_tricks(1, 1)
    refused(lambda: d.take_back("bid", 2), "tricks_started")
    refused(lambda: d.take_back("score", 2), "bad_clear")
    refused(lambda: d.take_back("tricks", 7), "bad_seat")


def test_put_back_undoes_a_take_back() -> None:
    d = bid_all(draft(), [1, 0, 0, 1])
    after, taken = d.take_back("bid", 2)
    assert after.put_back(taken) == d
    d, _ = d.record_tricks(1, 2)
    after, taken = d.take_back("tricks", 1)
    back = after.put_back(taken)
    assert back == d and back.moves[-1] == Move("tricks", 1)


def test_put_back_refuses_a_place_filled_since_or_nothing() -> None:
    d = bid_all(draft(), [1, 0, 0, 1])
    after, taken = d.take_back("bid", 2)
    refilled = after.bid(2, 2)
    exc = refused(lambda: refilled.put_back(taken), "nothing_to_put_back")
    assert str(exc) == "There is nothing to put back."
    refused(lambda: after.put_back(Taken("bid", {})), "nothing_to_put_back")
    refused(lambda: after.put_back(Taken("score", {2: 0})), "nothing_to_put_back")
    refused(lambda: after.put_back(Taken("bid", {9: 0})), "nothing_to_put_back")


def test_v1_a_bid_put_back_is_checked_again() -> None:
    """V1: a bid put back must still keep the bids off the cards."""
    after, _ = bid_all(draft(), [1, 0, 0, 1]).take_back("bid", 2)
    with pytest.raises(IllegalBid) as caught:
        after.put_back(Taken("bid", {2: 1}))  # 1 + 1 + 1 + 0 = the 3 cards
    assert caught.value.code == "bids_equal_tricks"


def test_r16_counts_put_back_must_still_fit_the_cards() -> None:
    d, _ = bid_all(draft(), [1, 0, 0, 1]).record_tricks(1, 2)
    after, taken = d.take_back("tricks", 1)
    after, _ = after.record_tricks(2, 2)
    with pytest.raises(InvalidRound) as caught:
        after.put_back(taken)  # 2 + 2 of 3 tricks
    assert caught.value.code == "tricks_do_not_add_up"


def scored(moves: tuple[Move, ...]) -> RoundDraft:
    entry = RoundEntry((0, 1, 0, 1), (1, 1, 0, 1), TrumpCall.parse("red"))
    return RoundDraft.of_entry(PM1, 3, 3, 0, (0, 0, 0, 0), entry, moves)


def test_reopen_takes_back_the_tap_that_scored_the_round() -> None:
    d = scored((Move("tricks", 1, (2,)),))
    assert d.reopen_seats == [1, 2]
    reopened = d.reopen()
    assert reopened.tricks == (1, None, None, 1) and not reopened.scored
    assert reopened.bids == d.bids and reopened.moves == ()
    # "The rest made their bids" filled every count it took back.
    assert scored((Move("tricks", None, (0, 3)),)).reopen().tricks == (None, 1, 0, None)


def test_reopen_refused_when_the_moves_do_not_say_the_tap() -> None:
    for moves in [(), (Move("trump"),), (Move("clear", 1),)]:
        d = scored(moves)
        assert d.reopen_seats is None
        exc = refused(d.reopen, "cannot_reopen")
        assert "correct it on the pad" in str(exc)


def test_p2_confirm_checks_the_round_whole_with_the_totals_as_they_stand() -> None:
    """P2 and V2: bids made when the dealer did not lead are checked again at scoring."""
    rules = RuleSet(dealer_rule=DealerRule.CANADIAN)
    d = bid_all(RoundDraft.empty(rules, 2, 2, 0, (0, 0, 0)), [1, 1, 0])
    d, _ = d.record_tricks(1, 1)
    d, _ = d.record_tricks(2, 1)
    assert d.confirm().tricks == (0, 1, 1)
    # A correction before this round put the dealer in the lead: the bids make 2.
    with pytest.raises(IllegalBid):
        replace(d, totals_before=(30, 20, 20)).confirm()


def test_r8_confirm_records_no_trump_in_a_round_that_deals_every_card() -> None:
    d = bid_all(RoundDraft.empty(RuleSet(), 15, 15, 0, (0, 0, 0, 0)), [5, 5, 5, 1])
    d, _ = d.record_tricks(1, 15)  # every trick taken: the others took none
    assert d.confirm().trump == TrumpCall(None)
    with pytest.raises(InvalidRound) as caught:
        d.with_trump(TrumpCall.parse("red"))
    assert caught.value.code == "no_trump_round"


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_v3_v4_seats_bidding_for_themselves_bid_in_any_order_the_last_one_last(
    bidding: Bidding,
) -> None:
    """V3, V4 with V1: each seat bids for itself (digital play), in any order, but the
    last bidder only once the others have (a bid making the total must be changed)."""
    rules = RuleSet(bidding=bidding, dealer_rule=DealerRule.PLUS_MINUS_ONE)
    d = replace(draft(rules), seats_bid=True)
    assert d.waiting == [1, 2, 3]
    d = d.bid(3, 1)
    assert d.waiting == [1, 2]
    exc = refused(lambda: d.bid(0, 1), "not_your_turn")
    assert exc.message_id == "turn_to_bid" and exc.params == {"seat": 1}
    assert refused(lambda: d.bid(3, 0), "not_your_turn").message_id == "already_bid"
    d = d.bid(2, 1).bid(1, 0)
    assert d.waiting == [0]
    # The dealer's keys leave the rule out (nothing gives the total away) …
    assert all(o.allowed for o in d.bid_options(0))
    # … and the bid that makes the total is refused once made.
    with pytest.raises(IllegalBid):
        d.bid(0, 1)
    assert d.bid(0, 0).bids_in


def test_v6_a_saboteur_dealer_bidding_for_itself_is_refused() -> None:
    d = replace(draft(RuleSet(saboteur=True)), seats_bid=True)
    exc = refused(lambda: d.bid(0, 1), "not_your_turn")
    assert exc.message_id == "saboteur_no_bid"


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE),
        RuleSet(dealer_rule=DealerRule.CANADIAN, bidding=Bidding.HIDDEN),
        RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=Bidding.SECRET, saboteur=True),
        RuleSet(bidding=Bidding.SECRET, no_full_bid=True),
    ],
    ids=["r9", "v1", "v2-v3", "v1-v4-v6", "v4-v7"],
)
def test_a_digital_game_bids_through_the_round_model(rules: RuleSet) -> None:
    """Over random games (R6, R9; V1–V4, V6, V7), who may bid, the bids allowed and
    every refusal are the round model's, the game's shortcut without a dealer rule
    included."""
    rng = random.Random(7)
    for _ in range(4):
        game = Game.new(rules, rng.randint(3, 5), rng.randrange(3))
        game.deal(rng)
        while not game.finished:
            if game.phase is Phase.DEAL:
                game.deal(rng)
            elif game.phase is Phase.CHOOSE_TRUMP:
                game.choose_trump(game.dealer, rng.choice(list(Suit)))
            elif game.phase is Phase.BIDDING:
                model = game.round_draft()
                assert game.waiting_for() == model.waiting
                for seat in range(game.players):
                    assert game.allowed_bids(seat) == model.allowed(seat)
                seat = rng.choice(game.waiting_for())
                bid = rng.randint(0, game.cards)
                try:
                    expected: object = model.bid(seat, bid).bids
                except RuleError as exc:
                    expected = (type(exc), exc.code, str(exc))
                try:
                    game.bid(seat, bid)
                    got: object = tuple(game.bids)
                except RuleError as exc:
                    got = (type(exc), exc.code, str(exc))
                assert got == expected
            else:
                seat = game.turn
                assert seat is not None
                game.play(seat, rng.choice(game.legal_cards(seat)))


# -- the stack kept with the round: move by move, read back from its text form ------------


def six(cards: int = 5) -> RoundDraft:
    """Six players, seat 0 deals: the seats bid (and are asked for counts) 1, 2, 3, 4, 5, 0."""
    return RoundDraft.empty(PM1, 5, cards, 0, (0,) * 6)


def test_undo_steps_back_move_by_move_not_in_bidding_order() -> None:
    """R6: the bids go in in order, but a bid taken back and made again is the last move:
    Undo takes it first, then the ones before it, as they were made."""
    d = bid_all(six(), [1, 0, 2])  # seats 1, 2, 3
    d, _ = d.take_back("bid", 2)
    d = d.bid(2, 1)  # made again, after seat 3's
    steps = []
    while d.undo_step is not None:
        steps.append(d.undo_step)
        d, _ = d.undo()
    assert steps == [("bid", 2), ("bid", 3), ("bid", 1)]
    assert d.bids == (None,) * 6 and d.moves == ()


def test_undo_takes_back_the_counts_in_the_order_they_were_tapped() -> None:
    d = bid_all(six(), [1, 0, 2, 0, 0, 1])
    for seat, count in ((4, 0), (1, 1), (3, 2)):
        d, filled = d.record_tricks(seat, count)
        assert filled == []
    steps = []
    for _ in range(3):
        steps.append(d.undo_step)
        d, _ = d.undo()
    assert steps == [("tricks", 3), ("tricks", 1), ("tricks", 4)]
    # With the counts gone, Undo is back at the bids: the last one made.
    assert d.undo_step == ("bid", 0)


def test_put_back_puts_the_move_back_on_top() -> None:
    d, _ = bid_all(six(), [1, 0, 2, 0, 0, 1]).record_tricks(4, 0)
    d, _ = d.record_tricks(1, 1)
    after, taken = d.undo()
    back = after.put_back(taken)
    assert back.moves == d.moves and back.undo_step == ("tricks", 1)


def reread(d: RoundDraft) -> RoundDraft:
    """``d`` as a later request reads it: its values from storage, its moves from their
    text form."""
    stored = RoundDraft(
        d.rules, d.number, d.cards, d.dealer, d.totals_before, d.bids, d.tricks, d.trump
    )
    return stored.with_moves(parse_moves(moves_text(d.moves)))


@pytest.mark.parametrize("seed", range(12))
def test_a_draft_read_back_steps_back_exactly_as_in_memory(seed: int) -> None:
    """Random taps of a scorer who changes their mind (bids made, taken back and made
    again, counts in any order and taken back, the trump, Undo, put back): after every
    tap the draft read back from storage holds the same stack and Undo names the same
    step, and the stack stays short enough to keep with the game."""
    rng = random.Random(seed)
    players = rng.randint(3, 6)
    dealer = rng.randrange(players)
    d = RoundDraft.empty(RuleSet(), 4, 4, dealer, (0,) * players)
    taken: list[Taken] = []
    for _ in range(60):
        choice = rng.randrange(6)
        try:
            if choice == 0 and d.waiting:
                d = d.bid(d.waiting[0], rng.randint(0, d.cards))
            elif choice == 1:
                d = d.take_back(rng.choice(["bid", "tricks"]), rng.randrange(players))[0]
            elif choice == 2 and d.bids_in:
                d = d.record_tricks(rng.randrange(players), rng.randint(0, 2))[0]
            elif choice == 3 and d.undo_step is not None:
                d, was = d.undo()
                taken.append(was)
            elif choice == 4 and taken:
                d = d.put_back(taken.pop())
            elif choice == 5:
                d = d.with_trump(rng.choice([None, TrumpCall.parse("green")]))
        except RuleError:
            continue
        if d.tricks_in:  # scored: the next round starts afresh
            assert reread(d).reopen_seats == d.reopen_seats
            d = RoundDraft.empty(RuleSet(), 4, 4, dealer, (0,) * players)
        again = reread(d)
        assert again.moves == d.moves
        assert again.undo_step == d.undo_step
        assert len(f"20:{moves_text(d.moves)}") <= DRAFT_MOVES_MAX


def test_a_draft_stored_without_moves_steps_back_in_bidding_order() -> None:
    """A draft kept before its moves were: Undo takes the last count in bidding order,
    then the last bid, and a stack kept later is followed first."""
    d, _ = bid_all(six(), [1, 0, 2, 0, 0, 1]).record_tricks(4, 0)
    d, _ = d.record_tricks(1, 1)
    old = d.with_moves(())
    assert old.undo_step == ("tricks", 4)
    d, _ = old.record_tricks(2, 0)
    steps = []
    for _ in range(3):
        steps.append(d.undo_step)
        d, _ = d.undo()
    assert steps == [("tricks", 2), ("tricks", 4), ("tricks", 1)]
    assert d.undo_step == ("bid", 0)


def test_moves_read_back_keep_only_what_still_stands() -> None:
    """A stack kept before a change made elsewhere (a bid cleared, a seat not at the
    table) loses the moves that no longer stand."""
    d = bid_all(six(), [1, 0, 2])
    cleared = RoundDraft(PM1, 5, 5, 0, (0,) * 6, (None, 1, 0, None, None, None), (None,) * 6)
    kept = cleared.with_moves((*d.moves, Move("bid", 9), Move("tricks", 4)))
    assert kept.moves == (Move("bid", 1), Move("bid", 2))


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("", ()),
        ("b1 b2 T", (Move("bid", 1), Move("bid", 2), Move("trump"))),
        (
            "t3 t1+0+2 t+4+5",
            (Move("tricks", 3), Move("tricks", 1, (0, 2)), Move("tricks", None, (4, 5))),
        ),
        ("c2", (Move("clear", 2),)),
    ],
)
def test_moves_text_round_trips(text: str, moves: tuple[Move, ...]) -> None:
    assert parse_moves(text) == moves
    assert moves_text(moves) == text


@pytest.mark.parametrize("text", ["x1", "b", "t", "T1", "b1+2", "c", "b12", "b-1", "t1+", "b1,b2"])
def test_moves_text_that_is_not_a_stack_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a move"):
        parse_moves(text)
