"""Statistics against values computed by hand from the fixture history (support.py)."""

import pytest

from scorekeeper import engine
from scorekeeper.engine import RoundEntry, RuleSet
from scorekeeper.services import circles as circle_service
from scorekeeper.services import stats
from tests.history.support import Fixture

pytestmark = pytest.mark.usefixtures("ctx")

# Short game cards 2, 4, …, 20 sum to 110.
ANN_G1 = 10 * 20 + 10 * 110  # exact every round: 1300
ANN_G2 = sum(20 + 10 * c for c in (2, 4, 6, 8, 10)) - 10 * (12 + 14 + 16 + 18 + 20)  # -400
ANN_G3 = 30 - 10  # 20, ongoing


def test_player_stats_by_hand(fx: Fixture) -> None:
    s = stats.player_stats(fx.ann, fx.circle_id)
    assert (ANN_G1, ANN_G2) == (1300, -400)
    assert s.games == 3
    assert s.finished == 2
    assert s.wins == 1
    assert s.win_rate == 0.5
    assert s.avg_final == (1300 - 400) / 2
    assert s.rounds == 22
    assert s.points == ANN_G1 + ANN_G2 + ANN_G3
    assert s.avg_round_score == pytest.approx(920 / 22)
    assert (s.bid_rounds, s.exact) == (22, 16)
    assert s.exact_rate == pytest.approx(16 / 22)
    assert (s.overs, s.unders) == (1, 5)
    assert s.tendency == "takes fewer tricks than bid"
    assert s.best_streak == 10
    assert s.best_game is not None and s.best_game.total == 1300
    assert s.best_game.public_id == fx.g1
    assert s.worst_game is not None and s.worst_game.total == -400
    assert s.worst_game.public_id == fx.g2
    by_cards = {c.cards: (c.rounds, c.exact) for c in s.by_cards}
    assert by_cards == {
        1: (1, 1),
        2: (3, 2),
        **{c: (2, 2) for c in (4, 6, 8, 10)},
        **{c: (2, 1) for c in (12, 14, 16, 18, 20)},
    }
    h2h = {h.name: (h.games, h.ahead, h.behind, h.level) for h in s.head_to_head}
    assert h2h == {"Ben": (2, 1, 1, 0), "Cat": (1, 1, 0, 0), "Dan": (1, 0, 1, 0)}


def test_other_players_by_hand(fx: Fixture) -> None:
    ben = stats.player_stats(fx.ben, fx.circle_id)
    assert (ben.games, ben.finished, ben.wins) == (3, 2, 1)
    assert ben.avg_final == (200 + 850) / 2
    assert (ben.exact, ben.unders, ben.overs, ben.best_streak) == (10 + 5 + 2, 5, 0, 10)
    cat = stats.player_stats(fx.cat, fx.circle_id)
    assert (cat.wins, cat.win_rate, cat.exact, cat.unders) == (0, 0.0, 0 + 2, 10)
    assert cat.best_game is not None and cat.best_game.total == -100
    dan = stats.player_stats(fx.dan, fx.circle_id)
    assert dan.best_streak == 10
    assert dan.tendency == "takes fewer tricks than bid"  # 0 over, 2 under in g3


def test_player_lines(fx: Fixture) -> None:
    lines = {p.name: (p.games, p.wins) for p in stats.player_lines(fx.circle_id)}
    assert lines == {"Ann": (3, 1), "Ben": (3, 1), "Cat": (2, 0), "Dan": (2, 0)}


def test_records_by_hand(fx: Fixture) -> None:
    r = stats.records(fx.circle_id)
    assert [(x.name, x.value) for x in r.highest_final] == [
        ("Ann", 1300),
        ("Ben", 850),
        ("Dan", 200),  # level with Ben's 200 in g1: the later game first
    ]
    assert [(x.name, x.value, x.public_id) for x in r.most_exact] == [
        ("Dan", 10, fx.g2),  # of equal values, the later game first
        ("Ann", 10, fx.g1),
        ("Ben", 10, fx.g1),
    ]
    # Ben trailed Ann by 400 - (-50) = 450 after round 5 of g2 and won.
    assert [(x.name, x.value, x.public_id) for x in r.biggest_comeback] == [("Ben", 450, fx.g2)]


def test_unknown_player(fx: Fixture) -> None:
    with pytest.raises(stats.NotFound):
        stats.player_stats(999, fx.circle_id)
    # A player of the circle is unknown to every other circle.
    other = circle_service.create_circle("Elsewhere")
    with pytest.raises(stats.NotFound):
        stats.player_stats(fx.ann, other.id)


def test_summary_of_a_saboteur_dealer_round() -> None:
    # V6: the dealer has no bid: a round, not a bid, and it doesn't break a streak.
    rules = RuleSet(saboteur=True)
    entries = [
        RoundEntry((1, 0, None), (1, 0, 0)),  # dealer seat 2 (first dealer 2)
        RoundEntry((None, 0, 1), (0, 1, 1)),  # dealer seat 0; seat 1 missed, seat 2 exact
    ]
    sheet = engine.score_sheet(rules, 3, 2, entries)
    s0, s1, s2 = stats.seat_summaries(sheet)
    assert (s0.rounds, s0.bid_rounds, s0.exact, s0.best_streak) == (2, 1, 1, 1)
    assert (s1.exact, s1.overs, s1.best_streak) == (1, 1, 1)
    assert (s2.rounds, s2.bid_rounds, s2.exact) == (2, 1, 1)
    assert s0.won is None  # not finished


