"""Export: a game as JSON or CSV, and the whole history as one JSON file.

The history file has one game a line. Its export streams (:func:`history_chunks`): the
games are read in batches, each batch from one consistent state of the database, and
written out piece by piece, so a long history costs the same memory as a short one.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, select

from scorekeeper import engine
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Game,
    Player,
    Rating,
    Round,
    RoundResult,
    Seat,
)
from scorekeeper.services.ratings import Shown
from scorekeeper.services.transfer.fileformat import FORMAT, GAME_FORMAT, VERSION

EXPORT_BATCH = 200  # games read at a time by the export


def _stamp(value: datetime | None) -> str | None:
    """ISO 8601 in UTC. SQLite hands back naive datetimes: those were stored in UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.isoformat() + "+00:00"
    return value.astimezone(UTC).isoformat()


def _masked(rules: RuleSet, dealer: int, bids: Sequence[int | None], complete: bool) -> bool:
    """V3/V4: a round's bids are left out of an export while the round model seals any
    of them from an export (engine.EXPORT)."""
    if not bids:
        return False
    seen = engine.seen_bids(rules, bids, dealer=dealer, played=complete, viewer=engine.EXPORT)
    return seen.sealed


Lines = Sequence[tuple[int | None, int | None, int | None, int | None]]  # bid, tricks, score, total


def _game_dict(
    game: Any,
    names: list[str],
    rounds: Iterable[tuple[Any, Lines]],
    changes: Iterable[Any],
    reveal_open_bids: bool,
) -> dict[str, Any]:
    """A game as JSON-ready data, from its row (a model or a plain row with the same
    names), its players' names, its rounds with their lines in seat order, and its
    changes."""
    out_rounds = []
    rules = RuleSet.from_dict(game.rules)
    for rnd, lines in rounds:
        bids, tricks, scores, totals = (
            (list(column) for column in zip(*lines, strict=True)) if lines else ([], [], [], [])
        )
        if not reveal_open_bids and _masked(rules, rnd.dealer, bids, rnd.complete):
            bids = [None] * len(bids)
        out_rounds.append(
            {
                "number": rnd.number,
                "cards": rnd.cards,
                "dealer": rnd.dealer,
                "trump": rnd.trump,
                "complete": rnd.complete,
                "bids": bids,
                "tricks": tricks,
                "scores": scores if rnd.complete else None,
                "totals": totals if rnd.complete else None,
            }
            | ({"adjustments": list(rnd.adjustments)} if rnd.adjustments else {})
        )
    return {
        "public_id": game.public_id,
        "mode": game.mode,
        "created_at": _stamp(game.created_at),
        "updated_at": _stamp(game.updated_at),
        "finished_at": _stamp(game.finished_at),
        "scorer_token_hash": game.scorer_token_hash,
        "players": names,
        "first_dealer": game.first_dealer,
        "rules": game.rules,
        "rounds": out_rounds,
        "changes": [
            {
                "at": _stamp(c.at),
                "round_number": c.round_number,
                "action": c.action,
                "message": c.message,
                "facts": c.facts,
                "summary": c.summary,
                "data": c.data,
            }
            for c in changes
        ],
    }


def game_data(game: Game, *, reveal_open_bids: bool = True) -> dict[str, Any]:
    """The game as plain JSON-ready data (see the module docstring).

    With ``reveal_open_bids=False`` (downloads from the web) the bids of an open round under
    hidden or secret bids are left out (``null``), as on every page.
    """
    return _game_dict(
        game,
        [s.player.name for s in game.seats],
        [(rnd, [(r.bid, r.tricks, r.score, r.total) for r in rnd.results]) for rnd in game.rounds],
        game.changes,
        reveal_open_bids,
    )


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


# What a change's data may say beyond the game itself (the name of the circle it was
# moved into): for the scorer and the circle's people, never for a view link alone.
BEYOND_THE_GAME = ("circle",)


def game_json(game: Game, *, reveal_open_bids: bool = False, follower: bool = False) -> str:
    """One game's JSON file (a download: no scorer secret in it). For a ``follower``
    (who holds the view link alone) the changes say nothing beyond the game."""
    data = game_data(game, reveal_open_bids=reveal_open_bids)
    del data["scorer_token_hash"]
    if follower:
        for change in data["changes"]:
            if isinstance(change["data"], dict):
                change["data"] = {
                    k: v for k, v in change["data"].items() if k not in BEYOND_THE_GAME
                }
    return _dump({"format": GAME_FORMAT, "version": VERSION, "game": data})


