"""The games list: every game newest first, paged and filtered, in a fixed number of queries.

A page asks for one game more than it shows to know whether there is a next page, rather
than counting the whole (filtered) history: the cost of a page stays that of the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import exists, select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Seat

PER_PAGE = 20
# Dates a filter can name: anything outside is ignored like any other nonsense.
EARLIEST = date(2000, 1, 1)
LATEST = date(2999, 12, 31)
STATUSES = ("finished", "ongoing")
DEALER_RULES = ("none", "plus_minus_one", "canadian")
ROUND_PLANS = ("full", "short", "unicoloured")


@dataclass(frozen=True)
class GameFilter:
    """What the games list is narrowed to; ``None`` means any."""

    player_id: int | None = None
    status: str | None = None  # "finished" | "ongoing"
    dealer_rule: str | None = None
    round_plan: str | None = None
    date_from: date | None = None
    date_to: date | None = None  # inclusive

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
        }
        return {k: v for k, v in out.items() if v}


@dataclass(frozen=True)
class GameLine:
    """One row of the games list."""

    public_id: str
    created_at: datetime
    finished: bool
    names: list[str]
    winners: list[str]
    rounds: int
    dealer_rule: str
    round_plan: str


@dataclass(frozen=True)
class GamePage:
    games: list[GameLine]
    page: int
    has_next: bool

    @property
    def has_prev(self) -> bool:
        return self.page > 1


def _midnight(d: date) -> datetime:
    return datetime.combine(d, time(), tzinfo=UTC)


def list_games(
    circle_id: int, flt: GameFilter, page: int = 1, per_page: int = PER_PAGE
) -> GamePage:
    """One page of the circle's games that match ``flt``, newest first (two queries,
    plain rows: a list page needs no game objects)."""
    page = max(1, page)
    dealer_rule = Game.rules["dealer_rule"].as_string()
    round_plan = Game.rules["round_plan"].as_string()
    query = select(
        Game.id, Game.public_id, Game.created_at, Game.finished_at, dealer_rule, round_plan
    ).where(Game.circle_id == circle_id)
    if flt.player_id is not None:
        query = query.where(
            exists().where(Seat.game_id == Game.id, Seat.player_id == flt.player_id)
        )
    if flt.status == "finished":
        query = query.where(Game.finished_at.is_not(None))
    elif flt.status == "ongoing":
        query = query.where(Game.finished_at.is_(None))
    if flt.dealer_rule is not None:
        query = query.where(dealer_rule == flt.dealer_rule)
    if flt.round_plan is not None:
        query = query.where(round_plan == flt.round_plan)
    if flt.date_from is not None:
        query = query.where(Game.created_at >= _midnight(flt.date_from))
    if flt.date_to is not None:
        query = query.where(Game.created_at < _midnight(flt.date_to + timedelta(days=1)))
    rows = db.session.execute(
        query.order_by(Game.created_at.desc(), Game.id.desc())
        .limit(per_page + 1)
        .offset((page - 1) * per_page)
    ).all()
    shown = rows[:per_page]
    seats: dict[int, list[tuple[str, bool | None, int]]] = {row[0]: [] for row in shown}
    for game_id, name, won, rounds in db.session.execute(
        select(Seat.game_id, Player.name, Seat.won, Seat.rounds)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.game_id.in_(list(seats)))
        .order_by(Seat.game_id, Seat.seat)
    ):
        seats[game_id].append((name, won, rounds))
    lines = [
        GameLine(
            public_id=public_id,
            created_at=created_at,
            finished=finished_at is not None,
            names=[name for name, _, _ in seats[gid]],
            winners=[name for name, won, _ in seats[gid] if won],
            rounds=max((r for _, _, r in seats[gid]), default=0),
            dealer_rule=dealer or "none",
            round_plan=plan or "full",
        )
        for gid, public_id, created_at, finished_at, dealer, plan in shown
    ]
    return GamePage(lines, page, len(rows) > per_page)


def player_choices(circle_id: int) -> list[tuple[int, str]]:
    """The circle's players as (id, name), by name: the player filter's options (one
    query)."""
    query = select(Player.id, Player.name).where(Player.circle_id == circle_id)
    return [(pid, name) for pid, name in db.session.execute(query.order_by(Player.key))]
