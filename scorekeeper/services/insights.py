"""A player's insights: a few short sentences that say what their statistics show.

Each sentence rests on numbers the statistics keep and shows them: exact bids by the
cards in hand (``PlayerCards``), missed bids too high or too low (the seats' summaries),
the points a round by the seat relative to the dealer (``PlayerPosition``), and
winning streaks (kept with the rating history, game by game). A sentence needs enough
rounds or games behind it; before that it is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from scorekeeper.i18n import _, _n, decimal1, percent
from scorekeeper.services import charts, ratings, stats
from scorekeeper.services.ratings import Shown, Step
from scorekeeper.services.stats import PlayerStats

# Hands by size: (fewest cards, most cards) of each.
BANDS = ((1, 4), (5, 10), (11, 20))
MIN_BAND_ROUNDS = 5  # rounds with a bid before a hand size is compared
MIN_MISSES = 5  # missed bids before a tendency is named
LEANING = 0.6  # the share of misses one way that makes a tendency
MIN_SEAT_ROUNDS = 10  # rounds in a seat before it is compared
# Where every rating starts: the chart's first point, before the first game.
BASE_POINT = ratings.Shown(ratings.MODEL.mu, ratings.MODEL.sigma, 0).value


def _band(low: int, high: int) -> str:
    if high >= 20:
        return _("%(num)s or more cards", num=low)
    return _("%(low)s to %(high)s cards", low=low, high=high)


def _seat(position: int) -> str:
    """A seat relative to the dealer: 0 is the dealer, 1 bids first, 2 second, …"""
    if position == 0:
        return _("dealing (bidding last)")
    names = {
        1: _("bidding first"),
        2: _("bidding second"),
        3: _("bidding third"),
        4: _("bidding fourth"),
    }
    return names.get(position, _("bidding fifth"))


@dataclass(frozen=True)
class SeatLine:
    """A player's rounds in one seat relative to the dealer."""

    position: int  # 0: the dealer; 1: the player after the dealer (bids first); …
    rounds: int
    points: int
    bid_rounds: int
    exact: int

    @property
    def average(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0


def by_seat(player_id: int) -> list[SeatLine]:
    """The player's complete rounds by their seat relative to the dealer (the counts kept
    per player and seat)."""
    return [SeatLine(*line) for line in stats.positions_of(player_id)]


def _accuracy(s: PlayerStats) -> str | None:
    bands = []
    for low, high in BANDS:
        lines = [c for c in s.by_cards if low <= c.cards <= high]
        rounds = sum(c.rounds for c in lines)
        if rounds >= MIN_BAND_ROUNDS:
            bands.append((sum(c.exact for c in lines) / rounds, rounds, _band(low, high)))
    if not bands:
        return None
    if len(bands) == 1:
        rate, rounds, band = bands[0]
        return _(
            "With %(band)s in hand, bids were exact in %(rate)s of %(rounds)s rounds.",
            band=band,
            rate=percent(rate),
            rounds=rounds,
        )
    best = max(bands, key=lambda b: (b[0], b[1]))
    worst = min(bands, key=lambda b: (b[0], -b[1]))
    if best[0] == worst[0]:
        return _(
            "Bids are exact as often with few cards in hand as with many: %(rate)s.",
            rate=percent(best[0]),
        )
    return _(
        "Bids are most often exact with %(best)s in hand (%(best_rate)s of %(best_rounds)s "
        "rounds), least often with %(worst)s (%(worst_rate)s of %(worst_rounds)s).",
        best=best[2],
        best_rate=percent(best[0]),
        best_rounds=best[1],
        worst=worst[2],
        worst_rate=percent(worst[0]),
        worst_rounds=worst[1],
    )


def _tendency(s: PlayerStats) -> str | None:
    misses = s.overs + s.unders
    if misses < MIN_MISSES:
        return None
    if s.overs >= LEANING * misses:
        return _(
            "Bids tend to be too low: %(num)s of %(misses)s missed bids took more tricks than bid.",
            num=s.overs,
            misses=misses,
        )
    if s.unders >= LEANING * misses:
        return _(
            "Bids tend to be too high: %(num)s of %(misses)s missed bids took fewer tricks "
            "than bid.",
            num=s.unders,
            misses=misses,
        )
    return _(
        "Missed bids go both ways: %(overs)s too low, %(unders)s too high.",
        overs=s.overs,
        unders=s.unders,
    )


def _seats(lines: Sequence[SeatLine]) -> str | None:
    counted = [line for line in lines if line.rounds >= MIN_SEAT_ROUNDS]
    if len(counted) < 2:
        return None
    best = max(counted, key=lambda line: (line.average, line.rounds))
    worst = min(counted, key=lambda line: (line.average, -line.rounds))
    if best.average == worst.average:
        return None
    return _(
        "Best seat: %(best)s, %(best_points)s points a round (%(best_rounds)s rounds); "
        "worst: %(worst)s, %(worst_points)s (%(worst_rounds)s rounds).",
        best=_seat(best.position),
        best_points=decimal1(best.average),
        best_rounds=best.rounds,
        worst=_seat(worst.position),
        worst_points=decimal1(worst.average),
        worst_rounds=worst.rounds,
    )


def _streaks(steps: Sequence[Step]) -> list[str]:
    if not steps or not steps[-1].best_run:
        return []
    longest, current = steps[-1].best_run, steps[-1].run
    out = [
        _n(
            "Longest winning streak: %(num)s game.",
            "Longest winning streak: %(num)s games in a row.",
            longest,
        )
    ]
    if current >= 2 and current != longest:
        out.append(_n("Won the last game.", "Won the last %(num)s games in a row.", current))
    elif current >= 2:
        out.append(_("That streak is still going."))
    return out


def insights(s: PlayerStats, seats: Sequence[SeatLine], steps: Sequence[Step]) -> list[str]:
    """The sentences for a player's page, in the reader's language (none without enough
    games behind them)."""
    found = [_accuracy(s), _tendency(s), _seats(seats)]
    return [text for text in found if text] + _streaks(steps)


@dataclass(frozen=True)
class PlayerInsights:
    """What a player's page shows besides the statistics: the rating, its latest history
    as a chart, and the insights."""

    rating: Shown | None
    steps: list[Step]
    chart: Markup | None
    sentences: list[str]


def for_player(s: PlayerStats) -> PlayerInsights:
    """The rating, its chart and the insights of the player of ``s`` (two queries)."""
    steps = ratings.history(s.player.id)
    chart = None
    if steps:
        chart = charts.rating_chart(
            # From where everyone starts, unless the chart begins later in the history.
            [BASE_POINT] * (steps[0].rating.games == 1) + [s.rating.value for s in steps],
            _("Rating of %(name)s after each game", name=s.player.name),
            first=steps[0].rating.games - 1,
        )
    return PlayerInsights(
        rating=steps[-1].rating if steps else None,
        steps=steps,
        chart=chart,
        sentences=insights(s, by_seat(s.player.id), steps),
    )
