"""Export and import: a game as JSON or CSV, the whole history as one JSON file, and the
import of such a file (restore, or moving to another server).

The history file::

    {"format": "scorekeeper-history", "version": 1, "games": [GAME, ...]}

and a GAME (also what a single game's JSON download holds, under ``"game"``)::

    {"public_id", "mode", "created_at", "updated_at", "finished_at", "scorer_token_hash",
     "players": [names in seat order], "first_dealer", "rules": {...},
     "rounds": [{"number", "cards", "dealer", "trump", "complete",
                 "bids", "tricks", "scores", "totals",
                 "adjustments": [{"seat", "points", "reason"}] (only when given)}],
     "changes": [{"at", "round_number", "action", "message", "facts", "summary", "data"}]}

A change's ``message`` and ``facts`` say what it says (worded in the reader's language);
files written before they existed carry only the English ``summary``, which is shown then.

The history file has one game a line. Its export streams (:func:`history_chunks`): the
games are read in batches, each batch from one consistent state of the database, and
written out piece by piece, so a long history costs the same memory as a short one.

Import checks the whole file before it stores anything: every identifier as strictly as
the app makes new ones (a public id is what ``secrets.token_urlsafe(16)`` makes, a mode
one the app knows, texts and numbers within what the app writes, times plausible), and
every round against its rule set. A bad file is refused with a message naming the game,
round or change, and leaves the database as it was. The check writes nothing and gives
the write turn up meanwhile (:func:`scorekeeper.writers.aside`); the games are then
stored in one short transaction of bulk inserts, the statistics summed in memory and
added once. A game whose public id is already on this server is skipped (and counted),
so restoring the same backup twice, or into a server that has some of its games, is safe.
Players are matched by name within the circle, as when a game is set up. One game's JSON
download (``{"format": "scorekeeper-game", "version": 1, "game": GAME}``) imports the
same way; it carries no scorer secret, so such a game is read-only on the server it moves
to. A digital game imports as its score pad: the table (hands, seat links) is not in the
file, so it can be followed and printed, not played on.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Dialect, Engine, Table, bindparam, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from scorekeeper import engine, i18n, writers
from scorekeeper.engine import RoundEntry, RuleSet, TrumpCall
from scorekeeper.extensions import db
from scorekeeper.i18n import _, _n, rule_message
from scorekeeper.limits import NotText, load_json
from scorekeeper.models import (
    Change,
    Game,
    Player,
    PlayerCards,
    Rivalry,
    Round,
    RoundResult,
    Seat,
    utcnow,
)
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import stats
from scorekeeper.services.errors import Rejected

FORMAT = "scorekeeper-history"
GAME_FORMAT = "scorekeeper-game"
VERSION = 1
_CHANGE_CORRECTED = "round_corrected"

# What the app itself makes, and so all an imported file may hold.
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16), as games get
PUBLIC_ID_LENGTH = 22  # (no route word such as "new" has 22 characters)
MODES = ("pad", "digital")
SCORER_HASH = re.compile(r"[0-9a-f]{64}")  # SHA-256 of the scorer token
ACTION = re.compile(r"[a-z_]{1,20}")
# The longest summary the app writes is a correction of every seat of six players with
# 40-character names (about 750 characters); data is at most a rule set and the names.
SUMMARY_MAX = 1000
DATA_MAX = 2000  # characters of the change's data as compact JSON
CHANGES_MAX = 5000  # per game: every tap of a long game, corrections included
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(days=1)  # another server's clock may run ahead of ours

EXPORT_BATCH = 200  # games read at a time by the export
STORE_BATCH = 500  # games stored by one round of bulk inserts
_IN_MAX = 500  # values in one IN (...) list

# -- export ----------------------------------------------------------------------------------


def _stamp(value: datetime | None) -> str | None:
    """ISO 8601 in UTC. SQLite hands back naive datetimes: those were stored in UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.isoformat() + "+00:00"
    return value.astimezone(UTC).isoformat()


