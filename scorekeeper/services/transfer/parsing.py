"""Import, first step: a history file (or one game's download) checked through and
through, before anything is stored.

Every identifier is checked as strictly as the app makes new ones (a public id is what
``secrets.token_urlsafe(16)`` makes, a mode one the app knows, texts and numbers within
what the app writes, times plausible), and every round against its rule set. A bad file
is refused with a message naming the game, round or change. The check writes nothing.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from scorekeeper import engine, i18n
from scorekeeper.engine import RoundEntry, RuleSet, TrumpCall
from scorekeeper.i18n import _, _n, rule_message
from scorekeeper.limits import NotText, load_json
from scorekeeper.services import players as player_service
from scorekeeper.services import stats
from scorekeeper.services.errors import Rejected
from scorekeeper.services.transfer.fileformat import FORMAT, GAME_FORMAT, VERSION

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
class GameIn:
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
        engine.RoundDraft.of_entry(rules, number, cards, dealer, tuple(totals_before), entry).check(
            names
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


def _check_game(raw: object, index: int, now: datetime, single: bool = False) -> GameIn:
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
    return GameIn(
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


def parse_history(text: str | bytes) -> list[GameIn]:
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
