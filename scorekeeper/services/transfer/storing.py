"""Import, second step: the checked games stored in one short transaction.

Checking the file gives the write turn up meanwhile (:func:`scorekeeper.writers.aside`);
the games are then stored with bulk inserts, the statistics summed in memory and added
once, and the circle's ratings made again from the first new game to finish on. A game
whose public id is already on this server is skipped (and counted), so restoring the
same backup twice, or into a server that has some of its games, is safe.
Players are matched by name within the circle, as when a game is set up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Dialect, Table, bindparam, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.i18n import _n
from scorekeeper.models import (
    Change,
    Game,
    PlayerCards,
    PlayerPosition,
    Rivalry,
    Round,
    RoundResult,
    Seat,
    utcnow,
)
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import ratings, stats
from scorekeeper.services.transfer.parsing import GameIn, parse_history

STORE_BATCH = 500  # games stored by one round of bulk inserts
_IN_MAX = 500  # values in one IN (...) list


@dataclass(frozen=True)
class ImportResult:
    imported: int
    skipped: int

    def __str__(self) -> str:
        if not self.skipped:
            return _n("%(num)s game imported.", "%(num)s games imported.", self.imported)
        return _n(
            "%(num)s game imported; %(skipped)s already here, skipped.",
            "%(num)s games imported; %(skipped)s already here, skipped.",
            self.imported,
            skipped=self.skipped,
        )


def import_history(text: str | bytes, circle_id: int) -> ImportResult:
    """Check the file, then store its games in the circle, in one short transaction.

    Checking takes the longest and writes nothing, and neither does putting the rows to
    store together: meanwhile the write turn is given up, so the scorers' writes go on.
    Storing takes the turn and holds it only for the bulk inserts (about a second for a
    thousand games).

    :raises Rejected: for a bad file; nothing is stored then.
    """
    with writers.aside():
        games = [_Prepared(g, db.engine.dialect) for g in parse_history(text)]
    with writers.turn():
        try:
            fresh = _store_all(games, circle_id)
        except IntegrityError:
            # Another server stored some of these games (or a new player's name) at the
            # same moment (PostgreSQL): look again at what is here, once.
            db.session.rollback()
            try:
                fresh = _store_all(games, circle_id)
            except Exception:
                db.session.rollback()
                raise
        except Exception:
            db.session.rollback()
            raise
    return ImportResult(fresh, len(games) - fresh)


# Columns of the bulk inserts: the ids first, filled in when storing; the rest prepared.
_GAME_COLUMNS = (
    "circle_id",
    "public_id",
    "scorer_token_hash",
    "mode",
    "rules",
    "player_count",
    "first_dealer",
    "created_at",
    "updated_at",
    "finished_at",
    "version",
    "played",
)
_SEAT_COLUMNS = (
    "game_id",
    "player_id",
    "seat",
    "total",
    "won",
    "rounds",
    "bid_rounds",
    "exact",
    "overs",
    "unders",
    "best_streak",
    "max_deficit",
    "by_cards",
    "by_position",
)
_ROUND_COLUMNS = (
    "game_id",
    "number",
    "cards",
    "dealer",
    "trump",
    "complete",
    "created_at",
    "adjustments",
)
_CHANGE_COLUMNS = (
    "game_id",
    "at",
    "round_number",
    "action",
    "message",
    "facts",
    "summary",
    "data",
)
_RESULT_COLUMNS = ("round_id", "player_id", "seat", "bid", "tricks", "score", "total")

Row = tuple[Any, ...]


class _Prepared:
    """A checked game's rows, every value already converted for the database (times,
    JSON) as SQLAlchemy would convert it, without the ids that storing gives them."""

    def __init__(self, g: GameIn, dialect: Dialect) -> None:
        self.public_id = g.public_id
        self.finished_at = g.finished_at if g.mode == "pad" else None
        self.players = g.players
        self.keys = [player_service.name_key(n) for n in g.players]
        self.summaries = g.summaries
        now = utcnow()
        self.game = _convert(
            Game.__table__,  # type: ignore[arg-type]
            _GAME_COLUMNS,
            (
                None,
                g.public_id,
                g.scorer_token_hash,
                g.mode,
                g.rules.to_dict(),
                len(g.players),
                g.first_dealer,
                g.created_at,
                g.updated_at,
                g.finished_at,
                1,
                bool(g.rounds),
            ),
            dialect,
        )[1:]
        self.seats = [
            _convert(
                Seat.__table__,  # type: ignore[arg-type]
                _SEAT_COLUMNS,
                (
                    None,
                    None,
                    seat,
                    s.total,
                    s.won,
                    s.rounds,
                    s.bid_rounds,
                    s.exact,
                    s.overs,
                    s.unders,
                    s.best_streak,
                    s.max_deficit,
                    [list(line) for line in s.by_cards],
                    [list(line) for line in s.by_position],
                ),
                dialect,
            )[2:]
            for seat, s in enumerate(g.summaries)
        ]
        self.rounds = [
            _convert(
                Round.__table__,  # type: ignore[arg-type]
                _ROUND_COLUMNS,
                (None, r.number, r.cards, r.dealer, r.trump, r.complete, now, r.adjustments),
                dialect,
            )[1:]
            for r in g.rounds
        ]
        self.changes = [
            _convert(
                Change.__table__,  # type: ignore[arg-type]
                _CHANGE_COLUMNS,
                (None, c.at, c.round_number, c.action, c.message, c.facts, c.summary, c.data),
                dialect,
            )[1:]
            for c in g.changes
        ]
        n = len(g.players)
        self.results = [
            list(
                zip(
                    range(n),
                    r.bids,
                    r.tricks,
                    r.scores or (None,) * n,
                    r.totals or (None,) * n,
                    strict=True,
                )
            )
            for r in g.rounds
        ]


def _convert(table: Table, columns: Sequence[str], row: Row, dialect: Dialect) -> Row:
    """``row`` (values of ``columns``) as the database driver takes it."""
    values = list(row)
    for index, name in enumerate(columns):
        convert = _converter(table.c[name].type, dialect)
        if convert is not None:
            values[index] = convert(values[index])
    return tuple(values)


_converters: dict[tuple[int, str], Any] = {}


def _converter(type_: Any, dialect: Dialect) -> Any:
    key = (id(type_), dialect.name)
    if key not in _converters:
        _converters[key] = type_.dialect_impl(dialect).bind_processor(dialect)
    return _converters[key]


def _store_all(games: list[_Prepared], circle_id: int) -> int:
    """Store the games not yet on the server, with their statistics (flushed; the
    transaction's owner commits them); returns how many."""
    existing = _existing([g.public_id for g in games])
    fresh = [g for g in games if g.public_id not in existing]
    if fresh:
        game_service.check_room(circle_id, len(fresh))
        all_names = {k: n for g in fresh for k, n in zip(g.keys, g.players, strict=True)}
        ids = {p.key: p for p in player_service.get_or_create(list(all_names.values()), circle_id)}
        db.session.flush()  # the new players get their ids
        players = {key: p.id for key, p in ids.items()}
        tally = _Tally()
        for start in range(0, len(fresh), STORE_BATCH):
            _store_batch(fresh[start : start + STORE_BATCH], players, circle_id, tally)
        tally.store()
        # The new games rate in order of play among those already here: from the
        # first of them to finish on, the circle's ratings are made again.
        ends = [g.finished_at for g in fresh if g.finished_at is not None]
        if ends:
            db.session.flush()
            ratings.replay(db.session.connection(), circle_id, (min(ends), 0))
    db.session.flush()
    return len(fresh)


def _existing(public_ids: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(public_ids), _IN_MAX):
        chunk = public_ids[start : start + _IN_MAX]
        found.update(db.session.scalars(select(Game.public_id).where(Game.public_id.in_(chunk))))
    return found


def _executemany(statement: Any, columns: Sequence[str], rows: list[Row]) -> None:
    """Run ``statement`` (an INSERT) once for each of ``rows``, values of ``columns`` as the
    driver takes them, by the driver's executemany, in the session's transaction: a
    quarter of what SQLAlchemy's handling of every row's parameters costs."""
    if not rows:
        return
    connection = db.session.connection()
    compiled = statement.values({n: bindparam(n) for n in columns}).compile(
        dialect=connection.dialect
    )
    order = compiled.positiontup
    params: list[Any]
    if order is None:  # named parameters (psycopg)
        params = [dict(zip(columns, r, strict=True)) for r in rows]
    elif list(order) == list(columns):
        params = rows
    else:
        at = [list(columns).index(n) for n in order]
        params = [tuple(r[i] for i in at) for r in rows]
    connection.exec_driver_sql(compiled.string, params)


def _store_batch(
    games: list[_Prepared], players: dict[str, int], circle_id: int, tally: _Tally
) -> None:
    """Store games with bulk inserts: the games, then the seats, rounds, changes and round
    lines of them all at once."""
    _executemany(insert(Game), _GAME_COLUMNS, [(circle_id, *g.game) for g in games])
    wanted = [g.public_id for g in games]
    ids = {
        public_id: game_id
        for public_id, game_id in db.session.execute(
            select(Game.public_id, Game.id).where(Game.public_id.in_(wanted))
        )
    }
    seats: list[Row] = []
    rounds: list[Row] = []
    changes: list[Row] = []
    for g in games:
        game_id = ids[g.public_id]
        who = [players[key] for key in g.keys]
        seats.extend((game_id, p, *row) for p, row in zip(who, g.seats, strict=True))
        rounds.extend((game_id, *row) for row in g.rounds)
        changes.extend((game_id, *row) for row in g.changes)
        for player_id, summary in zip(who, g.summaries, strict=True):
            tally.add_cards(player_id, summary.by_cards)
            tally.add_positions(player_id, summary.by_position)
        tally.add_rivalries(
            stats.rivalries([(p, s.total, s.won) for p, s in zip(who, g.summaries, strict=True)])
        )
    _executemany(insert(Seat), _SEAT_COLUMNS, seats)
    _executemany(insert(Round), _ROUND_COLUMNS, rounds)
    _executemany(insert(Change), _CHANGE_COLUMNS, changes)
    round_ids = {
        (game_id, number): round_id
        for round_id, game_id, number in db.session.execute(
            select(Round.id, Round.game_id, Round.number).where(Round.game_id.in_(ids.values()))
        )
    }
    results: list[Row] = []
    for g in games:
        game_id = ids[g.public_id]
        who = [players[key] for key in g.keys]
        for number, lines in enumerate(g.results, start=1):
            round_id = round_ids[(game_id, number)]
            results.extend((round_id, who[line[0]], *line) for line in lines)
    _executemany(insert(RoundResult), _RESULT_COLUMNS, results)


class _Tally:
    """What the imported games add to the players' by-cards counts and head-to-head
    records, summed in memory and added to the tables at once (one upsert each)."""

    def __init__(self) -> None:
        self.cards: dict[tuple[int, int], list[int]] = {}
        self.positions: dict[tuple[int, int], list[int]] = {}
        self.pairs: dict[tuple[int, int], list[int]] = {}

    @staticmethod
    def _add(into: dict[tuple[int, int], list[int]], player_id: int, counts: Any) -> None:
        for key, *numbers in counts:
            line = into.setdefault((player_id, key), [0] * len(numbers))
            for i, n in enumerate(numbers):
                line[i] += n

    def add_cards(self, player_id: int, by_cards: Iterable[Sequence[int]]) -> None:
        self._add(self.cards, player_id, by_cards)

    def add_positions(self, player_id: int, by_position: Iterable[Sequence[int]]) -> None:
        self._add(self.positions, player_id, by_position)

    def add_rivalries(self, pairs: Iterable[stats.Pair]) -> None:
        for player, other, *counts in pairs:
            line = self.pairs.setdefault((player, other), [0, 0, 0, 0])
            for i, c in enumerate(counts):
                line[i] += c

    def store(self) -> None:
        # In key order, so that two writers of the same rows never wait for each other
        # in a circle (PostgreSQL).
        _add_up(
            PlayerCards.__table__,  # type: ignore[arg-type]
            ("player_id", "cards"),
            ("rounds", "exact"),
            [(p, c, r, e) for (p, c), (r, e) in sorted(self.cards.items()) if r or e],
        )
        _add_up(
            PlayerPosition.__table__,  # type: ignore[arg-type]
            ("player_id", "position"),
            ("rounds", "points", "bid_rounds", "exact"),
            [(p, k, *n) for (p, k), n in sorted(self.positions.items()) if any(n)],
        )
        _add_up(
            Rivalry.__table__,  # type: ignore[arg-type]
            ("player_id", "other_id"),
            ("games", "ahead", "behind", "level"),
            [(p, o, *counts) for (p, o), counts in sorted(self.pairs.items()) if any(counts)],
        )


# The app runs on SQLite and PostgreSQL: both add to a row that is there in one INSERT.
_UPSERTS: dict[str, Any] = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def _add_up(table: Table, keys: tuple[str, ...], counts: tuple[str, ...], rows: list[Row]) -> None:
    """Insert the rows (values of ``keys`` then ``counts``, whole numbers), or add their
    counts to the rows already there with those keys: one statement for them all
    (``INSERT … ON CONFLICT DO UPDATE``)."""
    upsert: Any = _UPSERTS[db.engine.dialect.name]
    statement = upsert(table)
    statement = statement.on_conflict_do_update(
        index_elements=[table.c[k] for k in keys],
        set_={c: table.c[c] + statement.excluded[c] for c in counts},
    )
    _executemany(statement, keys + counts, rows)