def _masked(rules: RuleSet, dealer: int, bids: Sequence[int | None], complete: bool) -> bool:
    """V3/V4: a round's bids are left out of an export until they may be seen by all,
    as on the pad (engine.bids_seen)."""
    if not bids:
        return False
    bidders = engine.bidders(rules, dealer, len(bids))
    return not engine.bids_seen(rules, bids, bidders, played=complete)


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
    yield ("]" if first else "\n]") + f', "version": {json.dumps(VERSION)}}}\n'


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


# -- import: validation --------------------------------------------------------------------


@dataclass(frozen=True)
class _RoundIn:
    number: int
    cards: int
    dealer: int
    trump: str | None
    complete: bool
    bids: list[int | None]
    tricks: list[int | None]
    scores: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    adjustments: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class _ChangeIn:
    at: datetime
    round_number: int | None
    action: str
    message: str | None
    facts: dict[str, Any] | None
    summary: str
    data: Any


@dataclass(frozen=True)
class _GameIn:
    public_id: str
    mode: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    scorer_token_hash: str
    players: list[str]
    first_dealer: int
    rules: RuleSet
    rounds: list[_RoundIn]
    changes: list[_ChangeIn]
    sheet: engine.Sheet
    summaries: list[stats.SeatSummary]  # each seat's, for the statistics


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


class _Bad(Exception):
    """A problem with the file, already in the reader's words (``what`` names the part of
    the file, e.g. "Round 3: cards", and goes into the sentence as it is)."""


def _bad(message: str) -> _Bad:
    return _Bad(message)


class _Part:
    """A part of the file ("Game 2 (…), change 3: at"), put into words only when a
    problem with it is reported: a good file has none, and translating the name of every
    round and change would cost as much as checking them."""

    __slots__ = ("_words",)

    def __init__(self, words: Callable[[], str]) -> None:
        self._words = words

    def __str__(self) -> str:
        return self._words()

    def field(self, name: str) -> _Part:
        return _Part(lambda: f"{self}: {name}")


What = str | _Part
_SHOWN_MAX = 40


