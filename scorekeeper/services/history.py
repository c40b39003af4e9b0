"""The games list: every game newest first, paged and filtered, in a fixed number of queries;
and deleting a game (with its undo).

A page asks for one game more than it shows to know whether there is a next page, rather
than counting the whole (filtered) history: the cost of a page stays that of the page.
A game set up but never played (no round) that nobody touched for a day is left out
unless asked for: such games are started by mistake or abandoned at the door.

A deleted game is kept (``Game.deleted_at``) so that it can be brought back: it leaves
every list, the statistics and records, and its pages answer 404 until then.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, and_, exists, func, not_, select
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.engine import Bidding, DealerRule, Plan, RuleSet, SuitNames, TieBreak
from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import Game, Player, Seat, utcnow
from scorekeeper.services import changelog, ratings, stats
from scorekeeper.services.errors import Conflict, NotFound, Rejected

log = logging.getLogger(__name__)

PER_PAGE = 20
# Dates a filter can name: anything outside is ignored like any other nonsense.
EARLIEST = date(2000, 1, 1)
LATEST = date(2999, 12, 31)
STATUSES = ("finished", "ongoing")
DEALER_RULES = ("none", "plus_minus_one", "canadian")
ROUND_PLANS = ("full", "short", "unicoloured")
# A game with no round that nobody touched for this long is hidden from the list.
EMPTY_AFTER = timedelta(days=1)


@dataclass(frozen=True)
class GameFilter:
    """What the games list is narrowed to; ``None`` means any."""

    player_id: int | None = None
    status: str | None = None  # "finished" | "ongoing"
    dealer_rule: str | None = None
    round_plan: str | None = None
    date_from: date | None = None
    date_to: date | None = None  # inclusive
    # Also the games set up but never played and left for a day (hidden by default).
    show_empty: bool = False

    @classmethod
    def from_args(cls, args: dict[str, str]) -> GameFilter:
        """A filter from query-string arguments; values that make no sense are ignored."""

        def pick(key: str, allowed: tuple[str, ...]) -> str | None:
            value = args.get(key) or None
            return value if value in allowed else None

        def day(key: str) -> date | None:
            try:
                value = date.fromisoformat(args.get(key) or "")
            except ValueError:
                return None
            return value if EARLIEST <= value <= LATEST else None

        player = args.get("player") or ""
        return cls(
            player_id=int(player) if player.isdecimal() and len(player) <= 9 else None,
            status=pick("status", STATUSES),
            dealer_rule=pick("dealer_rule", DEALER_RULES),
            round_plan=pick("round_plan", ROUND_PLANS),
            date_from=day("from"),
            date_to=day("to"),
            show_empty=args.get("empty") == "1",
        )

    def args(self) -> dict[str, str]:
        """The filter as query-string arguments (for paging links)."""
        out = {
            "player": "" if self.player_id is None else str(self.player_id),
            "status": self.status or "",
            "dealer_rule": self.dealer_rule or "",
            "round_plan": self.round_plan or "",
            "from": "" if self.date_from is None else self.date_from.isoformat(),
            "to": "" if self.date_to is None else self.date_to.isoformat(),
            "empty": "1" if self.show_empty else "",
        }
        return {k: v for k, v in out.items() if v}


# -- the variants in effect, as short badges -------------------------------------------------


def badges(rules: RuleSet) -> list[str]:
    """The rule options of a game that differ from the book, as keys of short names (the
    games list shows them as badges), in the order of RULES.md: V1/V2, V3/V4, V5, V6, V7,
    V8/V9, V10, then R17's tie-break and the suit names."""
    keys: list[str] = []
    if rules.dealer_rule is DealerRule.PLUS_MINUS_ONE:
        keys.append("plus_minus_one")  # V1
    elif rules.dealer_rule is DealerRule.CANADIAN:
        keys.append("canadian")  # V2
    if rules.bidding is Bidding.HIDDEN:
        keys.append("hidden")  # V3
    elif rules.bidding is Bidding.SECRET:
        keys.append("secret")  # V4
    if rules.foresight:
        keys.append("foresight")  # V5
    if rules.saboteur:
        keys.append("saboteur")  # V6
    if rules.no_full_bid:
        keys.append("no_full_bid")  # V7
    if rules.round_plan is Plan.SHORT:
        keys.append("short")  # V8
    elif rules.round_plan is Plan.UNICOLOURED:
        keys.append("unicoloured")  # V9
    if not rules.scoring.is_standard:
        keys.append("scoring")  # V10
    if rules.tie_break is TieBreak.BID_TOTAL:
        keys.append("tie_break")  # R17's option
    if rules.suit_names is SuitNames.FRENCH:
        keys.append("french")
    return keys


