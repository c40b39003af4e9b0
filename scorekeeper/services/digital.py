"""Digital games: the engine deals and checks every move, each phone holds one hand, bots
fill the empty seats, and every finished round goes into the score pad exactly as if it
had been entered by hand.

The whole table lives in the database (``DigitalTable``), so any app process can answer
any phone. Each seat's actions are counted: a request names the count it saw, so a double
tap or a retried request finds the count moved on and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import contains_eager
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.engine import (
    JESTER,
    Card,
    Game,
    Phase,
    RuleError,
    RuleSet,
    Suit,
    Trick,
    TrumpCall,
    illegal_play,
    legal_plays,
    places,
    sort_hand,
)
from scorekeeper.engine.bots import Strategy, play_until_waiting
from scorekeeper.engine.strong import LEVELS, bot_for
from scorekeeper.extensions import db
from scorekeeper.i18n import _, rule_message
from scorekeeper.models import DigitalTable, utcnow
from scorekeeper.models import Game as GameRow
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import Conflict, NotFound, Rejected

PERSON = "person"
BOT = "bot"
KINDS = (PERSON, BOT)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class NewTable:
    """A digital game just created, with the secrets shown once to its creator."""

    game: GameRow
    table: DigitalTable
    seat_tokens: list[str | None]  # None for bot seats
    table_token: str  # pass-and-play on one device
    scorer_token: str


# -- creating -------------------------------------------------------------------------------


def create_table(
    names: Sequence[object],
    kinds: Sequence[str],
    first_dealer: object,
    rules: RuleSet,
    seed: int | None = None,
    level: str = "normal",
    seat_links: bool = True,
) -> NewTable:
    """Set up a digital game, deal the first round and let the bots act. The bots play at
    ``level`` (easy, normal or strong). Without ``seat_links`` (one phone passed round the
    table) no seat has a link of its own: its hand opens only under the table link's cover.

    ``seed`` makes the deals repeatable: for bot test games only; real games deal with
    ``secrets.SystemRandom()``.

    :raises Rejected: for bad players or kinds, or a table of bots only.
    """
    if not isinstance(kinds, (list, tuple)) or len(kinds) != len(names):
        raise Rejected(_("Say for each seat whether a person or a bot plays."), "bad_kinds")
    if any(k not in KINDS for k in kinds):
        raise Rejected(_("Each seat is played by a person or a bot."), "bad_kinds")
    if PERSON not in kinds and seed is None:
        raise Rejected(_("At least one seat must be a person."), "bad_kinds")
    if level not in LEVELS:
        raise Rejected(_("The bots play easy, normal or strong."), "bad_level")
    names = _bot_names(names, kinds)
    game, scorer_token = game_service.create_game(list(names), first_dealer, rules, mode="digital")
    tokens: list[str | None] = [
        secrets.token_urlsafe(18) if k == PERSON and seat_links else None for k in kinds
    ]
    table_token = secrets.token_urlsafe(18)
    seats: list[dict[str, object]] = [
        {"kind": k, "secret": None if t is None else _hash(t)}
        | ({"level": level} if k == BOT else {})
        for k, t in zip(kinds, tokens, strict=True)
    ]
    table = _open(game, rules, seats, _hash(table_token), seed)
    db.session.flush()
    return NewTable(game, table, tokens, table_token, scorer_token)


def _open(
    game: GameRow, rules: RuleSet, seats: list[dict[str, object]], table_hash: str, seed: int | None
) -> DigitalTable:
    """The table of a new digital game: round 1 dealt, the bots' first moves made."""
    engine_game = Game.new(rules, game.player_count, game.first_dealer)
    table = DigitalTable(
        game=game,
        state=engine_game.to_dict(),
        seats=seats,
        actions=[0] * game.player_count,
        table_secret_hash=table_hash,
        seed=seed,
        recent=None,
    )
    db.session.add(table)
    _advance(table, engine_game)
    _save(table, engine_game)
    return table