def _shown(value: object) -> str:
    """A value from the file as a message quotes it: at most a few dozen characters."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**_SHOWN_MAX:
        return f"{str(value)[:_SHOWN_MAX]}…"  # repr() of a huge number is refused
    text = repr(value[: _SHOWN_MAX + 1] if isinstance(value, str) else value)
    return text if len(text) <= _SHOWN_MAX else f"{text[:_SHOWN_MAX]}…"


def _obj(value: object, what: What) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(_("%(what)s must be an object.", what=what))
    return value


def _key(data: dict[str, Any], key: str, what: What) -> Any:
    if key not in data:
        raise _bad(_("%(what)s has no %(key)s.", what=what, key=repr(key)))
    return data[key]


def _int(value: object, what: What, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(
            _("%(what)s must be a whole number, not %(value)s.", what=what, value=_shown(value))
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise _bad(_("%(what)s is %(value)s, out of range.", what=what, value=_shown(value)))
    return value


def _str(value: object, what: What, longest: int | None = None) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(_("%(what)s must be a non-empty text.", what=what))
    if longest is not None and len(value) > longest:
        raise _bad(_("%(what)s is longer than %(longest)s characters.", what=what, longest=longest))
    return value


def _text(value: object, what: What, longest: int) -> str:
    """A text as the app writes it: at most ``longest`` characters, no control characters
    (it may be empty)."""
    if not isinstance(value, str):
        raise _bad(_("%(what)s must be a text.", what=what))
    if len(value) > longest:
        raise _bad(_("%(what)s is longer than %(longest)s characters.", what=what, longest=longest))
    if engine.has_control(value):
        raise _bad(_("%(what)s contains control characters.", what=what))
    return value


def _when(value: object, what: What, now: datetime) -> datetime:
    """A time from the file, in UTC; the app never wrote one before 2000 or in the future."""
    if not isinstance(value, str):
        raise _bad(_("%(what)s must be a date and time (ISO 8601).", what=what))
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise _bad(
            _(
                "%(what)s %(value)s is not a date and time (ISO 8601).",
                what=what,
                value=_shown(value),
            )
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    if not EARLIEST <= parsed <= now + CLOCK_SKEW:
        raise _bad(
            _(
                "%(what)s %(value)s is not a plausible time: it must lie between %(earliest)s "
                "and now.",
                what=what,
                value=_shown(value),
                earliest=EARLIEST.date().isoformat(),
            )
        )
    return parsed.astimezone(UTC)


def _seat_list(what: What, n: int) -> _Bad:
    return _bad(
        _("%(what)s must be a list of %(count)s numbers in seat order.", what=what, count=n)
    )


def _int_list(value: object, n: int, what: What, nullable: bool) -> list[int | None]:
    if not isinstance(value, list) or len(value) != n:
        raise _seat_list(what, n)
    for v in value:
        if v is None and nullable:
            continue
        _int(v, what)
    return list(value)


def _ints(value: object, n: int, what: What) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise _seat_list(what, n)
    return tuple(_int(v, what) for v in value)


def _check_round(
    raw: object,
    index: int,
    rules: RuleSet,
    plan: Sequence[int],
    dealer_expected: int,
    totals_before: tuple[int, ...],
    names: list[str],
    corrected_before: int | None,
) -> tuple[_RoundIn, RoundEntry]:
    number = index + 1
    n = len(names)
    where = _Part(lambda: _("Round %(number)s", number=number))
    data = _obj(raw, where)
    if _key(data, "number", where) != number:
        raise _bad(
            _(
                "%(where)s is numbered %(value)s: rounds must be 1, 2, 3, … in order.",
                where=where,
                value=_shown(data["number"]),
            )
        )
    cards = _int(_key(data, "cards", where), where.field("cards"))
    if cards != plan[index]:
        raise _bad(
            _n(
                "%(where)s has %(num)s card, but this rule set deals %(dealt)s.",
                "%(where)s has %(num)s cards, but this rule set deals %(dealt)s.",
                cards,
                where=where,
                dealt=plan[index],
            )
        )
    dealer = _int(_key(data, "dealer", where), where.field("dealer"))
    if dealer != dealer_expected:
        raise _bad(
            _(
                "%(where)s: the dealer is seat %(dealer)s, but the deal passes to seat "
                "%(expected)s.",
                where=where,
                dealer=dealer,
                expected=dealer_expected,
            )
        )
    trump_raw = _key(data, "trump", where)
    try:
        trump = None if trump_raw is None else TrumpCall.parse(trump_raw)
    except ValueError:
        raise _bad(
            _(
                "%(where)s: the trump %(value)s is not a suit, 'none' or 'wizard:<suit>'.",
                where=where,
                value=_shown(trump_raw),
            )
        ) from None
    complete = _key(data, "complete", where)
    if not isinstance(complete, bool):
        raise _bad(_("%(where)s: 'complete' must be true or false.", where=where))
    bids = _int_list(_key(data, "bids", where), n, where.field("bids"), nullable=True)
    tricks = _int_list(_key(data, "tricks", where), n, where.field("tricks"), nullable=not complete)
    adjustments = _adjustments(data.get("adjustments"), n, complete, where)
    entry = RoundEntry(
        tuple(bids),
        tuple(t for t in tricks if t is not None) if complete else None,
        trump,
        tuple(engine.Adjustment(a["seat"], a["points"], a["reason"]) for a in adjustments),
    )
    try:
        engine.check_entry(
            rules,
            entry,
            round_number=number,
            cards=cards,
            dealer=dealer,
            totals_before=totals_before,
            names=names,
        )
    except engine.IllegalBid as exc:
        # P2: a later round stays as played after a correction before it, even if the
        # dealer rule would now refuse it; the change log shows that correction.
        if not (
            exc.code == "bids_equal_tricks"
            and corrected_before is not None
            and corrected_before < number
        ):
            raise _breaks(where, exc, names) from None
    except ValueError as exc:
        raise _breaks(where, exc, names) from None
    if not complete:
        tapped = [t for t in tricks if t is not None]
        if any(not 0 <= t <= cards for t in tapped) or sum(tapped) > cards:
            raise _bad(
                _n(
                    "%(where)s: the tricks entered so far do not fit %(num)s card.",
                    "%(where)s: the tricks entered so far do not fit %(num)s cards.",
                    cards,
                    where=where,
                )
            )
    scores = totals = None
    if complete:
        scores = _ints(_key(data, "scores", where), n, where.field("scores"))
        totals = _ints(_key(data, "totals", where), n, where.field("totals"))
    elif data.get("scores") is not None or data.get("totals") is not None:
        raise _bad(_("%(where)s is not complete, so it has no scores or totals.", where=where))
    # Stored as the app writes it ("wizard:red", not " Wizard:RED  ").
    stored_trump = None if trump is None else str(trump)
    return (
        _RoundIn(
            number,
            cards,
            dealer,
            stored_trump,
            complete,
            bids,
            tricks,
            scores,
            totals,
            adjustments or None,
        ),
        entry,
    )


def _adjustments(raw: object, players: int, complete: bool, where: Any) -> list[dict[str, Any]]:
    """A round's bonuses and penalties from the file (none when the key is missing), each
    as the engine takes it, for a played round only."""
    if raw is None:
        return []
    field = where.field("adjustments")
    if not isinstance(raw, list) or len(raw) > engine.ADJUSTMENTS_MAX:
        raise _bad(
            _(
                "%(where)s must be a list of at most %(most)s.",
                where=field,
                most=engine.ADJUSTMENTS_MAX,
            )
        )
    if raw and not complete:
        raise _bad(_("%(where)s: a round not played has no bonus or penalty.", where=where))
    out = []
    for item in raw:
        if not isinstance(item, dict) or set(item) - {"seat", "points", "reason"}:
            raise _bad(_("%(where)s: each is {seat, points, reason}.", where=field))
        given: dict[str, Any] = {
            "seat": item.get("seat"),
            "points": item.get("points"),
            "reason": item.get("reason", ""),
        }
        try:
            engine.check_adjustment(engine.Adjustment(**given), players)
        except ValueError as exc:
            raise _bad(
                _("%(where)s: %(problem)s", where=field, problem=rule_message(exc))
            ) from None
        out.append(given)
    return out


def _figure(value: int) -> str:
    """A number from the file as a message quotes it: in the reader's format, but never
    thousands of digits."""
    return i18n.number(value) if abs(value) < 10**_SHOWN_MAX else _shown(value)


def _not_adding_up(
    what: What,
    rnd: _RoundIn,
    scores: Sequence[int],
    totals: Sequence[int],
    names: list[str],
) -> str:
    """What differs in a round whose scores or totals are not the rules': the first
    player whose score differs (the cause; a total after it follows from it), else the
    first whose total does, with the file's value and the rules'."""
    file_scores, file_totals = rnd.scores or (), rnd.totals or ()
    for seat, (said, right) in enumerate(zip(file_scores, scores, strict=True)):
        if said != right:
            return _(
                "%(what)s: round %(number)s, %(name)s: the file says score %(file)s, the "
                "rules give %(rules)s.",
                what=what,
                number=rnd.number,
                name=names[seat],
                file=_figure(said),
                rules=_figure(right),
            )
    seat, said, right = next(
        (s, a, b) for s, (a, b) in enumerate(zip(file_totals, totals, strict=True)) if a != b
    )
    return _(
        "%(what)s: round %(number)s, %(name)s: the file says total %(file)s, the rules "
        "give %(rules)s.",
        what=what,
        number=rnd.number,
        name=names[seat],
        file=_figure(said),
        rules=_figure(right),
    )


def _breaks(where: What, exc: ValueError, names: list[str]) -> _Bad:
    """A round the engine refuses, with the engine's reason in the reader's words."""
    return _bad(
        _("%(where)s breaks the rule set: %(reason)s", where=where, reason=rule_message(exc, names))
    )


def _within(where: What, problem: object) -> _Bad:
    """A problem inside a part of the file: "Game 1 (…): Round 3 has …"."""
    return _bad(_("%(where)s: %(problem)s", where=where, problem=str(problem)))


def _check_public_id(value: object, game: What) -> str:
    if not isinstance(value, str) or not PUBLIC_ID.fullmatch(value):
        raise _bad(
            _(
                "%(game)s: the public id %(value)s is not one this app makes: "
                "%(length)s letters, digits, “-” or “_”.",
                game=game,
                value=_shown(value),
                length=PUBLIC_ID_LENGTH,
            )
        )
    return value


def _change_part(game: _Part, number: int) -> _Part:
    return _Part(lambda: _("%(game)s, change %(number)s", game=game, number=number))


def _check_changes(raw: object, what: _Part, plan_length: int, now: datetime) -> list[_ChangeIn]:
    if not isinstance(raw, list):
        raise _bad(_("%(what)s: changes must be a list.", what=what))
    if len(raw) > CHANGES_MAX:
        raise _bad(
            _(
                "%(what)s has %(count)s changes; a game has at most %(most)s.",
                what=what,
                count=len(raw),
                most=CHANGES_MAX,
            )
        )
    changes = []
    for i, c_raw in enumerate(raw):
        cw = _change_part(what, i + 1)
        c = _obj(c_raw, cw)
        for key in ("at", "round_number", "action", "summary", "data"):
            _key(c, key, cw)
        rn = c["round_number"]
        action = _str(c["action"], cw.field("action"), 20)
        if not ACTION.fullmatch(action):
            raise _bad(
                _(
                    "%(what)s %(value)s is not the name of a change: lowercase letters and “_”.",
                    what=cw.field("action"),
                    value=_shown(action),
                )
            )
        data = _json_object(c["data"], cw.field("data"))
        message = c.get("message")
        if message is not None and (
            not isinstance(message, str) or message not in i18n.LOG_MESSAGES
        ):
            raise _bad(
                _(
                    "%(what)s %(value)s is not a change this app writes.",
                    what=cw.field("message"),
                    value=_shown(message),
                )
            )
        facts = _json_object(c.get("facts"), cw.field("facts"))
        if (message is None) != (facts is None):
            raise _bad(_("%(what)s: a message comes with its facts.", what=cw))
        changes.append(
            _ChangeIn(
                _when(c["at"], cw.field("at"), now),
                None if rn is None else _int(rn, cw.field("round_number"), 1, plan_length),
                action,
                message,
                facts,
                _text(c["summary"], cw.field("summary"), SUMMARY_MAX),
                data,
            )
        )
    return changes


def _json_object(value: object, what: What) -> dict[str, Any] | None:
    """An object (or null) of at most ``DATA_MAX`` characters as compact JSON."""
    if value is not None and not isinstance(value, dict):
        raise _bad(_("%(what)s must be an object or null.", what=what))
    if value is not None and len(json.dumps(value, ensure_ascii=False)) > DATA_MAX:
        raise _bad(
            _("%(what)s is longer than %(longest)s characters.", what=what, longest=DATA_MAX)
        )
    return value


def _check_game(raw: object, index: int, now: datetime, single: bool = False) -> _GameIn:
    game = _Part(lambda: _("Game %(number)s", number=index + 1))
    data = _obj(raw, game)
    if single and "scorer_token_hash" not in data:
        # A single game's download carries no scorer secret: the imported game gets a
        # new one that nobody holds, so it is read-only here.
        data = {**data, "scorer_token_hash": secrets.token_hex(32)}
    public_id = _check_public_id(_key(data, "public_id", game), game)
    what = _Part(lambda: _("Game %(number)s (%(id)s)", number=index + 1, id=public_id))
    for key in (
        "mode",
        "created_at",
        "updated_at",
        "finished_at",
        "scorer_token_hash",
        "players",
        "first_dealer",
        "rules",
        "rounds",
        "changes",
    ):
        _key(data, key, what)
    mode = data["mode"]
    if mode not in MODES:
        raise _bad(
            _(
                "%(what)s: the mode %(value)s is not one this app knows: 'pad' or 'digital'.",
                what=what,
                value=_shown(mode),
            )
        )
    created_at = _when(data["created_at"], what.field("created_at"), now)
    updated_at = _when(data["updated_at"], what.field("updated_at"), now)
    finished_raw = data["finished_at"]
    finished_at = (
        None if finished_raw is None else _when(finished_raw, what.field("finished_at"), now)
    )
    token_hash = data["scorer_token_hash"]
    if not isinstance(token_hash, str) or not SCORER_HASH.fullmatch(token_hash):
        raise _bad(
            _(
                "%(what)s: scorer_token_hash must be 64 hexadecimal digits, as the app stores it.",
                what=what,
            )
        )
    players_raw = data["players"]
    if not isinstance(players_raw, list):
        raise _bad(_("%(what)s: players must be a list of names.", what=what))
    try:
        rules = RuleSet.from_dict(data["rules"])
        rules.check_players(len(players_raw))
    except (ValueError, TypeError) as exc:
        raise _within(what, rule_message(exc)) from None
    try:
        names = [player_service.clean_name(n) for n in players_raw]
    except Rejected as exc:
        raise _within(what, exc.message) from None
    if names != players_raw:
        raise _bad(
            _("%(what)s: player names must be stored trimmed, as the app writes them.", what=what)
        )
    keys = [player_service.name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        raise _bad(_("%(what)s: a player is at the table twice.", what=what))
    n = len(names)
    first_dealer = _int(data["first_dealer"], what.field("first_dealer"), 0, n - 1)
    plan = engine.plan_for(rules, n)

    changes = _check_changes(data["changes"], what, len(plan), now)
    corrected = [
        c.round_number
        for c in changes
        if c.action == _CHANGE_CORRECTED and c.round_number is not None
    ]

    rounds_raw = data["rounds"]
    if not isinstance(rounds_raw, list):
        raise _bad(_("%(what)s: rounds must be a list.", what=what))
    if len(rounds_raw) > len(plan):
        raise _bad(
            _(
                "%(what)s has %(count)s rounds, but the plan has %(plan)s.",
                what=what,
                count=len(rounds_raw),
                plan=len(plan),
            )
        )
    rounds: list[_RoundIn] = []
    entries: list[RoundEntry] = []
    totals = (0,) * n
    for i, r_raw in enumerate(rounds_raw):
        if rounds and not rounds[-1].complete:
            raise _bad(
                _(
                    "%(what)s: round %(number)s is not complete, but a later round is recorded.",
                    what=what,
                    number=i,
                )
            )
        number = i + 1
        earlier = min((c for c in corrected if c < number), default=None)
        dealer = engine.dealer_of_round(first_dealer, number, n)
        try:
            rnd, entry = _check_round(r_raw, i, rules, plan, dealer, totals, names, earlier)
            scores = engine.round_scores(rules, dealer, entry) if rnd.complete else None
        except _Bad as exc:
            raise _within(what, exc) from None
        except ValueError as exc:
            raise _within(what, _breaks(_("Round %(number)s", number=number), exc, names)) from None
        entries.append(entry)
        if scores is not None:
            extra = [0] * n
            for a in entry.adjustments:
                extra[a.seat] += a.points
            totals = tuple(t + s + x for t, s, x in zip(totals, scores, extra, strict=True))
            if rnd.scores != scores or rnd.totals != totals:
                raise _bad(_not_adding_up(what, rnd, scores, totals, names))
        rounds.append(rnd)
    sheet = engine.score_sheet(rules, n, first_dealer, entries)
    if sheet.finished != (finished_at is not None):
        if sheet.finished:
            message = _(
                "%(what)s: the rounds say the game is finished, but finished_at disagrees.",
                what=what,
            )
        else:
            message = _(
                "%(what)s: the rounds say the game is not finished, but finished_at disagrees.",
                what=what,
            )
        raise _bad(message)
    return _GameIn(
        public_id,
        mode,
        created_at,
        updated_at,
        finished_at,
        token_hash,
        names,
        first_dealer,
        rules,
        rounds,
        changes,
        sheet,
        stats.seat_summaries(sheet),
    )


def _not_a_number(name: str) -> None:
    raise ValueError(_("%(name)s is not a JSON number", name=name))


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when too large to be a number
    (``1e999``): the app writes none, and the database's JSON would not take it."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(_("%(number)s is too large a number", number=text))
    return value


def parse_history(text: str | bytes) -> list[_GameIn]:
    """Check a history file (or one game's JSON download) through and through.

    :raises Rejected: naming the first problem (which game, which round).
    """
    try:
        # Nesting checked before parsing (Python's parser recurses per level), text after.
        data = load_json(text, parse_constant=_not_a_number, parse_float=_finite)
    # Said in the reader's words, not the parser's (a Python message means nothing here).
    except (NotText, UnicodeDecodeError):
        raise Rejected(
            _("The file is not text: choose the .json file a Scorekeeper export made."),
            "bad_file",
        ) from None
    except json.JSONDecodeError as exc:
        raise Rejected(
            _(
                "The file is not valid JSON (line %(line)s, column %(column)s): choose the "
                ".json file a Scorekeeper export made.",
                line=exc.lineno,
                column=exc.colno,
            ),
            "bad_file",
        ) from None
    except ValueError as exc:
        # Too deep, half a character, too large a number: the app's words already; a
        # number too long for Python to read says why in its own.
        error = str(exc)
        if "integer string conversion" in error:
            error = _("a number in it is too long")
        raise Rejected(
            _("The file is not valid JSON: %(error)s.", error=error), "bad_file"
        ) from None
    now = datetime.now(UTC)
    try:
        the_file = _("The file")
        top = _obj(data, the_file)
        single = top.get("format") == GAME_FORMAT
        if top.get("format") not in (FORMAT, GAME_FORMAT):
            raise _bad(
                _(
                    "This is not a Scorekeeper history file (format %(format)s).",
                    format=_shown(top.get("format")),
                )
            )
        version = top.get("version")
        if version != VERSION:
            raise _bad(
                _(
                    "The file is format version %(version)s; this server reads version "
                    "%(supported)s.",
                    version=_shown(version),
                    supported=VERSION,
                )
            )
        games_raw = [_key(top, "game", the_file)] if single else _key(top, "games", the_file)
        if not isinstance(games_raw, list):
            raise _bad(_("The file's 'games' must be a list."))
        games = [_check_game(g, i, now, single) for i, g in enumerate(games_raw)]
        seen: set[str] = set()
        for g in games:
            if g.public_id in seen:
                raise _bad(_("Game %(id)s is in the file twice.", id=g.public_id))
            seen.add(g.public_id)
    except _Bad as exc:
        raise Rejected(str(exc), "bad_file") from None
    return games


# -- import: storing -----------------------------------------------------------------------


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

    def __init__(self, g: _GameIn, dialect: Dialect) -> None:
        self.public_id = g.public_id
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
        self.pairs: dict[tuple[int, int], list[int]] = {}

    def add_cards(self, player_id: int, by_cards: Iterable[Sequence[int]]) -> None:
        for cards, rounds, exact in by_cards:
            line = self.cards.setdefault((player_id, cards), [0, 0])
            line[0] += rounds
            line[1] += exact

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
