"""Statistics of players and records across all games, from SQL aggregates.

Every seat carries a summary of its game so far (total, won, exact bids, …), written from
the engine's sheet whenever the game changes (:func:`summarise`). The pages then sum over a
player's seats in a fixed number of indexed queries, whatever the size of the history;
the exact-bid rate by number of cards comes from ``PlayerCards``, kept up to date from the
seats in the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, case, delete, func, select, update
from sqlalchemy.orm import InstrumentedAttribute

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import Game, Player, PlayerCards, PlayerPosition, Rivalry, Seat
from scorekeeper.services import ratings
from scorekeeper.services.errors import NotFound

# -- the per-seat summary ------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSummary:
    """One seat's game so far, as the engine's sheet gives it."""

    total: int
    won: bool | None
    rounds: int
    bid_rounds: int
    exact: int
    overs: int
    unders: int
    best_streak: int
    max_deficit: int
    by_cards: tuple[tuple[int, int, int], ...] = ()  # (cards, rounds bid, exact), by cards
    # (position, rounds, points, rounds bid, exact) by the seat relative to the dealer
    by_position: tuple[tuple[int, int, int, int, int], ...] = ()


def seat_summaries(sheet: engine.Sheet) -> list[SeatSummary]:
    """Summaries of every seat of ``sheet``: complete rounds only; a round without a bid
    (the dealer under Wizard Saboteur, V6) counts as a round but not as a bid, and neither
    breaks nor extends a streak of exact bids. ``max_deficit`` is the most points the seat
    was ever behind the leader after a round (a winner's comeback)."""
    winners = set(sheet.winners) if sheet.finished else None
    out = []
    for s in range(sheet.players):
        rounds = bid_rounds = exact = overs = unders = best = run = deficit = 0
        cards: dict[int, list[int]] = {}
        positions: dict[int, list[int]] = {}
        for r in sheet.rounds:
            if r.entry.tricks is None:
                continue
            rounds += 1
            deficit = max(deficit, max(r.totals) - r.totals[s])
            place = positions.setdefault((s - r.dealer) % sheet.players, [0, 0, 0, 0])
            place[0] += 1
            place[1] += r.scores[s] if r.scores is not None else 0
            bid, took = r.entry.bids[s], r.entry.tricks[s]
            if bid is None:
                continue
            bid_rounds += 1
            place[2] += 1
            place[3] += took == bid
            line = cards.setdefault(r.cards, [0, 0])
            line[0] += 1
            if took == bid:
                line[1] += 1
                exact += 1
                run += 1
                best = max(best, run)
            else:
                run = 0
                if took > bid:
                    overs += 1
                else:
                    unders += 1
        out.append(
            SeatSummary(
                total=sheet.totals[s],
                won=None if winners is None else s in winners,
                rounds=rounds,
                bid_rounds=bid_rounds,
                exact=exact,
                overs=overs,
                unders=unders,
                best_streak=best,
                max_deficit=deficit,
                by_cards=tuple((c, n, e) for c, (n, e) in sorted(cards.items())),
                by_position=tuple((p, *line) for p, line in sorted(positions.items())),  # type: ignore[misc]
            )
        )
    return out


def apply_summary(seat: Seat, summary: SeatSummary) -> None:
    """Write ``summary`` into ``seat``. The player's by-cards counts change with it: call
    :func:`add_cards` with the difference (``summarise`` does)."""
    seat.total = summary.total
    seat.won = summary.won
    seat.rounds = summary.rounds
    seat.bid_rounds = summary.bid_rounds
    seat.exact = summary.exact
    seat.overs = summary.overs
    seat.unders = summary.unders
    seat.best_streak = summary.best_streak
    seat.max_deficit = summary.max_deficit
    seat.by_cards = [list(line) for line in summary.by_cards]
    seat.by_position = [list(line) for line in summary.by_position]


def summarise(game: Game, sheet: engine.Sheet) -> None:
    """Write the seats' summaries of ``game`` from its sheet (called with every change),
    and move the players' by-cards counts by what changed."""
    # No autoflush: the game's own changes (and its version check, which turns a lost race
    # into a Conflict) are flushed by the caller's commit, not by these updates.
    with db.session.no_autoflush:
        old_pairs = rivalries([(s.player_id, s.total, s.won) for s in game.seats])
        for seat, summary in zip(game.seats, seat_summaries(sheet), strict=True):
            before, before_positions = seat.by_cards or [], seat.by_position or []
            apply_summary(seat, summary)
            add_cards(seat.player_id, summary.by_cards, before)
            add_positions(seat.player_id, summary.by_position, before_positions)
        new_pairs = rivalries([(s.player_id, s.total, s.won) for s in game.seats])
        add_rivalries(new_pairs, old_pairs)


def withdraw(game: Game) -> None:
    """Take a deleted game out of its players' by-cards counts and head-to-head records.
    Its seats keep their summaries, which :func:`live` leaves out of every sum, so that
    an undo (:func:`reinstate`) puts back exactly what was taken."""
    with db.session.no_autoflush:
        for seat in game.seats:
            add_cards(seat.player_id, (), seat.by_cards or [])
            add_positions(seat.player_id, (), seat.by_position or [])
        add_rivalries((), rivalries([(s.player_id, s.total, s.won) for s in game.seats]))


def reinstate(game: Game) -> None:
    """Count a game brought back from deletion again (the undo of :func:`withdraw`)."""
    with db.session.no_autoflush:
        for seat in game.seats:
            add_cards(seat.player_id, seat.by_cards or [])
            add_positions(seat.player_id, seat.by_position or [])
        add_rivalries(rivalries([(s.player_id, s.total, s.won) for s in game.seats]))


def live(circle_id: int) -> ColumnElement[bool]:
    """Seats of the circle's games that were not deleted. The deleted are few and found
    from an index, so the seat queries keep reading their covering indexes."""
    deleted = select(Game.id).where(Game.circle_id == circle_id, Game.deleted_at.is_not(None))
    return Seat.game_id.not_in(deleted)


Pair = tuple[int, int, int, int, int, int]  # player, other, games, ahead, behind, level


def rivalries(seats: Sequence[tuple[int, int, bool | None]]) -> list[Pair]:
    """What a game adds to head-to-head records: for a finished game (``won`` set), each
    ordered pair of players at the table; nothing for a game still being played."""
    if not seats or seats[0][2] is None:
        return []
    return [
        (p, o, 1, int(t > u), int(t < u), int(t == u))
        for p, t, _ in seats
        for o, u, _ in seats
        if p != o
    ]


def add_rivalries(new: Sequence[Pair], old: Sequence[Pair] = ()) -> None:
    """Add ``new`` minus ``old`` to the head-to-head records (increments in SQL)."""
    delta: dict[tuple[int, int], list[int]] = {}
    for sign, pairs in ((1, new), (-1, old)):
        for p, o, *counts in pairs:
            line = delta.setdefault((p, o), [0, 0, 0, 0])
            for i, c in enumerate(counts):
                line[i] += sign * c
    for (p, o), (games, ahead, behind, level) in sorted(delta.items()):
        if not any((games, ahead, behind, level)):
            continue
        result = db.session.execute(
            update(Rivalry)
            .where(Rivalry.player_id == p, Rivalry.other_id == o)
            .values(
                games=Rivalry.games + games,
                ahead=Rivalry.ahead + ahead,
                behind=Rivalry.behind + behind,
                level=Rivalry.level + level,
            )
            .execution_options(synchronize_session=False)
        )
        if not result.rowcount:  # type: ignore[attr-defined]
            db.session.add(
                Rivalry(
                    player_id=p, other_id=o, games=games, ahead=ahead, behind=behind, level=level
                )
            )


Counts = Sequence[Sequence[int]]  # [(key, count, count, …), …]
CardsCounts = Counts  # [(cards, rounds, exact), …]


def _add_counts(
    model: type[PlayerCards] | type[PlayerPosition],
    key: InstrumentedAttribute[int],
    player_id: int,
    new: Counts,
    old: Counts,
) -> None:
    """Add ``new`` minus ``old`` to the player's rows of ``model`` by ``key`` (increments
    in SQL, so two games changing at once both count)."""
    names = [c.key for c in model.__table__.columns if c.key not in ("player_id", key.key)]
    delta: dict[int, list[int]] = {}
    for sign, counts in ((1, new), (-1, old)):
        for value, *numbers in counts:
            line = delta.setdefault(value, [0] * len(names))
            for i, n in enumerate(numbers):
                line[i] += sign * n
    for value, numbers in sorted(delta.items()):
        if not any(numbers):
            continue
        columns = {name: getattr(model, name) for name in names}
        result = db.session.execute(
            update(model)
            .where(model.player_id == player_id, key == value)
            .values({name: columns[name] + n for name, n in zip(names, numbers, strict=True)})
            .execution_options(synchronize_session=False)
        )
        if not result.rowcount:  # type: ignore[attr-defined]
            row = dict(zip(names, numbers, strict=True))
            db.session.add(model(player_id=player_id, **{key.key: value}, **row))


def add_cards(player_id: int, new: CardsCounts, old: CardsCounts = ()) -> None:
    """Add ``new`` minus ``old`` to the player's rounds and exact bids by cards."""
    _add_counts(PlayerCards, PlayerCards.cards, player_id, new, old)


PositionLine = tuple[int, int, int, int, int]  # position, rounds, points, bid rounds, exact


def positions_of(player_id: int) -> list[PositionLine]:
    """The player's kept counts by seat relative to the dealer, by position (one query,
    at most six rows)."""
    rows = db.session.execute(
        select(
            PlayerPosition.position,
            PlayerPosition.rounds,
            PlayerPosition.points,
            PlayerPosition.bid_rounds,
            PlayerPosition.exact,
        )
        .where(PlayerPosition.player_id == player_id, PlayerPosition.rounds > 0)
        .order_by(PlayerPosition.position)
    )
    return [(p, r, s, b, e) for p, r, s, b, e in rows]


def add_positions(player_id: int, new: Counts, old: Counts = ()) -> None:
    """Add ``new`` minus ``old`` to the player's rounds by seat relative to the dealer
    ((position, rounds, points, rounds bid, exact), …)."""
    _add_counts(PlayerPosition, PlayerPosition.position, player_id, new, old)


# -- a player's page -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    public_id: str
    created_at: datetime
    total: int


@dataclass(frozen=True)
class CardsLine:
    cards: int
    rounds: int
    exact: int

    @property
    def rate(self) -> float:
        return self.exact / self.rounds if self.rounds else 0.0


@dataclass(frozen=True)
class HeadToHead:
    player_id: int
    name: str
    games: int
    ahead: int  # finished above the opponent
    behind: int
    level: int


@dataclass(frozen=True)
class PlayerStats:
    player: Player
    games: int
    finished: int
    wins: int
    avg_final: float | None
    rounds: int
    points: int
    bid_rounds: int
    exact: int
    overs: int
    unders: int
    best_streak: int
    best_game: GameLine | None
    worst_game: GameLine | None
    by_cards: list[CardsLine]
    head_to_head: list[HeadToHead]

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None

    @property
    def avg_round_score(self) -> float | None:
        return self.points / self.rounds if self.rounds else None

    @property
    def exact_rate(self) -> float | None:
        return self.exact / self.bid_rounds if self.bid_rounds else None

    @property
    def tendency(self) -> str:
        """Whether the player's misses are mostly taking more tricks than bid, or fewer."""
        if self.overs == self.unders:
            return _("even") if self.overs else _("no misses yet")
        more = self.overs > self.unders
        return _("takes more tricks than bid") if more else _("takes fewer tricks than bid")


def _count(cond: ColumnElement[bool]) -> ColumnElement[int]:
    """How many rows meet ``cond``."""
    return func.coalesce(func.sum(case((cond, 1), else_=0)), 0)


def player_stats(player_id: int, circle_id: int) -> PlayerStats:
    """Everything the player page shows, in six indexed queries on the player's seats and
    by-cards counts. ``Seat.won`` is set exactly when the game is finished, so "finished"
    needs no join with the games.

    :raises NotFound: for an unknown player, or one of another circle.
    """
    player = db.session.get(Player, player_id)
    if player is None or player.circle_id != circle_id:
        raise NotFound(_("There is no such player."))
    finished = Seat.won.is_not(None)
    row = db.session.execute(
        select(
            func.count(),
            _count(finished),
            _count(Seat.won.is_(True)),
            func.avg(case((finished, Seat.total))),
            func.coalesce(func.sum(Seat.rounds), 0),
            func.coalesce(func.sum(Seat.total), 0),
            func.coalesce(func.sum(Seat.bid_rounds), 0),
            func.coalesce(func.sum(Seat.exact), 0),
            func.coalesce(func.sum(Seat.overs), 0),
            func.coalesce(func.sum(Seat.unders), 0),
            func.coalesce(func.max(Seat.best_streak), 0),
        ).where(Seat.player_id == player_id, live(circle_id))
    ).one()

    def extreme(best: bool) -> GameLine | None:
        order = (Seat.total.desc(), Seat.game_id.desc()) if best else (Seat.total, Seat.game_id)
        # Pick the seat from the covering index first, then look up its one game.
        pick = (
            select(Seat.game_id, Seat.total)
            .where(Seat.player_id == player_id, finished, live(circle_id))
            .order_by(*order)
            .limit(1)
            .subquery()
        )
        found = db.session.execute(
            select(Game.public_id, Game.created_at, pick.c.total).join(
                pick, pick.c.game_id == Game.id
            )
        ).first()
        return None if found is None else GameLine(*found)

    by_cards = [
        CardsLine(cards, rounds, exact)
        for cards, rounds, exact in db.session.execute(
            select(PlayerCards.cards, PlayerCards.rounds, PlayerCards.exact)
            .where(PlayerCards.player_id == player_id, PlayerCards.rounds > 0)
            .order_by(PlayerCards.cards)
        )
    ]

    h2h = [
        HeadToHead(pid, name, games, ahead, behind, level)
        for pid, name, games, ahead, behind, level in db.session.execute(
            select(
                Rivalry.other_id,
                Player.name,
                Rivalry.games,
                Rivalry.ahead,
                Rivalry.behind,
                Rivalry.level,
            )
            .join(Player, Player.id == Rivalry.other_id)
            .where(Rivalry.player_id == player_id, Rivalry.games > 0)
            .order_by(Rivalry.games.desc(), Player.key)
        )
    ]
    games, n_finished, wins, avg_final, rounds, points, bid_rounds, exact, overs, unders, streak = (
        row
    )
    return PlayerStats(
        player=player,
        games=int(games),
        finished=int(n_finished),
        wins=int(wins),
        avg_final=None if avg_final is None else float(avg_final),
        rounds=int(rounds),
        points=int(points),
        bid_rounds=int(bid_rounds),
        exact=int(exact),
        overs=int(overs),
        unders=int(unders),
        best_streak=int(streak),
        best_game=extreme(True),
        worst_game=extreme(False),
        by_cards=by_cards,
        head_to_head=h2h,
    )


# -- all players -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    id: int
    name: str
    games: int
    wins: int
    exact_rate: float | None
    rating: ratings.Shown | None = None  # None before the player's first rated game


def player_lines(circle_id: int) -> list[PlayerLine]:
    """The circle's players with games played, wins, exact-bid rate and rating, by name
    (two queries: the ratings apart, as a join would make SQLite read the seats another,
    ten times slower way)."""
    rows = db.session.execute(
        select(
            Player.id,
            Player.name,
            func.count(Seat.game_id),
            _count(Seat.won.is_(True)),
            func.coalesce(func.sum(Seat.bid_rounds), 0),
            func.coalesce(func.sum(Seat.exact), 0),
        )
        .where(Player.circle_id == circle_id)
        .outerjoin(Seat, and_(Seat.player_id == Player.id, live(circle_id)))
        .group_by(Player.id, Player.name)
        .order_by(Player.key)
    )
    rated = ratings.circle_ratings(circle_id)
    return [
        PlayerLine(
            pid,
            name,
            int(games),
            int(wins),
            int(exact) / int(bids) if bids else None,
            rated.get(pid),
        )
        for pid, name, games, wins, bids, exact in rows
    ]


# -- records -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    name: str
    player_id: int
    public_id: str
    created_at: datetime
    value: int


@dataclass(frozen=True)
class Records:
    highest_final: list[Record]
    most_exact: list[Record]
    biggest_comeback: list[Record]


def _top(
    circle_id: int, value: InstrumentedAttribute[int], *where: ColumnElement[bool], limit: int
) -> list[Record]:
    # The circle's players' finished seats (a few per player, from the player's summary
    # index), best first; of equal values the later game comes first.
    players = select(Player.id).where(Player.circle_id == circle_id).scalar_subquery()
    top = (
        select(Seat.game_id, Seat.player_id, value.label("value"))
        .where(Seat.player_id.in_(players), Seat.won.is_not(None), live(circle_id), *where)
        .order_by(value.desc(), Seat.game_id.desc(), Seat.seat.desc())
        .limit(limit)
        .subquery()
    )
    rows = db.session.execute(
        select(Player.name, Player.id, Game.public_id, Game.created_at, top.c.value)
        .select_from(top)
        .join(Game, Game.id == top.c.game_id)
        .join(Player, Player.id == top.c.player_id)
        .order_by(top.c.value.desc(), Game.id.desc(), Player.key)
    )
    return [Record(*r) for r in rows]


def records(circle_id: int, limit: int = 3) -> Records:
    """The best of the circle's finished games: highest final score, most exact bids in a
    game, and the biggest comeback (the largest deficit to the leader that a winner
    overcame)."""
    return Records(
        highest_final=_top(circle_id, Seat.total, limit=limit),
        most_exact=_top(circle_id, Seat.exact, limit=limit),
        biggest_comeback=_top(
            circle_id, Seat.max_deficit, Seat.won.is_(True), Seat.max_deficit > 0, limit=limit
        ),
    )


# -- rebuilding ------------------------------------------------------------------------------


def rebuild(sheet_of: Callable[[Game], engine.Sheet]) -> int:
    """Recompute every seat's summary, the by-cards counts, the head-to-head records and
    the circles' ratings from the stored rounds (after upgrading a database that had
    games before these summaries existed), each game's sheet from ``sheet_of``
    (``games.sheet_of``, which imports this module). Returns the number of games
    counted (deleted ones are not). Flushed, for its caller to commit as one transaction."""
    db.session.execute(delete(PlayerCards))
    db.session.execute(delete(PlayerPosition))
    db.session.execute(delete(Rivalry))
    count = 0
    for game in db.session.scalars(select(Game).order_by(Game.id)):
        sheet = sheet_of(game)
        if game.deleted_at is not None:
            # A deleted game keeps its seats' summaries (for an undo) but counts nowhere.
            for seat, summary in zip(game.seats, seat_summaries(sheet), strict=True):
                apply_summary(seat, summary)
            continue
        for seat in game.seats:
            seat.by_cards = None
            seat.by_position = None
            seat.won = None
            seat.total = 0
        summarise(game, sheet)
        count += 1
    db.session.flush()
    ratings.rate_every_circle(db.session.connection())
    return count
