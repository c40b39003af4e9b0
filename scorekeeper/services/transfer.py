"""Export and import: a game as JSON or CSV, the whole history as one JSON file, and the
import of such a file (restore, or moving to another server).

The history file::

    {"format": "scorekeeper-history", "version": 1, "games": [GAME, ...]}

and a GAME (also what a single game's JSON download holds, under ``"game"``)::

    {"public_id", "mode", "created_at", "updated_at", "finished_at", "scorer_token_hash",
     "players": [names in seat order], "first_dealer", "rules": {...},
     "rounds": [{"number", "cards", "dealer", "trump", "complete",
                 "bids", "tricks", "scores", "totals"}],
     "changes": [{"at", "round_number", "action", "summary", "data"}]}

Import checks the whole file before it stores anything, and stores it in one transaction:
a bad file is refused with a message naming the game and round, and leaves the database
as it was. A game whose public id is already on this server is skipped (and counted), so
restoring the same backup twice, or into a server that has some of its games, is safe.
Players are matched by name, as when a game is set up. One game's JSON download
(``{"format": "scorekeeper-game", "version": 1, "game": GAME}``) imports the same way; it
carries no scorer secret, so such a game is read-only on the server it moves to.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper import engine
from scorekeeper.engine import Bidding, RoundEntry, RuleSet, TrumpCall
from scorekeeper.extensions import db
from scorekeeper.i18n import _, _n, rule_message
from scorekeeper.models import Change, Game, Player, Round, RoundResult, Seat
from scorekeeper.services import idempotency, stats
from scorekeeper.services import players as player_service
from scorekeeper.services.errors import Rejected

FORMAT = "scorekeeper-history"
GAME_FORMAT = "scorekeeper-game"
VERSION = 1
_CHANGE_CORRECTED = "round_corrected"

# -- export ----------------------------------------------------------------------------------


def _stamp(value: datetime | None) -> str | None:
    """ISO 8601 in UTC. SQLite hands back naive datetimes: those were stored in UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def _masked(game: Game, rnd: Round) -> bool:
    """V3/V4: the open round's bids are not shown outside the table before their time."""
    bidding = game.rules.get("bidding", "open")
    return not rnd.complete and bidding != Bidding.OPEN.value


def game_data(game: Game, *, reveal_open_bids: bool = True) -> dict[str, Any]:
    """The game as plain JSON-ready data (see the module docstring).

    With ``reveal_open_bids=False`` (downloads from the web) the bids of an open round under
    hidden or secret bids are left out (``null``), as on every page.
    """
    rounds = []
    for rnd in game.rounds:
        masked = not reveal_open_bids and _masked(game, rnd)
        rounds.append(
            {
                "number": rnd.number,
                "cards": rnd.cards,
                "dealer": rnd.dealer,
                "trump": rnd.trump,
                "complete": rnd.complete,
                "bids": [None if masked else r.bid for r in rnd.results],
                "tricks": [r.tricks for r in rnd.results],
                "scores": [r.score for r in rnd.results] if rnd.complete else None,
                "totals": [r.total for r in rnd.results] if rnd.complete else None,
            }
        )
    return {
        "public_id": game.public_id,
        "mode": game.mode,
        "created_at": _stamp(game.created_at),
        "updated_at": _stamp(game.updated_at),
        "finished_at": _stamp(game.finished_at),
        "scorer_token_hash": game.scorer_token_hash,
        "players": [s.player.name for s in game.seats],
        "first_dealer": game.first_dealer,
        "rules": game.rules,
        "rounds": rounds,
        "changes": [
            {
                "at": _stamp(c.at),
                "round_number": c.round_number,
                "action": c.action,
                "summary": c.summary,
                "data": c.data,
            }
            for c in game.changes
        ],
    }


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def game_json(game: Game, *, reveal_open_bids: bool = False) -> str:
    """One game's JSON file (a download: no scorer secret in it)."""
    data = game_data(game, reveal_open_bids=reveal_open_bids)
    del data["scorer_token_hash"]
    return _dump({"format": GAME_FORMAT, "version": VERSION, "game": data})


def history_data(*, reveal_open_bids: bool = True) -> dict[str, Any]:
    """Every game, oldest first, in four queries."""
    games = db.session.scalars(
        select(Game)
        .options(selectinload(Game.seats), selectinload(Game.rounds), selectinload(Game.changes))
        .order_by(Game.created_at, Game.id)
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "games": [game_data(g, reveal_open_bids=reveal_open_bids) for g in games],
    }