# -- lines of a list of games ---------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    """One row of a list of games."""

    public_id: str
    created_at: datetime
    finished: bool
    names: list[str]
    winners: list[str]
    rounds: int  # complete rounds
    dealer_rule: str
    round_plan: str
    mode: str = "pad"
    # The best total and who has it, once a round is played (the winners' when finished).
    lead: int | None = None
    leaders: list[str] = field(default_factory=list)
    badges: list[str] = field(default_factory=list)
    circle_id: int | None = None

    @property
    def started(self) -> bool:
        return self.rounds > 0


@dataclass(frozen=True)
class GamePage:
    games: list[GameLine]
    page: int
    has_next: bool
    # Games left out because they were never played and nobody touched them for a day
    # (0 when they are shown).
    empty_hidden: int = 0

    @property
    def has_prev(self) -> bool:
        return self.page > 1


def _midnight(d: date) -> datetime:
    return datetime.combine(d, time(), tzinfo=UTC)


def _empty(now: datetime) -> ColumnElement[bool]:
    """Games with no round (not even bids) that nobody touched since ``EMPTY_AFTER``.
    (Said as the index of empty games says it, so that the count reads that index alone.)"""
    return and_(
        Game.finished_at.is_(None),
        not_(Game.played),
        Game.updated_at < now - EMPTY_AFTER,
    )


_LINE_COLUMNS = (
    Game.id,
    Game.public_id,
    Game.created_at,
    Game.finished_at,
    Game.mode,
    Game.rules,
    Game.circle_id,
)


@functools.lru_cache(maxsize=256)
def _rule_facts(rules_json: str) -> tuple[str, str, tuple[str, ...]]:
    """Dealer rule, round plan and badges of a stored rule set (a circle plays a few rule
    sets over and over: each is read once)."""
    rules = RuleSet.from_dict(json.loads(rules_json))
    return rules.dealer_rule.value, rules.round_plan.value, tuple(badges(rules))


def _lines(rows: Sequence[Any]) -> list[GameLine]:
    """Lines of these games (rows of ``_LINE_COLUMNS``), their seats in one query."""
    seats: dict[int, list[tuple[str, bool | None, int, int]]] = {row[0]: [] for row in rows}
    if seats:
        for game_id, name, won, rounds, total in db.session.execute(
            select(Seat.game_id, Player.name, Seat.won, Seat.rounds, Seat.total)
            .join(Player, Player.id == Seat.player_id)
            .where(Seat.game_id.in_(list(seats)))
            .order_by(Seat.game_id, Seat.seat)
        ):
            seats[game_id].append((name, won, rounds, total))
    lines = []
    for gid, public_id, created_at, finished_at, mode, rules_data, circle_id in rows:
        table = seats[gid]
        dealer_rule, round_plan, game_badges = _rule_facts(json.dumps(rules_data, sort_keys=True))
        rounds = max((r for _, _, r, _ in table), default=0)
        finished = finished_at is not None
        lead = max((t for _, _, _, t in table), default=0) if rounds else None
        if finished:
            leaders = [name for name, won, _, _ in table if won]
        else:
            leaders = [name for name, _, _, t in table if rounds and t == lead]
        lines.append(
            GameLine(
                public_id=public_id,
                created_at=created_at,
                finished=finished,
                names=[name for name, _, _, _ in table],
                winners=[name for name, won, _, _ in table if won],
                rounds=rounds,
                dealer_rule=dealer_rule,
                round_plan=round_plan,
                mode=mode,
                lead=lead,
                leaders=leaders,
                badges=list(game_badges),
                circle_id=circle_id,
            )
        )
    return lines


_Query = TypeVar("_Query", bound=Select)  # a select of any columns


def _filtered(query: _Query, circle_id: int, flt: GameFilter) -> _Query:
    dealer_rule = Game.rules["dealer_rule"].as_string()
    round_plan = Game.rules["round_plan"].as_string()
    query = query.where(Game.circle_id == circle_id, Game.deleted_at.is_(None))
    if flt.player_id is not None:
        query = query.where(
            exists().where(Seat.game_id == Game.id, Seat.player_id == flt.player_id)
        )
    if flt.status == "finished":
        query = query.where(Game.finished_at.is_not(None))
    elif flt.status == "ongoing":
        query = query.where(Game.finished_at.is_(None))
    if flt.dealer_rule is not None:
        # A rule set stored without the key is the book's.
        query = query.where(func.coalesce(dealer_rule, "none") == flt.dealer_rule)
    if flt.round_plan is not None:
        query = query.where(func.coalesce(round_plan, "full") == flt.round_plan)
    if flt.date_from is not None:
        query = query.where(Game.created_at >= _midnight(flt.date_from))
    if flt.date_to is not None:
        query = query.where(Game.created_at < _midnight(flt.date_to + timedelta(days=1)))
    return query