def play_again(table: DigitalTable) -> DigitalTable:
    """The next game at this table, started once whoever taps first: the same players in
    the same seats (each person's link, and the pass-and-play link, open their place in it
    too: the seats keep their secrets' hashes), the next first dealer, the same rules and
    bots. A second tap, from any phone, finds the game already started.

    :raises Rejected: while the game is not over.
    :raises Conflict: when another phone started it at the same moment (look again).
    """
    started = game_service.next_game_of(table.game)
    if started is not None:
        return get_table(started)
    finished = engine_game(table)
    if not finished.finished:
        raise Rejected(
            _("This game isn't over yet: the next one can start once its last round is played."),
            "game_not_over",
        )
    old = table.game
    game, _scorer = game_service.create_game(
        names(table),
        (old.first_dealer + 1) % old.player_count,
        finished.rules,
        mode="digital",
        circle_id=old.circle_id,
    )
    seed = None if table.seed is None else table.seed + 1
    new = _open(game, finished.rules, [dict(s) for s in table.seats], table.table_secret_hash, seed)
    with _first_wins(_("Someone else started the next game at the same moment.")):
        game_service.mark_next_game(old, game.public_id)
        table.updated_at = utcnow()  # a new version: every phone's next poll shows the way
    return new


@contextmanager
def _first_wins(message: str) -> Iterator[None]:
    """Do the block and flush it (the write view commits it with the answer); when
    another process changed the table at the same moment (its version moved on), nothing
    is stored (the transaction's owner rolls it back) and :class:`Conflict` says
    ``message``. Any flush in the block (autoflush included) may find it so."""
    try:
        yield
        db.session.flush()
    except StaleDataError:
        raise Conflict(message, "conflict") from None


# Names for bots left unnamed, in this order, skipping any a player at the table has.
BOT_NAMES = ("Merlin", "Morgana", "Nimue", "Taliesin", "Vivien", "Oberon")


def _bot_names(names: Sequence[object], kinds: Sequence[str]) -> list[object]:
    """``names`` with each bot seat left blank given a name of its own."""
    taken = {n.strip().casefold() for n in names if isinstance(n, str) and n.strip()}
    spare = (n for n in BOT_NAMES if n.casefold() not in taken)
    return [
        next(spare) if kind == BOT and isinstance(name, str) and not name.strip() else name
        for name, kind in zip(names, kinds, strict=True)
    ]


# -- finding --------------------------------------------------------------------------------


def get_table(public_id: str) -> DigitalTable:
    """:raises NotFound: when there is no digital game with this id."""
    table = db.session.scalar(
        select(DigitalTable)
        .join(DigitalTable.game)
        .options(contains_eager(DigitalTable.game))  # the game's row in the same query
        .where(GameRow.public_id == public_id)
    )
    if table is None:
        raise NotFound()
    return table


@dataclass(frozen=True, slots=True)
class Running:
    """A table still being played, as a phone's list of its tables shows it."""

    public_id: str
    names: list[str]
    round: int
    rounds: int


def running(public_ids: Sequence[str]) -> list[Running]:
    """Those of these tables whose game is not over (deleted ones left out), newest
    first: where a phone that closed its tab finds its way back (one query)."""
    if not public_ids:
        return []
    tables = db.session.scalars(
        select(DigitalTable)
        .join(DigitalTable.game)
        .where(GameRow.public_id.in_(list(public_ids)), GameRow.deleted_at.is_(None))
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
    ).all()
    found = []
    for table in tables:
        game = engine_game(table)
        if not game.finished:
            found.append(
                Running(table.game.public_id, names(table), game.round_number, len(game.plan))
            )
    return found


@dataclass(frozen=True, slots=True)
class Setup:
    """How a table was set up, for the next setup form on the same phone."""

    names: list[str]
    kinds: list[str]
    level: str
    rules: RuleSet
    one_phone: bool  # no seat links: one phone passed round


def setup_of(public_id: str) -> Setup | None:
    """The setup of this digital game (``None`` for none): its names (bots left unnamed
    are left unnamed again), kinds, bot level and rules."""
    try:
        table = get_table(public_id)
    except NotFound:
        return None
    kinds = [str(s.get("kind")) for s in table.seats]
    levels = [str(s.get("level")) for s in table.seats if s.get("kind") == BOT]
    seat_names = [
        "" if k == BOT and n in BOT_NAMES else n for n, k in zip(names(table), kinds, strict=True)
    ]
    persons = [s for s in table.seats if s.get("kind") == PERSON]
    return Setup(
        seat_names,
        kinds,
        levels[0] if levels else "normal",
        engine_game(table).rules,
        len(persons) > 1 and all(s.get("secret") is None for s in persons),
    )