def history_chunks(circle_id: int | None, *, reveal_open_bids: bool) -> Iterator[str]:
    """The circle's history (``None``: the whole server's) as one JSON file, piece by
    piece: the same text as :func:`history_json`, read a batch of games at a time.

    The database is read through a connection of its own, one consistent state per
    batch, so the chunks can be read after the request's session is gone and a slow
    reader holds nothing open between batches.
    """
    return _history_chunks(db.engine, circle_id, reveal_open_bids)


def _history_chunks(engine_: Engine, circle_id: int | None, reveal: bool) -> Iterator[str]:
    # One game a line (and the keys sorted): readable, easy to compare, and written by
    # the json module's C encoder (an indented dump takes its pure Python one, ten times
    # slower).
    yield f'{{"format": {json.dumps(FORMAT)}, "games": ['
    first = True
    for games in _game_batches(engine_, circle_id, reveal):
        parts = []
        for game in games:
            parts.append("\n" if first else ",\n")
            parts.append(json.dumps(game, ensure_ascii=False, sort_keys=True))
            first = False
        yield "".join(parts)
    rated = ""
    if circle_id is not None:
        with _snapshot(engine_) as conn:
            rows = _ratings(conn, circle_id)
        lines = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows]
        rated = ', "ratings": [' + ("\n" + ",\n".join(lines) + "\n" if lines else "") + "]"
    yield ("]" if first else "\n]") + rated + f', "version": {json.dumps(VERSION)}}}\n'


def _ratings(conn: Connection, circle_id: int) -> list[dict[str, Any]]:
    """The circle's ratings by player name, as the pages show them (for the export; an
    import computes them again from the games)."""
    rows = conn.execute(
        select(Player.name, Rating.mu, Rating.sigma, Rating.games)
        .join(Rating, Rating.player_id == Player.id)
        .where(Player.circle_id == circle_id)
        .order_by(Player.key)
    )
    out = []
    for name, mu, sigma, games in rows:
        shown = Shown(mu, sigma, games)
        out.append(
            {
                "player": name,
                "rating": shown.value,
                "margin": shown.margin,
                "games": games,
                "provisional": shown.provisional,
                "mu": mu,
                "sigma": sigma,
            }
        )
    return out


RATINGS_CSV_HEADER = ["player", "rating", "margin", "games", "provisional", "mu", "sigma"]


