"""Score pad games: create, load, record and correct rounds.

Every command checks the whole change with the engine before anything is written, then
writes the rounds, recomputes every score and total from the engine's sheet, logs the
change and flushes; whoever owns the transaction commits it (``scorekeeper/transaction.py``)
or rolls it back: a rejection leaves the stored game exactly as it was.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from flask import current_app
from sqlalchemy import Select, and_, bindparam, func, literal, select, true, union_all
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import contains_eager, selectinload
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper import engine, i18n
from scorekeeper.engine import RoundEntry, RuleError, RuleSet, TrumpCall
from scorekeeper.extensions import db
from scorekeeper.i18n import _, _n, rule_message
from scorekeeper.models import Change, Game, Player, Round, RoundResult, Seat, utcnow
from scorekeeper.services import changelog, stats
from scorekeeper.services import players as player_service
from scorekeeper.services.errors import Conflict, NotFound, Rejected

_UNSET: Any = object()


def token_hash(token: str) -> str:
    """A scorer token as stored: only its hash is."""
    return hashlib.sha256(token.encode()).hexdigest()


# -- creating and loading -------------------------------------------------------------------

DEFAULT_CIRCLE_MAX_GAMES = 10_000


def parse_rules(data: object) -> RuleSet:
    """A rule set from API/form data. :raises Rejected: naming the bad option."""
    try:
        return RuleSet.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise Rejected(rule_message(exc), "bad_rules") from None


def check_room(circle_id: int, adding: int = 1) -> None:
    """Refuse ``adding`` more games to a circle that would then hold more than
    ``CIRCLE_MAX_GAMES`` (default 10,000): a bound on what one circle stores.

    :raises Rejected: 413 ``circle_full``.
    """
    most = int(current_app.config.get("CIRCLE_MAX_GAMES") or DEFAULT_CIRCLE_MAX_GAMES)
    held = db.session.scalar(select(func.count()).where(Game.circle_id == circle_id)) or 0
    if held + adding <= most:
        return
    if adding == 1:
        message = _(
            "This circle holds %(most)s games, the most a circle keeps here: this game "
            "can be a one-off game (no circle), or start a new circle.",
            most=i18n.number(most),
        )
    else:
        message = _n(
            "This file has %(num)s new game, but the circle holds %(held)s of the "
            "%(most)s games a circle keeps here. Nothing was imported.",
            "This file has %(num)s new games, but the circle holds %(held)s of the "
            "%(most)s games a circle keeps here. Nothing was imported.",
            adding,
            held=i18n.number(held),
            most=i18n.number(most),
        )
    raise Rejected(message, "circle_full", 413)


def create_game(
    names: Sequence[object],
    first_dealer: object,
    rules: RuleSet,
    mode: str = "pad",
    circle_id: int | None = None,
) -> tuple[Game, str]:
    """Create a game; returns it with the scorer token (shown once, stored only hashed).

    :raises Rejected: for a wrong number of players, empty, too long or repeated names,
        a dealer who isn't at the table, or a rule set those players can't play.
    """
    if not isinstance(names, (list, tuple)):
        raise Rejected(_("Players must be a list of 3 to 6 names."), "bad_players")
    clean = [player_service.clean_name(n) for n in names]
    try:
        rules.check_players(len(clean))
    except ValueError as exc:
        raise Rejected(rule_message(exc), "bad_players") from None
    keys = [player_service.name_key(n) for n in clean]
    if len(set(keys)) != len(keys):
        twice = next(n for n, k in zip(clean, keys, strict=True) if keys.count(k) > 1)
        raise Rejected(
            _("%(name)s is at the table twice: each player needs their own name.", name=twice),
            "bad_players",
        )
    if (
        isinstance(first_dealer, bool)
        or not isinstance(first_dealer, int)
        or not (0 <= first_dealer < len(clean))
    ):
        raise Rejected(_("The first dealer must be one of the players."), "bad_dealer")
    if circle_id is not None:
        check_room(circle_id)
    token = secrets.token_urlsafe(24)
    game = Game(
        public_id=secrets.token_urlsafe(16),
        scorer_token_hash=token_hash(token),
        mode=mode,
        circle_id=circle_id,
        rules=rules.to_dict(),
        player_count=len(clean),
        first_dealer=first_dealer,
    )
    for seat, player in enumerate(player_service.get_or_create(clean, circle_id)):
        game.seats.append(Seat(seat=seat, player=player))
    game.changes.append(
        changelog.line(
            "created",
            "game_set_up",
            data={"players": clean, "first_dealer": first_dealer, "rules": rules.to_dict()},
        )
    )
    db.session.add(game)
    db.session.flush()
    return game, token


# Two rows, 0 and 1: the part of the game a row of :func:`get_game` carries (0 a seat and
# its player, 1 a round's result).
_PARTS = union_all(select(literal(0).label("part")), select(literal(1).label("part"))).subquery(
    "part"
)


def get_game(public_id: str) -> Game:
    """:raises NotFound: when no game has this id (or its game was deleted)."""
    game: Game | None = _read_whole_game(public_id)
    if game is None:
        raise NotFound()
    return game


def _read_whole_game(public_id: str) -> Game | None:
    game: Game | None = db.session.scalars(_whole_game(), {"public_id": public_id}).unique().first()
    return game


@functools.cache
def _whole_game() -> Select[Game]:
    """One statement: the game with its seats (and players), rounds and their results.

    Seats and results joined side by side would give every seat with every result (80
    rows for 4 players and 5 rounds, 360 for 6 and 10), each row decoded in full; so the
    game is read twice over (``_PARTS``), once with its seats and once with its rounds
    and results: as many rows as seats and results together. Built once (the game's id
    is a parameter): building it took as long as running it."""
    part = _PARTS.c.part
    return (
        select(Game)
        .join(_PARTS, true())
        .outerjoin(Seat, and_(part == 0, Seat.game_id == Game.id))
        .outerjoin(Player, Player.id == Seat.player_id)
        .outerjoin(Round, and_(part == 1, Round.game_id == Game.id))
        .outerjoin(RoundResult, RoundResult.round_id == Round.id)
        .where(Game.public_id == bindparam("public_id"), Game.deleted_at.is_(None))
        .options(
            contains_eager(Game.seats).contains_eager(Seat.player),
            contains_eager(Game.rounds).contains_eager(Round.results),
        )
        # The collections fill in the order of the rows.
        .order_by(part, Seat.seat, Round.number, RoundResult.seat)
    )


TAKEN_OVER = "scorer"  # the change log's action for a new scorer token


def new_scorer_token(game: Game) -> str:
    """A new scorer link for the game (the old one stops working), for a member of its
    circle taking over the scoring; logged in the change log."""
    token = secrets.token_urlsafe(24)
    game.scorer_token_hash = token_hash(token)
    game.changes.append(changelog.line(TAKEN_OVER, "scorer_taken_over", data={}))
    db.session.flush()
    return token


def token_matches(game: Game, token: str | None) -> bool:
    """Whether ``token`` is this game's scorer secret (compared in constant time)."""
    return bool(token) and hmac.compare_digest(game.scorer_token_hash, token_hash(token or ""))