def _cards_from_rounds() -> dict[tuple[int, int], tuple[int, int]]:
    """Rounds and exact bids by player and cards, straight from every stored round."""
    from sqlalchemy import case, func, select

    from scorekeeper.extensions import db
    from scorekeeper.models import Round, RoundResult

    rows = db.session.execute(
        select(
            RoundResult.player_id,
            Round.cards,
            func.count(),
            func.sum(case((RoundResult.bid == RoundResult.tricks, 1), else_=0)),
        )
        .join(Round, Round.id == RoundResult.round_id)
        .where(RoundResult.bid.is_not(None), Round.complete.is_(True))
        .group_by(RoundResult.player_id, Round.cards)
    )
    return {(p, c): (int(n), int(e)) for p, c, n, e in rows}


def _kept_cards() -> dict[tuple[int, int], tuple[int, int]]:
    from sqlalchemy import select

    from scorekeeper.extensions import db
    from scorekeeper.models import PlayerCards

    return {
        (pc.player_id, pc.cards): (pc.rounds, pc.exact)
        for pc in db.session.scalars(select(PlayerCards))
        if pc.rounds
    }


@pytest.mark.parametrize("seed", range(3))
def test_kept_summaries_match_the_rounds(seed: int) -> None:
    """Seat summaries and by-cards counts follow every change: rounds, corrections,
    deleted rounds, merges."""
    import random

    from sqlalchemy import select

    from scorekeeper.extensions import db
    from scorekeeper.models import Game
    from scorekeeper.services import games as game_service
    from scorekeeper.services import roster
    from tests.history.support import player_id, random_history, the_circle

    rng = random.Random(seed)
    circle_id = the_circle().id
    random_history(rng, 8, circle_id)
    for game in db.session.scalars(select(Game)).all():
        complete = [r for r in game.rounds if r.complete]
        if complete and rng.random() < 0.5 and game.rounds[-1].complete:
            game_service.delete_last_round(game, game.rounds[-1].number)
        elif game.finished_at is not None and rng.random() < 0.5:
            # Correct a finished game's first round: the final totals change.
            first = game.rounds[0]
            tricks = [r.tricks or 0 for r in first.results]
            if first.cards:
                src = next(s for s, t in enumerate(tricks) if t)
                tricks[src] -= 1
                tricks[(src + 1) % len(tricks)] += 1
                game_service.update_round(game, 1, tricks=tricks)
    game_service.create_game(["Zoe", "Yan", "Xi"], 0, RuleSet(), circle_id=circle_id)
    g, _ = game_service.create_game(["Zoë", "Wu", "Vi"], 0, RuleSet(), circle_id=circle_id)
    game_service.record_round(g, [1, 0, 0], [1, 0, 0])
    # A one-off game's players count for that game alone.
    g, _ = game_service.create_game(["Zoe", "Wu", "Xi"], 0, RuleSet())
    game_service.record_round(g, [0, 1, 0], [0, 1, 0])
    roster.merge_players(circle_id, player_id("Zoe"), player_id("Zoë"))
    assert _kept_cards() == _cards_from_rounds()
    assert _kept_rivalries() == _rivalries_from_seats()
    for game in db.session.scalars(select(Game)):
        expected = stats.seat_summaries(game_service.sheet_of(game))
        for seat, summary in zip(game.seats, expected, strict=True):
            assert seat.total == summary.total
            assert seat.won == summary.won
            assert (seat.rounds, seat.exact, seat.overs, seat.unders) == (
                summary.rounds,
                summary.exact,
                summary.overs,
                summary.unders,
            )
            assert (seat.by_cards or []) == [list(x) for x in summary.by_cards]


def _rivalries_from_seats() -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """Head-to-head records computed from the seats of every finished game."""
    from sqlalchemy import and_, case, func, select
    from sqlalchemy.orm import aliased

    from scorekeeper.extensions import db
    from scorekeeper.models import Seat

    me, other = aliased(Seat), aliased(Seat)

    def count(cond: object) -> object:
        return func.sum(case((cond, 1), else_=0))  # type: ignore[arg-type]

    rows = db.session.execute(
        select(
            me.player_id,
            other.player_id,
            func.count(),
            count(me.total > other.total),
            count(me.total < other.total),
            count(me.total == other.total),
        )  # type: ignore[call-overload]
        .join(other, and_(other.game_id == me.game_id, other.seat != me.seat))
        .where(me.won.is_not(None))
        .group_by(me.player_id, other.player_id)
    )
    return {(p, o): (g, a, b, lv) for p, o, g, a, b, lv in rows}


def _kept_rivalries() -> dict[tuple[int, int], tuple[int, int, int, int]]:
    from sqlalchemy import select

    from scorekeeper.extensions import db
    from scorekeeper.models import Rivalry

    return {
        (r.player_id, r.other_id): (r.games, r.ahead, r.behind, r.level)
        for r in db.session.scalars(select(Rivalry))
        if r.games
    }