def ratings_csv(circle_id: int) -> str:
    """The circle's ratings as CSV: one line per rated player, by name."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(RATINGS_CSV_HEADER)
    for r in _ratings(db.session.connection(), circle_id):
        writer.writerow(
            [
                _cell(r["player"]),
                r["rating"],
                r["margin"],
                r["games"],
                "yes" if r["provisional"] else "no",
                f"{r['mu']:.4f}",
                f"{r['sigma']:.4f}",
            ]
        )
    return out.getvalue()


def history_json(circle_id: int | None, *, reveal_open_bids: bool = True) -> str:
    """The circle's history (``None``: the whole server's) as one JSON file (the backup)."""
    return "".join(history_chunks(circle_id, reveal_open_bids=reveal_open_bids))


def history_data(circle_id: int | None, *, reveal_open_bids: bool = True) -> dict[str, Any]:
    """The circle's history (``None``: the whole server's) as plain data."""
    data: dict[str, Any] = json.loads(history_json(circle_id, reveal_open_bids=reveal_open_bids))
    return data


@contextmanager
def _snapshot(engine_: Engine) -> Iterator[Connection]:
    """A connection that reads one consistent state of the database until the block ends
    (a read transaction), whatever is written meanwhile."""
    with engine_.connect() as conn:
        if engine_.dialect.name == "sqlite":
            # pysqlite begins a transaction only before a write: begin it by hand, so the
            # first read fixes what every later one of the block sees.
            conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.exec_driver_sql("BEGIN")
            try:
                yield conn
            finally:
                conn.exec_driver_sql("COMMIT")
        else:
            conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn


def _game_batches(
    engine_: Engine, circle_id: int | None, reveal: bool
) -> Iterator[list[dict[str, Any]]]:
    """The games, oldest first, as JSON-ready data, :data:`EXPORT_BATCH` at a time. A
    deleted game has left the history: it is not in it (nor would a restore bring it
    back as deleted)."""
    order = select(Game.id).where(Game.deleted_at.is_(None)).order_by(Game.created_at, Game.id)
    if circle_id is not None:
        order = order.where(Game.circle_id == circle_id)
    with _snapshot(engine_) as conn:
        ids = list(conn.scalars(order))  # a few bytes a game; the games come in batches
    for start in range(0, len(ids), EXPORT_BATCH):
        with _snapshot(engine_) as conn:
            batch = _read_games(conn, ids[start : start + EXPORT_BATCH], reveal)
        yield batch


def _read_games(conn: Connection, ids: list[int], reveal: bool) -> list[dict[str, Any]]:
    """These games (in this order; one gone or deleted meanwhile is left out) in five
    queries."""
    games = {
        row.id: row
        for row in conn.execute(
            select(
                Game.id,
                Game.public_id,
                Game.mode,
                Game.created_at,
                Game.updated_at,
                Game.finished_at,
                Game.scorer_token_hash,
                Game.first_dealer,
                Game.rules,
            ).where(Game.id.in_(ids), Game.deleted_at.is_(None))
        ).all()
    }
    names: dict[int, list[str]] = {}
    for game_id, name in conn.execute(
        select(Seat.game_id, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.game_id.in_(ids))
        .order_by(Seat.game_id, Seat.seat)
    ).all():
        names.setdefault(game_id, []).append(name)
    rounds: dict[int, list[tuple[Any, Lines]]] = {}
    by_id: dict[int, list[Any]] = {}
    for rnd in conn.execute(
        select(
            Round.id,
            Round.game_id,
            Round.number,
            Round.cards,
            Round.dealer,
            Round.trump,
            Round.complete,
            Round.adjustments,
        )
        .where(Round.game_id.in_(ids))
        .order_by(Round.game_id, Round.number)
    ).all():
        results: list[Any] = []
        by_id[rnd.id] = results
        rounds.setdefault(rnd.game_id, []).append((rnd, results))
    # The round lines are most of the rows, whole numbers all: straight from the driver.
    for round_id, *line in _plain_rows(
        conn,
        select(
            RoundResult.round_id,
            RoundResult.bid,
            RoundResult.tricks,
            RoundResult.score,
            RoundResult.total,
        )
        .join(Round, Round.id == RoundResult.round_id)
        .where(Round.game_id.in_(ids))
        .order_by(RoundResult.round_id, RoundResult.seat),
    ):
        by_id[round_id].append(line)
    changes: dict[int, list[Any]] = {}
    for change in conn.execute(
        select(
            Change.game_id,
            Change.at,
            Change.round_number,
            Change.action,
            Change.message,
            Change.facts,
            Change.summary,
            Change.data,
        )
        .where(Change.game_id.in_(ids))
        .order_by(Change.game_id, Change.id)
    ).all():
        changes.setdefault(change.game_id, []).append(change)
    return [
        _game_dict(games[i], names.get(i, []), rounds.get(i, []), changes.get(i, []), reveal)
        for i in ids
        if i in games
    ]


def _plain_rows(conn: Connection, statement: Any) -> list[tuple[Any, ...]]:
    """The rows of a query of plain values (no conversion by their type needed), as the
    driver gives them: for many rows, several times faster than SQLAlchemy's rows."""
    compiled = statement.compile(dialect=conn.dialect, compile_kwargs={"render_postcompile": True})
    values = compiled.construct_params()
    order = compiled.positiontup
    params: Any = values if order is None else tuple(values[n] for n in order)
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(compiled.string, params)
        return list(cursor.fetchall())
    finally:
        cursor.close()


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """Guard text against spreadsheet formula injection; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


CSV_HEADER = [
    "round",
    "cards",
    "dealer",
    "trump",
    "seat",
    "player",
    "bid",
    "tricks",
    "score",
    "adjustment",
    "reason",
    "total",
]


def game_csv(game: Game) -> str:
    """The game's rounds as CSV: one line per round and player."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    names = [s.player.name for s in game.seats]
    rules = RuleSet.from_dict(game.rules)
    for rnd in game.rounds:
        masked = _masked(rules, rnd.dealer, [r.bid for r in rnd.results], rnd.complete)
        for r in rnd.results:
            given = [a for a in rnd.adjustments or () if a["seat"] == r.seat]
            adjusted = sum(a["points"] for a in given)
            reasons = "; ".join(a["reason"] for a in given if a.get("reason"))
            writer.writerow(
                [
                    _cell(v)
                    for v in (
                        rnd.number,
                        rnd.cards,
                        names[rnd.dealer],
                        rnd.trump or "",
                        r.seat + 1,
                        names[r.seat],
                        "" if masked or r.bid is None else r.bid,
                        "" if r.tricks is None else r.tricks,
                        "" if r.score is None else r.score,
                        adjusted or "",
                        reasons,
                        "" if r.total is None else r.total,
                    )
                ]
            )
    return out.getvalue()