def is_deleted(public_id: str) -> bool:
    """Whether the game with this id was deleted (and not brought back)."""
    deleted = db.session.scalar(
        select(Game.deleted_at.is_not(None)).where(Game.public_id == public_id)
    )
    return bool(deleted)


def scoring_states(public_ids: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """For each of these games found: the hash of its scorer token as stored now, and
    whether its scoring was ever taken over (a new token made: ``new_scorer_token``)."""
    if not public_ids:
        return {}
    taken_over = (
        select(Change.id).where(Change.game_id == Game.id, Change.action == TAKEN_OVER).exists()
    )
    rows = db.session.execute(
        select(Game.public_id, Game.scorer_token_hash, taken_over).where(
            Game.public_id.in_(list(public_ids))
        )
    )
    return {public_id: (stored, bool(over)) for public_id, stored, over in rows}


def circle_of(public_id: str) -> int | None:
    """The id of the game's circle (``None`` for a one-off game or no such game)."""
    circle_id: int | None = db.session.scalar(
        select(Game.circle_id).where(Game.public_id == public_id)
    )
    return circle_id


def version_of(public_id: str) -> int | None:
    """The game's version (bumped by every change) without loading it, or ``None`` when
    there is no such game: lets a following phone ask "anything new?" cheaply."""
    version: int | None = db.session.scalar(select(Game.version).where(Game.public_id == public_id))
    return version


def list_games(circle_id: int, page: int = 1, per_page: int = 20) -> tuple[list[Game], int]:
    """A circle's games newest first (deleted ones left out), one page, with the total
    count."""
    page = max(1, page)
    live = (Game.circle_id == circle_id, Game.deleted_at.is_(None))
    total = db.session.scalar(select(func.count(Game.id)).where(*live)) or 0
    games = list(
        db.session.scalars(
            select(Game)
            .where(*live)
            .options(selectinload(Game.seats), selectinload(Game.rounds))
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
    )
    return games, total


# -- reading a game through the engine ------------------------------------------------------


def rules_of(game: Game) -> RuleSet:
    """The game's rule set, read once per stored form (a request asks for it often)."""
    return _rules(json.dumps(game.rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _rules(stored: str) -> RuleSet:
    return RuleSet.from_dict(json.loads(stored))


def names_of(game: Game) -> list[str]:
    return [s.player.name for s in game.seats]


def _entry(rnd: Round) -> RoundEntry:
    return RoundEntry(
        bids=tuple(r.bid for r in rnd.results),
        tricks=tuple(r.tricks or 0 for r in rnd.results) if rnd.complete else None,
        trump=TrumpCall.parse(rnd.trump) if rnd.trump else None,
        adjustments=tuple(
            engine.Adjustment(a["seat"], a["points"], a.get("reason", ""))
            for a in rnd.adjustments or ()
        ),
    )


def entries_of(game: Game) -> list[RoundEntry]:
    return [_entry(r) for r in game.rounds]


def sheet_of(game: Game) -> engine.Sheet:
    """The engine's score sheet of the stored rounds: worked out once for the rounds as
    they stand (kept with the game object, keyed by everything it is made from, so a
    change of any round makes a new one)."""
    key = (rules_of(game), game.player_count, game.first_dealer, tuple(entries_of(game)))
    kept = game.__dict__.get("_sheet")
    sheet: engine.Sheet
    if kept is not None and kept[0] == key:
        sheet = kept[1]
        return sheet
    if kept is not None and _only_the_open_round_changed(kept[0], key):
        # A tap in the open round: the rounds scored stay, nothing is added up again.
        sheet = kept[1].with_open_round(key[3][-1])
    else:
        sheet = engine.score_sheet(key[0], key[1], key[2], list(key[3]))
    game.__dict__["_sheet"] = (key, sheet)
    return sheet


def _only_the_open_round_changed(old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
    """Whether sheet key ``new`` differs from ``old`` in its open round alone: the same
    game, the same rounds scored, and an open round (no tricks) changed or just begun."""
    before: tuple[RoundEntry, ...] = old[3]
    after: tuple[RoundEntry, ...] = new[3]
    if old[:3] != new[:3] or not after or after[-1].tricks is not None:
        return False
    if before[:-1] == after[:-1] and before and before[-1].tricks is None:
        return True  # the open round changed
    return before == after[:-1] and all(e.tricks is not None for e in before)  # opened


def draft_of(game: Game) -> engine.RoundDraft | None:
    """The round to enter next (stored partly or not at all) as the engine's draft, or
    ``None`` when every round of the plan is recorded."""
    sheet = sheet_of(game)
    number = sheet.next_number()
    if number is None:
        return None
    rules = rules_of(game)
    totals = tuple(sheet.totals_before(number))
    if game.rounds and not game.rounds[-1].complete:
        rnd = game.rounds[-1]
        return engine.RoundDraft(
            rules,
            number,
            rnd.cards,
            rnd.dealer,
            totals,
            tuple(r.bid for r in rnd.results),
            tuple(r.tricks for r in rnd.results),
            TrumpCall.parse(rnd.trump) if rnd.trump else None,
        )
    return engine.RoundDraft.empty(
        rules, number, sheet.plan[number - 1], sheet.dealer(number), totals
    )


# -- writing --------------------------------------------------------------------------------


def _rejected(exc: RuleError | ValueError) -> Rejected:
    code = getattr(exc, "code", "rule_broken")
    return Rejected(rule_message(exc), code)


def _check(game: Game, number: int, entry: RoundEntry) -> None:
    """Check a round under the rule set with the totals before it as they now stand (P2)."""
    sheet = sheet_of(game)
    try:
        engine.check_entry(
            rules_of(game),
            entry,
            round_number=number,
            cards=sheet.plan[number - 1],
            dealer=sheet.dealer(number),
            totals_before=sheet.totals_before(number),
            names=names_of(game),
        )
    except ValueError as exc:
        raise _rejected(exc) from None


def parse_trump(value: object) -> TrumpCall | None:
    """``None``/``""`` → not recorded; else "red", "none", "wizard:red", French names…

    :raises Rejected: for anything else.
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise Rejected(_("Trump must be a suit, 'none', or 'wizard:<suit>'."), "bad_trump")
    try:
        return TrumpCall.parse(value)
    except ValueError as exc:
        raise Rejected(str(exc), "bad_trump") from None


def _round_row(game: Game, number: int) -> Round | None:
    return next((r for r in game.rounds if r.number == number), None)


def _store(
    game: Game,
    number: int,
    entry: RoundEntry,
    complete: bool,
    tricks_draft: Sequence[int | None] | None = None,
) -> Round:
    """Write ``entry`` into round ``number`` (creating the row when needed)."""
    rnd = _round_row(game, number)
    if rnd is None:
        sheet = sheet_of(game)
        rnd = Round(number=number, cards=sheet.plan[number - 1], dealer=sheet.dealer(number))
        for seat in game.seats:
            rnd.results.append(RoundResult(seat=seat.seat, player_id=seat.player_id))
        game.rounds.append(rnd)
    rnd.trump = None if entry.trump is None else str(entry.trump)
    rnd.complete = complete
    tricks: Sequence[int | None] = (
        entry.tricks if entry.tricks is not None else (tricks_draft or [None] * len(entry.bids))
    )
    for result in rnd.results:
        result.bid = entry.bids[result.seat]
        result.tricks = tricks[result.seat]
    return rnd


def _finish(game: Game, change: Change) -> None:
    """Recompute scores and totals of every round from the engine, log, flush.

    A concurrent change by another scorer shows as a stale version (or, for a new round,
    the same round number stored twice) and becomes a :class:`Conflict`: nothing is stored
    (whoever owns the transaction rolls it back: ``scorekeeper/transaction.py``).
    """
    try:
        sheet = sheet_of(game)
        for rnd, scored in zip(game.rounds, sheet.rounds, strict=True):
            for result in rnd.results:
                if scored.scores is None:
                    result.score = result.total = None
                else:
                    result.score = scored.scores[result.seat]
                    result.total = scored.totals[result.seat]
        game.finished_at = (game.finished_at or utcnow()) if sheet.finished else None
        stats.summarise(game, sheet)
        game.updated_at = utcnow()
        # Added to the log without reading it (a tap's statements count).
        change.game = game
        db.session.add(change)
        db.session.flush()
    except (StaleDataError, IntegrityError):
        raise Conflict(
            _(
                "Already recorded by someone else: the game changed in the meantime. "
                "Here is the current state."
            ),
            "conflict",
        ) from None


def _expect_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise Conflict(
            _(
                "Already recorded by someone else: the game has changed since you "
                "loaded it. Here is the current state."
            ),
            "conflict",
        )


def _bids_list(value: object, players: int) -> list[int | None]:
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise Rejected(
            _("Bids must be a list of %(players)s numbers in seat order.", players=players),
            "bad_bids",
        )
    return list(value)


def _tricks_list(value: object, players: int) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise Rejected(
            _("Tricks must be a list of %(players)s numbers in seat order.", players=players),
            "bad_tricks",
        )
    return list(value)


def _describe_entry(names: Sequence[str], entry: RoundEntry) -> dict[str, Any]:
    return {
        "bids": list(entry.bids),
        "tricks": None if entry.tricks is None else list(entry.tricks),
        "trump": None if entry.trump is None else str(entry.trump),
    }


def record_round(
    game: Game,
    bids: object,
    tricks: object = None,
    trump: object = None,
    version: int | None = None,
) -> int:
    """Record the next round (API): bids, and tricks now or later. Returns its number.

    :raises Rejected: when the plan is done, the round before is still open, or the
        round breaks the rule set.
    """
    _expect_version(game, version)
    draft = draft_of(game)
    if draft is None:
        raise Rejected(
            _(
                "The game is over: all %(rounds)s rounds are recorded.",
                rounds=len(sheet_of(game).plan),
            ),
            "game_over",
        )
    if game.rounds and not game.rounds[-1].complete:
        raise Rejected(
            _("Round %(number)s is still open: add its tricks first.", number=draft.number),
            "round_open",
        )
    n = game.player_count
    entry = RoundEntry(
        tuple(_bids_list(bids, n)),
        None if tricks is None else tuple(_tricks_list(tricks, n)),
        parse_trump(trump) if trump is not None else _default_trump(game, draft.number),
    )
    _check(game, draft.number, entry)
    _store(game, draft.number, entry, complete=entry.tricks is not None)
    # A round without tricks keeps its bids out of the log: they may be secret (V4).
    _finish(
        game,
        changelog.line(
            "round_added",
            "round_recorded",
            {"number": draft.number},
            round_number=draft.number,
            data=_describe_entry(names_of(game), entry) if entry.tricks is not None else None,
        ),
    )
    return draft.number


def _default_trump(game: Game, number: int) -> TrumpCall | None:
    """The last round (and every unicoloured round) records "no trump" by itself (R8, V9)."""
    sheet = sheet_of(game)
    if engine.deals_every_card(rules_of(game), game.player_count, sheet.plan[number - 1]):
        return TrumpCall(None)
    return None


def update_round(
    game: Game,
    number: int,
    bids: object = _UNSET,
    tricks: object = _UNSET,
    trump: object = _UNSET,
    version: int | None = None,
) -> None:
    """Correct round ``number`` (or add the tricks of the open round). Later rounds stay
    as played; their totals are recomputed (P2).

    :raises NotFound: for a round not recorded.
    :raises Rejected: when the corrected round breaks the rule set.
    """
    _expect_version(game, version)
    rnd = _round_row(game, number) if isinstance(number, int) else None
    if rnd is None:
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    old = _entry(rnd)
    n = game.player_count
    new_tricks: tuple[int, ...] | None = old.tricks
    if tricks is not _UNSET:
        if tricks is None:
            if rnd.complete and number != len(game.rounds):
                raise Rejected(
                    _("Only the last round can have its tricks taken back."), "round_complete"
                )
            new_tricks = None
        else:
            new_tricks = tuple(_tricks_list(tricks, n))
    entry = RoundEntry(
        tuple(_bids_list(bids, n)) if bids is not _UNSET else old.bids,
        new_tricks,
        parse_trump(trump) if trump is not _UNSET else old.trump,
        old.adjustments,
    )
    if entry == old:
        return
    if entry.tricks is None and old.adjustments:
        raise Rejected(
            _(
                "Round %(number)s has a bonus or penalty: take it back before its tricks.",
                number=number,
            ),
            "round_adjusted",
        )
    _check(game, number, entry)
    _store(game, number, entry, complete=entry.tricks is not None)
    was_open = not rnd.complete and old.tricks is None
    # A bid still hidden (V3) or secret (V4) stays out of the log, summary and data alike.
    show = _bids_shown(game, rnd.dealer, entry)
    parts = _corrections(names_of(game), old, entry, show_bids=show)
    action = "round_completed" if was_open and entry.tricks is not None else "round_corrected"
    _finish(
        game,
        changelog.line(
            action,
            "round_corrected",
            {"number": number, "parts": parts},
            round_number=number,
            data={
                "before": _describe_entry(names_of(game), old),
                "after": _describe_entry(names_of(game), entry),
            }
            if show
            else None,
        ),
    )


def _bids_shown(game: Game, dealer: int, entry: RoundEntry) -> bool:
    """Whether the bids of ``entry`` may be seen: always once the tricks are in; before
    that with open bids, or hidden bids (V3) once every bid is in; never secret ones (V4)."""
    rules = rules_of(game)
    bidders = engine.bidders(rules, dealer, game.player_count)
    return engine.bids_seen(rules, entry.bids, bidders, played=entry.tricks is not None)


def _corrections(
    names: Sequence[str], old: RoundEntry, new: RoundEntry, show_bids: bool = True
) -> list[dict[str, str]]:
    """What a correction changed, part by part, as the change log's facts."""
    parts = []
    for seat, name in enumerate(names):
        if old.bids[seat] != new.bids[seat]:
            parts.append(
                {
                    "part": "bid",
                    "name": name,
                    "old": _show(old.bids[seat]),
                    "new": _show(new.bids[seat]),
                }
                if show_bids
                else {"part": "bid_changed", "name": name}
            )
        before = None if old.tricks is None else old.tricks[seat]
        after = None if new.tricks is None else new.tricks[seat]
        if before != after:
            parts.append(
                {"part": "tricks", "name": name, "old": _show(before), "new": _show(after)}
            )
    if old.trump != new.trump:
        parts.append({"part": "trump", "old": _show(old.trump), "new": _show(new.trump)})
    return parts


def _show(value: object) -> str:
    return "–" if value is None else str(value)


def delete_last_round(game: Game, number: int, version: int | None = None) -> None:
    """Remove the last recorded round (kept in the change log).

    :raises NotFound: for a round not recorded.
    :raises Rejected: for a round that is not the last one.
    """
    _expect_version(game, version)
    rnd = _round_row(game, number) if isinstance(number, int) else None
    if rnd is None:
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    if rnd is not game.rounds[-1]:
        raise Rejected(
            _(
                "Only the last round (%(number)s) can be deleted; correct earlier rounds instead.",
                number=game.rounds[-1].number,
            ),
            "not_last_round",
        )
    old = _entry(rnd)
    shown = _bids_shown(game, rnd.dealer, old)
    game.rounds.remove(rnd)
    _finish(
        game,
        changelog.line(
            "round_deleted",
            "round_deleted",
            {"number": number},
            round_number=number,
            data={"before": _describe_entry(names_of(game), old)} if shown else None,
        ),
    )


# -- bonuses and penalties ------------------------------------------------------------------


def _played_round(game: Game, number: object) -> Round:
    rnd = _round_row(game, number) if isinstance(number, int) else None
    if rnd is None:
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    if not rnd.complete:
        raise Rejected(
            _(
                "Round %(number)s is not played yet: a bonus or penalty comes once its "
                "tricks are in.",
                number=number,
            ),
            "round_open",
        )
    return rnd


def add_adjustment(
    game: Game,
    number: object,
    seat: object,
    points: object,
    reason: object = "",
    version: int | None = None,
) -> int:
    """Give ``seat`` a one-off bonus (points > 0) or penalty (< 0) in played round
    ``number``: in their total from that round on, on the pad and in the log. Returns
    its place among the round's bonuses and penalties (what takes it back).

    :raises NotFound: for a round not recorded.
    :raises Rejected: for a round not played yet, or a player, points or reason the
        engine refuses (nothing is stored).
    """
    _expect_version(game, version)
    rnd = _played_round(game, number)
    text = " ".join(reason.split()) if isinstance(reason, str) else reason
    adjustment = engine.Adjustment(seat, points, text)  # type: ignore[arg-type]
    try:
        engine.check_adjustments([*_entry(rnd).adjustments, adjustment], game.player_count)
    except ValueError as exc:
        raise _rejected(exc) from None
    given = {"seat": adjustment.seat, "points": adjustment.points, "reason": adjustment.reason}
    rnd.adjustments = [*(rnd.adjustments or []), given]
    name = names_of(game)[adjustment.seat]
    facts = {**given, "name": name, "number": rnd.number}
    _finish(
        game,
        changelog.line(
            "adjusted", "adjusted", facts, round_number=rnd.number, data={**given, "name": name}
        ),
    )
    return len(rnd.adjustments) - 1


def remove_adjustment(
    game: Game, number: object, index: object, version: int | None = None
) -> dict[str, Any]:
    """Take back the ``index``-th bonus or penalty of round ``number`` (logged); returns
    what it was.

    :raises NotFound: for a round not recorded or no such bonus or penalty.
    """
    _expect_version(game, version)
    rnd = _played_round(game, number)
    given = list(rnd.adjustments or [])
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(given):
        raise NotFound(_("That bonus or penalty is not there (any more)."))
    gone = given.pop(index)
    rnd.adjustments = given or None
    name = names_of(game)[gone["seat"]]
    facts = {**gone, "name": name, "number": rnd.number}
    _finish(
        game,
        changelog.line(
            "adjustment_removed",
            "adjustment_removed",
            facts,
            round_number=rnd.number,
            data={**gone, "name": name},
        ),
    )
    return gone


# -- entering a round tap by tap (the score pad page) ---------------------------------------


@contextmanager
def _pad_rules(game: Game) -> Iterator[None]:
    """A draft's command refused by the engine becomes a refusal in the reader's words,
    naming the players."""
    try:
        yield
    except RuleError as exc:
        raise Rejected(rule_message(exc, names_of(game)), exc.code) from None


def _open_draft(game: Game) -> engine.RoundDraft:
    draft = draft_of(game)
    if draft is None:
        raise Rejected(_("The game is over: every round of the plan is recorded."), "game_over")
    return draft


def set_bid(game: Game, seat: int, bid: int | None, version: int | None = None) -> None:
    """Enter (or change, or with ``None`` take back) one player's bid in the open round
    (:meth:`engine.RoundDraft.bid` says what may be bid when).

    :raises Rejected: out of order, after the tricks have started, or a forbidden bid.
    """
    _expect_version(game, version)
    draft = _open_draft(game)
    with _pad_rules(game):
        draft = draft.bid(seat, bid)
    entry = draft.entry()
    _check(game, draft.number, entry)
    _store(game, draft.number, entry, complete=False)
    facts = {"number": draft.number, "name": names_of(game)[seat]}
    message = "bid_cleared" if bid is None else "bid_entered"
    _finish(game, changelog.line("bid", message, facts, round_number=draft.number))


def put_back(
    game: Game, kind: str, values: dict[int, int], version: int | None = None
) -> int | None:
    """Undo a take-back in the open round: put ``values`` (seat → bid, or seat → trick
    count for ``kind`` "tricks") back where they were taken from, checked again. Returns
    the number of the round when that scored it (every count in again).

    :raises Conflict: when the game changed since they were taken back.
    :raises Rejected: when there is nothing to put back there.
    """
    _expect_version(game, version)
    draft = _open_draft(game)
    n = game.player_count
    names = names_of(game)
    current = draft.bids if kind == "bid" else draft.tricks
    if kind not in ("bid", "tricks") or not values:
        raise Rejected(_("There is nothing to put back."), "nothing_to_put_back")
    if any(not 0 <= seat < n or current[seat] is not None for seat in values):
        raise Rejected(_("There is nothing to put back."), "nothing_to_put_back")
    restored = tuple(values.get(seat, value) for seat, value in enumerate(current))
    first = names[min(values, key=draft.order.index)]
    if kind == "bid":
        draft = replace(draft, bids=restored)
        _check(game, draft.number, draft.entry())
        _store(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
        facts = {"number": draft.number, "name": first}
        _finish(game, changelog.line(kind, "bid_entered", facts, round_number=draft.number))
        return None
    # Every count back in: the round is scored, as when the last one is tapped.
    tap = {"seat": min(values), "filled": sorted(values)[1:]}
    line = changelog.line(
        "tricks",
        "tricks_entered",
        {"number": draft.number, "name": first},
        round_number=draft.number,
        data=tap,
    )
    return _counts_entered(game, replace(draft, tricks=restored), line)


def set_draft_trump(game: Game, trump: object, version: int | None = None) -> None:
    """Record the open round's trump. :raises Rejected: for a trump that doesn't fit (P1)."""
    _expect_version(game, version)
    draft = _open_draft(game).with_trump(parse_trump(trump))
    entry = draft.entry()
    _check(game, draft.number, entry)
    _store(game, draft.number, entry, complete=False, tricks_draft=draft.tricks)
    facts = {"number": draft.number, "trump": _show(entry.trump)}
    _finish(game, changelog.line("trump", "trump_set", facts, round_number=draft.number))


def set_tricks(game: Game, seat: int, tricks: int | None, version: int | None = None) -> int | None:
    """Enter one player's tricks in the open round, in any order; the forced counts fill
    themselves in (:meth:`engine.RoundDraft.record_tricks`). Once every count is in the
    round is scored (R16) — :func:`reopen_round` is its undo. Returns the number of the
    round scored, or ``None`` while counts are missing.

    :raises Rejected: before every bid is in, or for a count that can't add up.
    """
    _expect_version(game, version)
    with _pad_rules(game):
        draft, filled = _open_draft(game).record_tricks(seat, tricks)
    line = changelog.line(
        "tricks",
        "tricks_entered",
        {"number": draft.number, "name": names_of(game)[seat]},
        round_number=draft.number,
        data={"seat": seat, "filled": filled},
    )
    return _counts_entered(game, draft, line)


def rest_as_bid(game: Game, version: int | None = None) -> int:
    """Every player whose count is missing took what they bid ("the rest made their
    bids"): filled in, and the round scored. Returns its number.

    :raises Rejected: with secret bids (V4), before every bid is in, or when the bids of
        the rest don't add up with the counts in.
    """
    _expect_version(game, version)
    with _pad_rules(game):
        draft, filled = _open_draft(game).rest_made_their_bids()
    line = changelog.line(
        "tricks",
        "rest_made_their_bids",
        {"number": draft.number},
        round_number=draft.number,
        data={"seat": None, "filled": filled},
    )
    scored = _counts_entered(game, draft, line)
    assert scored is not None
    return scored


def _counts_entered(game: Game, draft: engine.RoundDraft, line: Change) -> int | None:
    """Store the open round's trick counts; once every one is in, score the round.
    ``tap`` (the seat tapped, the seats filled in by themselves) goes into the change
    log, where :func:`reopen_round` finds what to take back."""
    if not draft.tricks_in:
        _store(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
        _finish(game, line)
        return None
    game.changes.append(line)
    _store(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
    return _score_open_round(game, _open_draft(game))


def last_count_tap(game: Game, number: int) -> tuple[int | None, list[int]] | None:
    """The trick count just entered in round ``number`` as the change log has it: the
    seat tapped (``None`` for "the rest made their bids") and the seats that filled
    themselves in with it; ``None`` when the log doesn't say, or when anything else
    changed in the game since."""
    query = (
        select(Change.action, Change.data, Change.round_number)
        .where(Change.game_id == game.id)
        .order_by(Change.id.desc())
        .limit(2)
    )
    for action, data, round_number in db.session.execute(query):
        if round_number != number:
            return None
        if action == "round_completed":
            continue  # scored by that tap: the tap comes just before
        if action != "tricks" or not isinstance(data, dict) or "filled" not in data:
            return None
        seat, filled = data.get("seat"), data.get("filled")
        if (seat is not None and not isinstance(seat, int)) or not isinstance(filled, list):
            return None
        return seat, [s for s in filled if isinstance(s, int)]
    return None


def clear_tricks_from(game: Game, seat: int, version: int | None = None) -> None:
    """Take back the open round's trick count of ``seat`` (an undo on the pad). Counts go
    in in any order and the round is scored once they are all in, so no count of an open
    round filled itself in: the others stay.

    :raises Rejected: for a seat not at the table, or when the game is over.
    """
    _expect_version(game, version)
    draft = _open_draft(game)
    with _pad_rules(game):
        cleared = draft.clear_tricks(seat)
    if cleared == draft:
        return
    _store(game, draft.number, draft.entry(), complete=False, tricks_draft=cleared.tricks)
    facts = {"number": draft.number, "name": names_of(game)[seat]}
    _finish(game, changelog.line("tricks", "tricks_cleared", facts, round_number=draft.number))


def confirm_round(game: Game, version: int | None = None) -> int:
    """Score the open round once every trick count is in (a round reopened by an older
    version of the pad, or stored with every count by the API). Returns its number.

    :raises Rejected: when tricks are missing or don't add up.
    """
    _expect_version(game, version)
    return _score_open_round(game, _open_draft(game))


def _score_open_round(game: Game, draft: engine.RoundDraft) -> int:
    with _pad_rules(game):
        entry = draft.confirm()
    if entry.trump is None:
        entry = replace(entry, trump=_default_trump(game, draft.number))
    _check(game, draft.number, entry)
    _store(game, draft.number, entry, complete=True)
    _finish(
        game,
        changelog.line(
            "round_completed",
            "round_recorded",
            {"number": draft.number},
            round_number=draft.number,
            data=_describe_entry(names_of(game), entry),
        ),
    )
    return draft.number


def reopenable(game: Game) -> int | None:
    """The round "Undo" may reopen: the last one scored, when its last trick count was
    entered on the pad (the change log says which) and nothing of the next is."""
    scored = [r for r in game.rounds if r.complete]
    if not scored or len(scored) != len(game.rounds):
        return None
    number = scored[-1].number
    return number if last_count_tap(game, number) is not None else None


def reopen_round(game: Game, number: object, version: int | None = None) -> None:
    """Undo the tap that scored round ``number``: the round is open again with that tap's
    count (and the counts that filled themselves in with it) taken back.

    :raises Conflict: when the game changed since.
    :raises Rejected: when that round can't be reopened any more.
    """
    _expect_version(game, version)
    if isinstance(number, bool) or not isinstance(number, int) or number != reopenable(game):
        raise Rejected(
            _("That round can't be reopened any more: correct it on the pad instead."),
            "cannot_reopen",
        )
    tap = last_count_tap(game, number)
    rnd = _round_row(game, number)
    assert tap is not None and rnd is not None
    seat, filled = tap
    back = set(filled) | ({seat} if seat is not None else set())
    for result in rnd.results:
        if result.seat in back:
            result.tricks = None
    rnd.complete = False
    _finish(
        game, changelog.line("reopened", "round_reopened", {"number": number}, round_number=number)
    )


# -- the next game at the same table --------------------------------------------------------


def play_again(game: Game) -> tuple[Game, str]:
    """The next game at the same table, once ``game`` is over: the same players in the
    same seats, the seat after its first dealer deals first, the same rule set and the
    same circle (a one-off game's next game is one-off too). Returns it with its scorer
    token, as :func:`create_game` does.

    :raises Rejected: for a digital game, or a game whose last round is not recorded yet.
    """
    if game.mode != "pad":
        raise Rejected(
            _(
                "Play again is for games kept on the score pad. Set up the next digital "
                "game from “Play without cards”."
            ),
            "not_a_pad_game",
        )
    if game.finished_at is None:
        raise Rejected(
            _("This game isn't over yet: the next one can start once its last round is recorded."),
            "game_not_over",
        )
    started = next_game_of(game)
    if started is not None:
        raise NextGameStarted(started)
    new, token = create_game(
        names_of(game),
        (game.first_dealer + 1) % game.player_count,
        parse_rules(game.rules),
        circle_id=game.circle_id,
    )
    mark_next_game(game, new.public_id)
    db.session.flush()
    return new, token


def mark_next_game(game: Game, public_id: str) -> None:
    """Point the finished ``game`` to the next one at its table: phones following it are
    led there, and a second Play again opens it instead of starting another."""
    game.changes.append(changelog.line("next_game", "next_game", data={"public_id": public_id}))
    game.updated_at = utcnow()


class NextGameStarted(Rejected):
    """Play again on a game whose next game has already started (``public_id``)."""

    status = 409

    def __init__(self, public_id: str) -> None:
        super().__init__(
            _("The next game at this table has already started: here it is."),
            "next_game_started",
        )
        self.public_id = public_id


def next_game_of(game: Game) -> str | None:
    """The public id of the game started from ``game`` with Play again, while it is there
    (not deleted); ``None`` otherwise."""
    data = db.session.scalar(
        select(Change.data)
        .where(Change.game_id == game.id, Change.action == "next_game")
        .order_by(Change.id.desc())
        .limit(1)
    )
    public_id = data.get("public_id") if isinstance(data, dict) else None
    if not isinstance(public_id, str):
        return None
    there = db.session.scalar(
        select(Game.id).where(Game.public_id == public_id, Game.deleted_at.is_(None))
    )
    return public_id if there is not None else None


def last_rules(public_ids: Sequence[str]) -> RuleSet | None:
    """The rule set of the newest score pad game among ``public_ids`` (the games a phone
    keeps score of, deleted ones left out), to offer again on the setup form; ``None``
    when there is none."""
    if not public_ids:
        return None
    rules = db.session.scalar(
        select(Game.rules)
        .where(Game.public_id.in_(list(public_ids)), Game.mode == "pad", Game.deleted_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
    )
    if rules is None:
        return None
    try:
        return RuleSet.from_dict(rules)
    except (ValueError, TypeError):
        return None  # a rule set this version no longer reads: the book's rules instead