def list_games(
    circle_id: int,
    flt: GameFilter,
    page: int = 1,
    per_page: int = PER_PAGE,
    now: datetime | None = None,
) -> GamePage:
    """One page of the circle's games that match ``flt``, newest first, without the
    deleted ones and (unless ``flt.show_empty``) the empty ones left for a day, with the
    number of those left out: three queries, plain rows (a list page needs no game
    objects)."""
    page = max(1, page)
    empty = _empty(now or utcnow())
    query = _filtered(select(*_LINE_COLUMNS), circle_id, flt)
    if not flt.show_empty:
        query = query.where(~empty)
    rows = db.session.execute(
        query.order_by(Game.created_at.desc(), Game.id.desc())
        .limit(per_page + 1)
        .offset((page - 1) * per_page)
    ).all()
    hidden = 0
    if not flt.show_empty and flt.status != "finished":
        counted = _filtered(select(func.count(Game.id)), circle_id, flt).where(empty)
        hidden = db.session.scalar(counted) or 0
    return GamePage(_lines(rows[:per_page]), page, len(rows) > per_page, hidden)


def phone_games(public_ids: Sequence[str], limit: int = 10) -> list[GameLine]:
    """The newest of these games (the ones a phone keeps score of), deleted ones left
    out: the home page's list (two queries)."""
    if not public_ids:
        return []
    rows = db.session.execute(
        select(*_LINE_COLUMNS)
        .where(Game.public_id.in_(list(public_ids)), Game.deleted_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(limit)
    ).all()
    return _lines(rows)


# -- deleting a game, and the undo ----------------------------------------------------------


def find_game(public_id: str) -> Game:
    """The game with this id, deleted or not (for deleting and bringing back).

    :raises NotFound: when there is none.
    """
    game: Game | None = db.session.scalar(
        select(Game).where(Game.public_id == public_id).options(selectinload(Game.seats))
    )
    if game is None:
        raise NotFound()
    return game


def deleted_line(public_id: str) -> GameLine | None:
    """The line of a deleted game (what the undo notice names), or ``None`` when the
    game is not deleted (any more)."""
    rows = db.session.execute(
        select(*_LINE_COLUMNS).where(Game.public_id == public_id, Game.deleted_at.is_not(None))
    ).all()
    lines = _lines(rows)
    return lines[0] if lines else None


def _save(game: Game, action: str) -> None:
    game.changes.append(changelog.line(action, action, data={}))
    try:
        db.session.flush()
    except StaleDataError:  # rolled back by the transaction's owner
        raise Conflict(
            _("Someone changed this game in the meantime: nothing was deleted or brought back."),
            "conflict",
        ) from None


def delete_game(game: Game) -> bool:
    """Delete a score pad game: it leaves the lists, statistics and records and its pages
    answer 404, until :func:`restore_game`. Logged in its change log. Returns ``False``
    (and changes nothing) when it was deleted already.

    :raises Rejected: for a digital game.
    :raises Conflict: when the game changed meanwhile (nothing is deleted).
    """
    if game.mode != "pad":
        raise Rejected(
            _("Only games kept on the score pad can be deleted."), "not_a_pad_game", status=422
        )
    if game.deleted_at is not None:
        return False
    game.deleted_at = utcnow()
    stats.withdraw(game)
    _save(game, "game_deleted")
    ratings.game_changed(db.session.connection(), game, was_rated=True)
    log.info("game %s deleted", game.public_id)
    return True


def restore_game(game: Game) -> bool:
    """Bring a deleted game back, counted again as before. Returns ``False`` (and changes
    nothing) when it is not deleted.

    :raises Conflict: when the game changed meanwhile (nothing is brought back).
    """
    if game.deleted_at is None:
        return False
    game.deleted_at = None
    stats.reinstate(game)
    _save(game, "game_restored")
    ratings.game_changed(db.session.connection(), game, was_rated=False)
    log.info("game %s brought back", game.public_id)
    return True


def player_choices(circle_id: int) -> list[tuple[int, str]]:
    """The circle's players as (id, name), by name: the player filter's options (one
    query)."""
    query = select(Player.id, Player.name).where(Player.circle_id == circle_id)
    return [(pid, name) for pid, name in db.session.execute(query.order_by(Player.key))]
