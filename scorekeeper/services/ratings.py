"""Ratings per circle: a skill estimate for each player from the finishing places of the
circle's games, game after game in order of play.

The model is openskill's Plackett–Luce (a Bayesian rating for games of any number of
players, each player a team of one): every finished game updates its players' estimate
``mu`` and uncertainty ``sigma`` from their places, equal totals sharing a place (a
tie-break winner, R17's option, is placed ahead). The order of play is the games'
finish times, then their ids.

Which games rate: the circle's finished score pad games that were not deleted. A one-off
game (no circle) never does, nor a digital game (bots sit only there, and those belong
to no circle); a guest named at a circle's table is one of its players, so the game
rates them too, shown as provisional until they have played a few games.

Stored: each player's rating now (``Rating``) and after each rated game
(``RatingStep``). A game finishing after every rated game only appends; a change to one
earlier in the order (a correction, an undo, a deletion or its undo, an import, a game
moved into the circle) replays the circle from that game on, from the ratings its
players had before it; a merge of two players replays it from the first rated game of
the name that goes. Everything here
writes through a connection (core statements), so the migration that brought ratings in
computes them the same way.

Shown as one number: the cautious estimate ``mu − 3·sigma`` (a new player's is 0),
scaled to ``1000 + 25 × …`` (a new player shows 1000; a settled average player about
1,450–1,500), with the uncertainty in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, and_, delete, func, insert, or_, select

from scorekeeper.extensions import db
from scorekeeper.models import Circle, Game, Player, Rating, RatingStep, Seat

MODEL = PlackettLuce()  # mu 25, sigma 25/3: openskill's defaults
BASE = 1000  # the shown rating of a player with no game yet
SCALE = 25  # shown points per unit of the cautious estimate
PROVISIONAL = 5  # rated games before a rating counts as settled

Key = tuple[datetime, int]  # a game's place in the order of play: finish time, id


def _utc(when: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were stored as UTC.
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


# -- what a rating shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A rating as the pages and the API show it."""

    mu: float
    sigma: float
    games: int

    @property
    def value(self) -> int:
        """The cautious estimate, scaled: what the pages show."""
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    @property
    def margin(self) -> int:
        """How far the skill may lie from its estimate, in shown points (two sigmas)."""
        return round(SCALE * 2 * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


# -- the computation (no database) ---------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    """A finished game as it rates: its key, and (player, total, won) a seat."""

    key: Key
    seats: tuple[tuple[int, int, bool], ...]


def places(seats: Sequence[tuple[int, int, bool]]) -> list[int]:
    """Finishing places (1 = first) of (player, total, won) seats: a higher total is
    ahead, a winner ahead of a non-winner with the same total (a tie-break, R17's
    option), and equal totals otherwise share their place."""
    keys = [(-total, not won) for _, total, won in seats]
    return [1 + sum(other < mine for other in keys) for mine in keys]


# player → mu, sigma, rated games, games won in a row now, most won in a row
State = dict[int, tuple[float, float, int, int, int]]
FRESH = (MODEL.mu, MODEL.sigma, 0, 0, 0)
CHART_GAMES = 100  # the latest games a player's chart shows


def rate(games: Iterable[Finished], state: State) -> list[dict[str, Any]]:
    """Rate ``games`` in order from ``state`` (which is moved along); returns the
    steps, as rows of ``RatingStep`` without the circle."""
    steps: list[dict[str, Any]] = []
    for game in games:
        who = [player for player, _, _ in game.seats]
        before = [state.get(p, FRESH) for p in who]
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, *_ in before]
        ranks = places(game.seats)
        after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        for player, old, [new], place in zip(who, before, after, ranks, strict=True):
            count, run, best = old[2] + 1, old[3] + 1 if place == 1 else 0, old[4]
            best = max(best, run)
            state[player] = (new.mu, new.sigma, count, run, best)
            steps.append(
                {
                    "game_id": game.key[1],
                    "player_id": player,
                    "finished_at": game.key[0],
                    "place": place,
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "games": count,
                    "run": run,
                    "best_run": best,
                }
            )
    return steps