def version_of(public_id: str) -> int | None:
    """The table's version alone (one small query): what a poll compares its ETag with."""
    version: int | None = db.session.scalar(
        select(DigitalTable.version).join(DigitalTable.game).where(GameRow.public_id == public_id)
    )
    return version


def seat_of(table: DigitalTable, token: str) -> int:
    """The seat whose secret link this is.

    :raises NotFound: for a token of no seat (the same answer as for no game at all).
    """
    digest = _hash(token or "")
    found = None
    for seat, info in enumerate(table.seats):
        secret = info.get("secret")
        # Compare every seat, in constant time, whatever matches.
        if isinstance(secret, str) and hmac.compare_digest(secret, digest):
            found = seat
    if found is None:
        raise NotFound()
    return found


def table_token_matches(table: DigitalTable, token: str) -> bool:
    return hmac.compare_digest(table.table_secret_hash, _hash(token or ""))


def engine_game(table: DigitalTable) -> Game:
    """The table's game in the engine, its totals as the score pad adds them up: the
    rounds played and any bonus or penalty given on the pad since (the engine's one
    scoring). So the standings, places and winners every seat sees, and a dealer rule
    that looks at the totals (V2), go by what the pad shows."""
    game = Game.from_dict(dict(table.state))
    sheet = game_service.sheet_of(table.game)
    game.totals = list(sheet.totals_before(len(game.history) + 1))
    return game


def bot_seats(game: GameRow) -> frozenset[int]:
    """The seats of a game that bots play (none for a score pad game): its pad marks them."""
    if game.mode != "digital":
        return frozenset()
    seats = db.session.scalar(select(DigitalTable.seats).where(DigitalTable.game_id == game.id))
    return frozenset(i for i, s in enumerate(seats or []) if s.get("kind") == BOT)


def names(table: DigitalTable) -> list[str]:
    return game_service.names_of(table.game)


def is_bot(table: DigitalTable, seat: int) -> bool:
    return table.seats[seat].get("kind") == BOT


def person_seats(table: DigitalTable) -> list[int]:
    return [s for s in range(len(table.seats)) if not is_bot(table, s)]


def waiting_persons(table: DigitalTable) -> list[int]:
    """The people the table waits for now (none once the game is over)."""
    game = engine_game(table)
    if game.finished:
        return []
    return [s for s in game.waiting_for() if not is_bot(table, s)]


# -- acting ---------------------------------------------------------------------------------

ACTIONS = ("trump", "bid", "play")
# A page's own name for itself (digital.js makes one per tab): which screen moved last.
SCREEN = re.compile(r"[A-Za-z0-9_-]{8,32}")


def _already_done(table: DigitalTable, seat: int, action: str, screen: str) -> str:
    """Why a move sent with an old action count changed nothing: a second tap of this
    screen was counted once; from another screen, say what that screen did. (A page that
    doesn't name itself, without JavaScript, can't be told apart: counted once.)"""
    if not screen or table.seats[seat].get("screen") == screen:
        return _("Already done: this tap was counted once.")
    game = engine_game(table)
    name = names(table)[seat]
    bid = game.bids[seat] if game.phase in (Phase.BIDDING, Phase.PLAYING) else None
    if bid is None and game.history and game.phase is not Phase.BIDDING:
        bid = game.history[-1].bids[seat]
    if action == "bid" and bid is not None:
        return _("%(name)s already bid %(bid)s from another screen.", name=name, bid=bid)
    if action == "play":
        return _("%(name)s already played that turn from another screen.", name=name)
    if action == "trump":
        return _("%(name)s already chose trump from another screen.", name=name)
    return _("%(name)s already moved from another screen: here is the table now.", name=name)