def history_json(*, reveal_open_bids: bool = True) -> str:
    """The whole history as one JSON file (the backup)."""
    return _dump(history_data(reveal_open_bids=reveal_open_bids))


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
    "total",
]


def game_csv(game: Game) -> str:
    """The game's rounds as CSV: one line per round and player."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    names = [s.player.name for s in game.seats]
    for rnd in game.rounds:
        masked = _masked(game, rnd)
        for r in rnd.results:
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


@dataclass(frozen=True)
class _ChangeIn:
    at: datetime
    round_number: int | None
    action: str
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


def _obj(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(_("%(what)s must be an object.", what=what))
    return value


def _key(data: dict[str, Any], key: str, what: str) -> Any:
    if key not in data:
        raise _bad(_("%(what)s has no %(key)s.", what=what, key=repr(key)))
    return data[key]


def _int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(
            _("%(what)s must be a whole number, not %(value)s.", what=what, value=repr(value))
        )
    if (low is not None and value < low) or (high is not None and value > high):
        raise _bad(_("%(what)s is %(value)s, out of range.", what=what, value=value))
    return value


def _str(value: object, what: str, longest: int | None = None) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(_("%(what)s must be a non-empty text.", what=what))
    if longest is not None and len(value) > longest:
        raise _bad(_("%(what)s is longer than %(longest)s characters.", what=what, longest=longest))
    return value


def _when(value: object, what: str) -> datetime:
    if not isinstance(value, str):
        raise _bad(_("%(what)s must be a date and time (ISO 8601).", what=what))
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise _bad(
            _("%(what)s %(value)s is not a date and time (ISO 8601).", what=what, value=repr(value))
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def _seat_list(what: str, n: int) -> _Bad:
    return _bad(
        _("%(what)s must be a list of %(count)s numbers in seat order.", what=what, count=n)
    )


def _int_list(value: object, n: int, what: str, nullable: bool) -> list[int | None]:
    if not isinstance(value, list) or len(value) != n:
        raise _seat_list(what, n)
    for v in value:
        if v is None and nullable:
            continue
        _int(v, what)
    return list(value)


def _ints(value: object, n: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise _seat_list(what, n)
    return tuple(_int(v, what) for v in value)


def _check_round(
    raw: object,
    index: int,
    rules: RuleSet,
    n: int,
    sheet: engine.Sheet,
    names: list[str],
    corrected_before: int | None,
) -> tuple[_RoundIn, RoundEntry]:
    number = index + 1
    where = _("Round %(number)s", number=number)
    data = _obj(raw, where)
    if _key(data, "number", where) != number:
        raise _bad(
            _(
                "%(where)s is numbered %(value)s: rounds must be 1, 2, 3, … in order.",
                where=where,
                value=repr(data["number"]),
            )
        )
    cards = _int(_key(data, "cards", where), f"{where}: cards")
    if cards != sheet.plan[index]:
        raise _bad(
            _n(
                "%(where)s has %(num)s card, but this rule set deals %(dealt)s.",
                "%(where)s has %(num)s cards, but this rule set deals %(dealt)s.",
                cards,
                where=where,
                dealt=sheet.plan[index],
            )
        )
    dealer = _int(_key(data, "dealer", where), f"{where}: dealer")
    if dealer != sheet.dealer(number):
        raise _bad(
            _(
                "%(where)s: the dealer is seat %(dealer)s, but the deal passes to seat "
                "%(expected)s.",
                where=where,
                dealer=dealer,
                expected=sheet.dealer(number),
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
                value=repr(trump_raw),
            )
        ) from None
    complete = _key(data, "complete", where)
    if not isinstance(complete, bool):
        raise _bad(_("%(where)s: 'complete' must be true or false.", where=where))
    bids = _int_list(_key(data, "bids", where), n, f"{where}: bids", nullable=True)
    tricks = _int_list(_key(data, "tricks", where), n, f"{where}: tricks", nullable=not complete)
    entry = RoundEntry(
        tuple(bids),
        tuple(t for t in tricks if t is not None) if complete else None,
        trump,
    )
    totals_before = sheet.totals_before(number)
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
        scores = _ints(_key(data, "scores", where), n, f"{where}: scores")
        totals = _ints(_key(data, "totals", where), n, f"{where}: totals")
    elif data.get("scores") is not None or data.get("totals") is not None:
        raise _bad(_("%(where)s is not complete, so it has no scores or totals.", where=where))
    return (
        _RoundIn(number, cards, dealer, trump_raw, complete, bids, tricks, scores, totals),
        entry,
    )


def _breaks(where: str, exc: ValueError, names: list[str]) -> _Bad:
    """A round the engine refuses, with the engine's reason in the reader's words."""
    return _bad(
        _("%(where)s breaks the rule set: %(reason)s", where=where, reason=rule_message(exc, names))
    )


def _within(where: str, problem: object) -> _Bad:
    """A problem inside a part of the file: "Game 1 (…): Round 3 has …"."""
    return _bad(_("%(where)s: %(problem)s", where=where, problem=str(problem)))


def _check_game(raw: object, index: int, single: bool = False) -> _GameIn:
    game = _("Game %(number)s", number=index + 1)
    data = _obj(raw, game)
    if single and "scorer_token_hash" not in data:
        # A single game's download carries no scorer secret: the imported game gets a
        # new one that nobody holds, so it is read-only here.
        data = {**data, "scorer_token_hash": secrets.token_hex(32)}
    public_id = _str(_key(data, "public_id", game), _("The public id"), 32)
    what = _("Game %(number)s (%(id)s)", number=index + 1, id=public_id)
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
    mode = _str(data["mode"], f"{what}: mode", 10)
    created_at = _when(data["created_at"], f"{what}: created_at")
    updated_at = _when(data["updated_at"], f"{what}: updated_at")
    finished_raw = data["finished_at"]
    finished_at = None if finished_raw is None else _when(finished_raw, f"{what}: finished_at")
    token_hash = _str(data["scorer_token_hash"], f"{what}: scorer_token_hash", 64)
    if not isinstance(data["players"], list):
        raise _bad(_("%(what)s: players must be a list of names.", what=what))
    try:
        names = [player_service.clean_name(n) for n in data["players"]]
    except Rejected as exc:
        raise _within(what, exc.message) from None
    if names != data["players"]:
        raise _bad(
            _("%(what)s: player names must be stored trimmed, as the app writes them.", what=what)
        )
    keys = [player_service.name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        raise _bad(_("%(what)s: a player is at the table twice.", what=what))
    try:
        rules = RuleSet.from_dict(data["rules"])
        rules.check_players(len(names))
    except (ValueError, TypeError) as exc:
        raise _within(what, rule_message(exc)) from None
    n = len(names)
    first_dealer = _int(data["first_dealer"], f"{what}: first_dealer", 0, n - 1)

    if not isinstance(data["changes"], list):
        raise _bad(_("%(what)s: changes must be a list.", what=what))
    changes = []
    for i, c_raw in enumerate(data["changes"]):
        cw = _("%(game)s, change %(number)s", game=what, number=i + 1)
        c = _obj(c_raw, cw)
        for key in ("at", "round_number", "action", "summary", "data"):
            _key(c, key, cw)
        rn = c["round_number"]
        changes.append(
            _ChangeIn(
                _when(c["at"], f"{cw}: at"),
                None if rn is None else _int(rn, f"{cw}: round_number", 1),
                _str(c["action"], f"{cw}: action", 20),
                c["summary"] if isinstance(c["summary"], str) else _str(None, f"{cw}: summary"),
                c["data"],
            )
        )
    corrected = [
        c.round_number
        for c in changes
        if c.action == _CHANGE_CORRECTED and c.round_number is not None
    ]

    if not isinstance(data["rounds"], list):
        raise _bad(_("%(what)s: rounds must be a list.", what=what))
    plan = engine.plan_for(rules, n)
    if len(data["rounds"]) > len(plan):
        raise _bad(
            _(
                "%(what)s has %(count)s rounds, but the plan has %(plan)s.",
                what=what,
                count=len(data["rounds"]),
                plan=len(plan),
            )
        )
    rounds: list[_RoundIn] = []
    entries: list[RoundEntry] = []
    sheet = engine.score_sheet(rules, n, first_dealer, [])
    for i, r_raw in enumerate(data["rounds"]):
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
        try:
            rnd, entry = _check_round(r_raw, i, rules, n, sheet, names, earlier)
        except _Bad as exc:
            raise _within(what, exc) from None
        entries.append(entry)
        sheet = engine.score_sheet(rules, n, first_dealer, entries)
        if rnd.complete:
            scored = sheet.rounds[-1]
            if rnd.scores != scored.scores or rnd.totals != scored.totals:
                raise _bad(
                    _(
                        "%(what)s: round %(number)s's scores or totals do not add up: the file "
                        "says totals %(file)s, the rules give %(rules)s.",
                        what=what,
                        number=number,
                        file=list(rnd.totals or ()),
                        rules=list(scored.totals),
                    )
                )
        rounds.append(rnd)
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
    )


def parse_history(text: str | bytes) -> list[_GameIn]:
    """Check a history file (or one game's JSON download) through and through.

    :raises Rejected: naming the first problem (which game, which round).
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Rejected(
            _("The file is not valid JSON: %(error)s.", error=str(exc)), "bad_file"
        ) from None
    try:
        the_file = _("The file")
        top = _obj(data, the_file)
        single = top.get("format") == GAME_FORMAT
        if top.get("format") not in (FORMAT, GAME_FORMAT):
            raise _bad(
                _(
                    "This is not a Scorekeeper history file (format %(format)s).",
                    format=repr(top.get("format")),
                )
            )
        version = top.get("version")
        if version != VERSION:
            raise _bad(
                _(
                    "The file is format version %(version)s; this server reads version "
                    "%(supported)s.",
                    version=repr(version),
                    supported=VERSION,
                )
            )
        games_raw = [_key(top, "game", the_file)] if single else _key(top, "games", the_file)
        if not isinstance(games_raw, list):
            raise _bad(_("The file's 'games' must be a list."))
        games = [_check_game(g, i, single) for i, g in enumerate(games_raw)]
        seen: set[str] = set()
        for g in games:
            if g.public_id in seen:
                raise _bad(_("Game %(id)s is in the file twice.", id=g.public_id))
            seen.add(g.public_id)
    except _Bad as exc:
        raise Rejected(str(exc), "bad_file") from None
    return games


# -- import: storing -----------------------------------------------------------------------


def import_history(text: str | bytes) -> ImportResult:
    """Check the file, then store its games in one transaction.

    :raises Rejected: for a bad file; nothing is stored then.
    """
    games = parse_history(text)
    existing = (
        set(
            db.session.scalars(
                select(Game.public_id).where(Game.public_id.in_([g.public_id for g in games]))
            )
        )
        if games
        else set()
    )
    fresh = [g for g in games if g.public_id not in existing]
    try:
        all_names = {player_service.name_key(n): n for g in fresh for n in g.players}
        players = {p.key: p for p in player_service.get_or_create(list(all_names.values()))}
        db.session.flush()  # the new players get their ids
        for g in fresh:
            _store_game(g, players)
        idempotency.commit()  # with an Idempotency-Key: committed with the answer
    except Exception:
        db.session.rollback()
        raise
    return ImportResult(len(fresh), len(games) - len(fresh))


def _store_game(g: _GameIn, players: dict[str, Player]) -> None:
    game = Game(
        public_id=g.public_id,
        scorer_token_hash=g.scorer_token_hash,
        mode=g.mode,
        rules=g.rules.to_dict(),
        player_count=len(g.players),
        first_dealer=g.first_dealer,
        created_at=g.created_at,
        updated_at=g.updated_at,
        finished_at=g.finished_at,
    )
    summaries = stats.seat_summaries(g.sheet)
    seated = [players[player_service.name_key(name)] for name in g.players]
    for seat, player in enumerate(seated):
        s = Seat(seat=seat, player=player)
        stats.apply_summary(s, summaries[seat])
        stats.add_cards(player.id, summaries[seat].by_cards)
        game.seats.append(s)
    stats.add_rivalries(
        stats.rivalries(
            [
                (p.id, summary.total, summary.won)
                for p, summary in zip(seated, summaries, strict=True)
            ]
        )
    )
    for r in g.rounds:
        rnd = Round(
            number=r.number, cards=r.cards, dealer=r.dealer, trump=r.trump, complete=r.complete
        )
        for seat in range(len(g.players)):
            rnd.results.append(
                RoundResult(
                    seat=seat,
                    player_id=seated[seat].id,
                    bid=r.bids[seat],
                    tricks=r.tricks[seat],
                    score=r.scores[seat] if r.scores else None,
                    total=r.totals[seat] if r.totals else None,
                )
            )
        game.rounds.append(rnd)
    for c in g.changes:
        game.changes.append(
            Change(
                at=c.at,
                round_number=c.round_number,
                action=c.action,
                summary=c.summary,
                data=c.data,
            )
        )
    db.session.add(game)