# -- kept in the database ------------------------------------------------------------------


def _from(key: Key, when: Any, game_id: Any) -> Any:
    """Rows at or after ``key`` in the order of play."""
    return or_(when > key[0], and_(when == key[0], game_id >= key[1]))


def _finished_games(conn: Connection, circle_id: int, since: Key | None) -> list[Finished]:
    """The circle's games that rate, at or after ``since``, in order of play (one query)."""
    query = (
        select(Game.id, Game.finished_at, Seat.player_id, Seat.total, Seat.won)
        .join(Seat, Seat.game_id == Game.id)
        .where(
            Game.circle_id == circle_id,
            Game.mode == "pad",
            Game.finished_at.is_not(None),
            Game.deleted_at.is_(None),
        )
        .order_by(Game.finished_at, Game.id, Seat.seat)
    )
    if since is not None:
        query = query.where(_from(since, Game.finished_at, Game.id))
    games: list[Finished] = []
    seats: list[tuple[int, int, bool]] = []
    last: Key | None = None
    for game_id, finished_at, player_id, total, won in conn.execute(query):
        if last is not None and game_id != last[1]:
            games.append(Finished(last, tuple(seats)))
            seats = []
        assert finished_at is not None  # the query's condition
        last = (_utc(finished_at), game_id)
        seats.append((player_id, total, bool(won)))
    if last is not None:
        games.append(Finished(last, tuple(seats)))
    return games


def _latest(conn: Connection, players: Sequence[int]) -> State:
    """The players' latest steps (one query)."""
    if not players:
        return {}
    latest = func.row_number().over(
        partition_by=RatingStep.player_id,
        order_by=(RatingStep.finished_at.desc(), RatingStep.game_id.desc()),
    )
    ranked = (
        select(
            RatingStep.player_id,
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.games,
            RatingStep.run,
            RatingStep.best_run,
            latest.label("n"),
        )
        .where(RatingStep.player_id.in_(list(players)))
        .subquery()
    )
    rows = conn.execute(
        select(
            ranked.c.player_id,
            ranked.c.mu,
            ranked.c.sigma,
            ranked.c.games,
            ranked.c.run,
            ranked.c.best_run,
        ).where(ranked.c.n == 1)
    )
    return {player: (mu, sigma, games, run, best) for player, mu, sigma, games, run, best in rows}


def replay(conn: Connection, circle_id: int, since: Key | None = None) -> int:
    """Rate the circle's games again from ``since`` on (``None``: all of them), starting
    from the ratings their players had before it; returns how many games were rated.
    Pending changes of a session must be flushed first (this reads the database)."""
    games = _finished_games(conn, circle_id, since)
    if since is None:
        dropped: set[int] = set()
        conn.execute(delete(RatingStep).where(RatingStep.circle_id == circle_id))
        conn.execute(delete(Rating).where(Rating.circle_id == circle_id))
    else:
        step_order = _from(since, RatingStep.finished_at, RatingStep.game_id)
        dropped = set(
            conn.scalars(
                select(RatingStep.player_id)
                .where(RatingStep.circle_id == circle_id, step_order)
                .distinct()
            )
        )
        conn.execute(delete(RatingStep).where(RatingStep.circle_id == circle_id, step_order))
    players = sorted(dropped | {p for g in games for p, _, _ in g.seats})
    state = _latest(conn, players) if since is not None else {}
    steps = rate(games, state)
    if steps:
        conn.execute(insert(RatingStep), [{**s, "circle_id": circle_id} for s in steps])
    if players:
        conn.execute(delete(Rating).where(Rating.player_id.in_(players)))
        rows = [
            {"player_id": p, "circle_id": circle_id, "mu": mu, "sigma": sigma, "games": n}
            for p, (mu, sigma, n, *_) in sorted(state.items())
            if p in players
        ]
        if rows:
            conn.execute(insert(Rating), rows)
    return len(games)