def act(
    table: DigitalTable, seat: int, action: str, value: str, seq: object, screen: str = ""
) -> str | None:
    """``seat`` takes ``action`` (trump/bid/play) with ``value``; ``seq`` is the seat's
    action count the request saw, ``screen`` names the page that sent it (a tab of its
    own). Then the bots act, finished rounds go into the score pad and the next round is
    dealt. Returns a note for the player, if any.

    :raises Conflict: when ``seq`` is not the seat's current count (a double tap, a retry,
        or a page that was out of date, which the message tells apart): nothing was done.
    :raises Rejected: out of turn, in the wrong phase, or a move the rules forbid, with
        the reason in the player's words.
    """
    try:
        expected = int(str(seq))
    except ValueError:
        raise Rejected(_("This request is missing its action number."), "bad_request") from None
    screen = screen if SCREEN.fullmatch(screen or "") else ""
    if expected != table.actions[seat]:
        raise Conflict(_already_done(table, seat, action, screen), "already_done")
    if is_bot(table, seat):
        raise Rejected(_("A bot plays this seat."), "bot_seat")
    game = engine_game(table)
    try:
        if action == "trump":
            game.choose_trump(seat, Suit.from_name(value))
        elif action == "bid":
            # A bid has at most two digits (20 cards); a longer number is refused unread.
            if not (value.isascii() and value.isdecimal()) or len(value) > 2:
                raise Rejected(_("A bid is a whole number of tricks."), "bad_bid")
            game.bid(seat, int(value))
        elif action == "play":
            _play(game, seat, value)
        else:
            raise Rejected(_("Unknown action."), "bad_request")
    except RuleError as exc:
        raise Rejected(rule_message(exc, names(table)), exc.code or "illegal") from None
    except Rejected:
        raise
    except ValueError:  # a suit or card that does not parse
        message = (
            _("%(value)s is not one of the four suits.", value=repr(value))
            if action == "trump"
            else _("%(value)s is not a card.", value=repr(value))
        )
        raise Rejected(message, "bad_request") from None
    actions = list(table.actions)
    actions[seat] += 1
    table.actions = actions
    seats = [dict(s) for s in table.seats]
    if seats[seat].get("screen", "") != screen:
        seats[seat]["screen"] = screen
        table.seats = seats
    with _first_wins(_("Someone else acted at the same moment: here is the table now.")):
        _advance(table, game)
        _save(table, game)
    return None


def _play(game: Game, seat: int, value: str) -> None:
    if value == "blind" and game.rules.foresight and game.round_number == 1:
        # V5 foresight round: the player can't see their own cards and plays one unseen.
        legal = _legal(game, seat)
        # Out of turn or phase there is nothing legal: the engine then says which it is.
        game.play(seat, legal[0] if legal else JESTER)
        return
    game.play(seat, Card.parse(value))


def _legal(game: Game, seat: int) -> list[Card]:
    if game.phase is not Phase.PLAYING or game.turn != seat:
        return []
    return legal_plays(game.hands[seat], [c for _, c in game.trick])


def _rng(table: DigitalTable, round_number: int) -> random.Random:
    if table.seed is not None:
        return random.Random(table.seed * 1000 + round_number)
    return secrets.SystemRandom()


def bot_level(table: DigitalTable, seat: int) -> str | None:
    """The level a bot seat plays at (tables set up before levels: normal)."""
    return str(table.seats[seat].get("level", "normal")) if is_bot(table, seat) else None


def _strategies(table: DigitalTable) -> list[Strategy | None]:
    return [
        None if (level := bot_level(table, s)) is None else bot_for(level)
        for s in range(len(table.seats))
    ]


def _advance(table: DigitalTable, game: Game) -> None:
    """Let the bots act; deal each next round; then put the finished rounds into the
    score pad, whose commit stores the table with them (all or nothing)."""
    strategies = _strategies(table)
    pending: list[int] = []
    recorded = sum(1 for r in table.game.rounds if r.complete)
    last_trick: Trick | None = None  # of the round that ended last, before the next deal
    while True:
        play_until_waiting(game, strategies)
        while recorded + len(pending) < len(game.history):
            pending.append(recorded + len(pending) + 1)
            last_trick = game.last_trick if pending[-1] == len(game.history) else None
        if game.phase is not Phase.DEAL:
            break
        game.deal(_rng(table, game.round_number + 1))
    played = [(number, game.history[number - 1]) for number in pending]
    game_service.record_played(table.game, played, _trump_to_show(table, game))
    if pending:
        _remember(table, game, pending[-1], last_trick)
    _save(table, game)


