"""The worked examples of R16, and a whole short game, replayed through the pages."""

from flask import Flask

from scorekeeper import engine
from scorekeeper.services import games as game_service
from tests.web.support import Pages, pad_bids, pad_totals, section, text_of


def test_r16_001_thomas_ute_kevin(pages: Pages, app: Flask) -> None:
    # Kevin deals round 1, so Thomas bids first; Thomas deals round 2.
    pid = pages.new_game(["Thomas", "Ute", "Kevin"], dealer=2)
    body = pages.play_round(pid, {0: 0, 1: 1, 2: 1}, {0: 0, 1: 0}).get_data(as_text=True)
    assert pad_totals(body, 1) == [20, -10, 30]
    assert pad_bids(body, 1) == ["0", "1", "1"]
    body = pages.play_round(pid, {1: 0, 2: 0, 0: 2}, {1: 0, 2: 1}).get_data(as_text=True)
    assert pad_totals(body, 2) == [10, 10, 20]
    last = text_of(section(body, "entry")).split("Round 2", 1)[1]
    assert "Thomas −10 10 Ute +20 10 Kevin −10 20" in last
    with app.app_context():
        view = game_service.sheet_of(game_service.get_game(pid))
        assert [r.scores for r in view.rounds] == [(20, -10, 30), (-10, 20, -10)]


def test_r16_003_scores(pages: Pages) -> None:
    # 003: bid 3 took 3 → 50; bid 0 took 0 → 20; bid 3 took 1 → −20; bid 2 took 5 → −30.
    pid = pages.new_game(["A", "B", "C", "D"], dealer=3, round_plan="short")  # 1, 3, 5, 7, 9…
    for first in range(4):  # rounds 1-4: everyone bids 0, the dealer takes every trick
        order = [(first + i) % 4 for i in range(4)]
        pages.play_round(pid, dict.fromkeys(order, 0), dict.fromkeys(order[:3], 0))
    # Round 5: 9 cards, D deals, A bids first.
    body = pages.play_round(pid, {0: 3, 1: 0, 2: 3, 3: 2}, {0: 3, 1: 0, 2: 1}).get_data(
        as_text=True
    )
    last = text_of(section(body, "entry")).split("Round 5", 1)[1]
    assert "A +50" in last and "B +20" in last and "C −20" in last and "D −30" in last


def test_a_whole_short_game_with_plus_minus_one(pages: Pages, app: Flask) -> None:
    """Ten rounds tapped in, checked against the engine's own scoring, to the winner."""
    names = ["Ann", "Ben", "Cat"]
    pid = pages.new_game(names, dealer=0, dealer_rule="plus_minus_one", round_plan="short")
    plan = engine.round_plan(3, short=True)
    totals = [0, 0, 0]
    for number, cards in enumerate(plan, start=1):
        dealer = (number - 1) % 3
        order = engine.bidding_order(dealer, 3)
        bids = {order[0]: cards // 2, order[1]: 0}
        # The dealer may not make the bids add up to the cards: bid one more than that.
        bids[order[2]] = cards - sum(bids.values()) + 1 if number % 2 else 0
        if sum(bids.values()) == cards:
            bids[order[2]] += 1
        tricks = {order[0]: cards // 2, order[1]: 1}
        body = pages.play_round(pid, bids, tricks).get_data(as_text=True)
        took = [tricks.get(s, cards - sum(tricks.values())) for s in range(3)]
        for seat in range(3):
            totals[seat] += engine.score_round(bids[seat], took[seat])
        assert pad_totals(body, number) == totals
    panel = text_of(section(body, "entry"))
    assert "Final standings" in panel
    best = max(totals)
    winners = [n for n, t in zip(names, totals, strict=True) if t == best]
    assert (f"{winners[0]} wins" if len(winners) == 1 else "share the win") in panel
    with app.app_context():
        game = game_service.get_game(pid)
        assert game.finished_at is not None
        assert list(game_service.sheet_of(game).totals) == totals