def rate_every_circle(conn: Connection) -> int:
    """Every circle's ratings afresh (an upgrade, ``flask rebuild-stats``); returns how
    many games were rated."""
    return sum(replay(conn, circle_id) for circle_id in list(conn.scalars(select(Circle.id))))


def game_key(game: Game) -> Key | None:
    """Where ``game`` stands in its circle's order of play, or ``None`` when it doesn't
    rate (not finished, deleted, a one-off or digital game)."""
    if game.circle_id is None or game.mode != "pad":
        return None
    if game.finished_at is None or game.deleted_at is not None:
        return None
    return (_utc(game.finished_at), game.id)


def rated_key(conn: Connection, game_id: int) -> Key | None:
    """Where the game stood when it was last rated, or ``None`` if it is not rated."""
    when = conn.scalar(select(RatingStep.finished_at).where(RatingStep.game_id == game_id).limit(1))
    return None if when is None else (_utc(when), game_id)


def first_key(conn: Connection, player_id: int) -> Key | None:
    """Where the player's first rated game stands in the order of play, if any."""
    row = conn.execute(
        select(RatingStep.finished_at, RatingStep.game_id)
        .where(RatingStep.player_id == player_id)
        .order_by(RatingStep.finished_at, RatingStep.game_id)
        .limit(1)
    ).first()
    return None if row is None else (_utc(row[0]), row[1])


def game_changed(conn: Connection, game: Game, was_rated: bool) -> None:
    """Bring the circle's ratings up to date after ``game`` changed: it finished, was
    corrected, opened again, deleted, brought back or moved into the circle.
    ``was_rated`` says whether it may have been rated before (it was finished): when it
    was not and still doesn't rate, nothing is read. The game's changes must be flushed."""
    now = game_key(game)
    if not was_rated and now is None:
        return
    old = rated_key(conn, game.id) if was_rated else None
    keys = [k for k in (now, old) if k is not None]
    if keys and game.circle_id is not None:
        replay(conn, game.circle_id, min(keys))


# -- reading ---------------------------------------------------------------------------------


def circle_ratings(circle_id: int) -> dict[int, Shown]:
    """Every rated player of the circle, by id (one query)."""
    rows = db.session.execute(
        select(Rating.player_id, Rating.mu, Rating.sigma, Rating.games).where(
            Rating.circle_id == circle_id
        )
    )
    return {player: Shown(mu, sigma, games) for player, mu, sigma, games in rows}


@dataclass(frozen=True)
class Step:
    """A player's rating after one game, their place in it, and the games they had won
    in a row then, and at most until then."""

    rating: Shown
    place: int
    finished_at: datetime
    run: int = 0
    best_run: int = 0


def history(player_id: int, limit: int = CHART_GAMES) -> list[Step]:
    """A player's rating after each of their latest ``limit`` games, in order of play
    (one query on an index: the cost stays that of ``limit`` games)."""
    rows = db.session.execute(
        select(
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.games,
            RatingStep.place,
            RatingStep.finished_at,
            RatingStep.run,
            RatingStep.best_run,
        )
        .where(RatingStep.player_id == player_id)
        .order_by(RatingStep.finished_at.desc(), RatingStep.game_id.desc())
        .limit(limit)
    ).all()
    return [
        Step(Shown(mu, sigma, games), place, _utc(when), run, best)
        for mu, sigma, games, place, when, run, best in reversed(rows)
    ]


@dataclass(frozen=True)
class Leader:
    player_id: int
    name: str
    rating: Shown


def leaders(circle_id: int, limit: int = 3) -> list[Leader]:
    """The circle's highest settled ratings (at least :data:`PROVISIONAL` games)."""
    cautious = Rating.mu - 3 * Rating.sigma
    rows = db.session.execute(
        select(Rating.player_id, Player.name, Rating.mu, Rating.sigma, Rating.games)
        .join(Player, Player.id == Rating.player_id)
        .where(Rating.circle_id == circle_id, Rating.games >= PROVISIONAL)
        .order_by(cautious.desc(), Player.key)
        .limit(limit)
    )
    return [Leader(pid, name, Shown(mu, sigma, games)) for pid, name, mu, sigma, games in rows]