def _trump_to_show(table: DigitalTable, game: Game) -> tuple[int, TrumpCall] | None:
    """The open round's trump for the score pad as soon as it is known (turned up, or
    chosen by the dealer): it is public at the table (R7, R8). ``None`` when the pad
    has it already or nothing is to be shown."""
    if (
        game.phase not in (Phase.BIDDING, Phase.PLAYING)
        or game.round_number != len(game.history) + 1
    ):
        return None
    trump = game.trump_call()
    open_round = next((r for r in table.game.rounds if r.number == game.round_number), None)
    shown = None if open_round is None or not open_round.trump else open_round.trump
    return None if shown == str(trump) else (game.round_number, trump)


def _remember(table: DigitalTable, game: Game, number: int, last: Trick | None) -> None:
    """What every phone shows about round ``number`` while the next one starts (``last``
    its last trick); its scores and totals are the pad's, read when a page is drawn
    (``view``)."""
    entry = game.history[number - 1]
    table.recent = {
        "round": number,
        "bids": list(entry.bids),
        "tricks": list(entry.tricks or ()),
        "trump": None if entry.trump is None else str(entry.trump),
        "last_trick": None if last is None else last.to_dict(),
    }


def _save(table: DigitalTable, game: Game) -> None:
    table.state = game.to_dict()
    table.updated_at = utcnow()


def seat_actions(table: DigitalTable, seat: int) -> int:
    return int(table.actions[seat])


def view(table: DigitalTable, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (``None``: a spectator), with names and the recent round."""
    game = engine_game(table)
    data = game.view(seat)
    data["names"] = names(table)
    data["bots"] = [is_bot(table, s) for s in range(len(table.seats))]
    data["rules"] = game.rules
    data["plan"] = game.plan
    data["seq"] = None if seat is None else seat_actions(table, seat)
    data["foresight"] = game.rules.foresight and game.round_number == 1 and not game.finished
    recent = table.recent
    data["recent"] = (
        recent
        if recent is not None
        and recent.get("round") == len(game.history)
        and game.last_trick is None
        and not game.trick
        else None
    )
    if data["recent"] is not None:
        # Its scores and the totals after it as the score pad has them now (the engine's
        # one scoring), with any bonus or penalty given on the pad since the round ended.
        scored = game_service.sheet_of(table.game).rounds[data["recent"]["round"] - 1]
        data["recent"] = {
            **data["recent"],
            "scores": list(scored.scores or ()),
            "totals": list(scored.totals),
        }
    # The trump the round just played had (its last trick is shown under the next one's).
    call = data["recent"].get("trump") if data["recent"] else None
    data["recent_trump"] = TrumpCall.parse(call).suit if isinstance(call, str) else None
    data["public_id"] = table.game.public_id
    data["first_dealer"] = game.first_dealer
    data["finished"] = game.finished
    # Why each card of the hand can't be played now ("You must follow red").
    reasons: dict[str, str] = {}
    if seat is not None and game.phase is Phase.PLAYING and game.turn == seat:
        trick = [c for _, c in game.trick]
        for card in game.hands[seat]:
            refusal = illegal_play(card, game.hands[seat], trick)
            if refusal is not None:
                # "You must follow red: …", in the reader's language.
                reasons[str(card)] = rule_message(refusal)
    data["illegal"] = reasons
    # Why each bid key the seat may not tap is refused, from the bids it sees (V3, V4).
    data["bid_reasons"] = (
        {}
        if seat is None
        else {
            bid: rule_message(exc, data["names"])
            for bid, exc in game.bid_refusals_seen(seat).items()
        }
    )
    # The hand as a player holds it: sorted, trump first (the engine's order).
    trump = None if game.rules.unicoloured else game.trump
    data["hands"] = [
        None if h is None else [str(c) for c in sort_hand([Card.parse(t) for t in h], trump)]
        for h in data["hands"]
    ]
    data["standings"] = sorted(range(game.players), key=lambda s: (-game.totals[s], s))
    data["places"] = places(game.totals, data["winners"] if game.finished else [])
    data["winner_names"] = [data["names"][s] for s in data["winners"]]
    return data
