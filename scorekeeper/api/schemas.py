"""The bodies of the JSON API v1 as pydantic models: what a request may send, what an
answer holds. ``openapi.py`` generates the document's schemas from them, and the views read
every request body through :func:`scorekeeper.api.payloads.read_body` with them.

A request model checks what a body is made of: its keys (unknown or missing ones: 400) and
their JSON types (400, named in the reader's words). The ranges, lengths and patterns in
``Field(json_schema_extra=…)`` are rules of the game that the services check and answer
422 with their own code (``bad_players``, ``bad_name``, ``forbidden_bid``, …); they are
written here, from the engine's own constants, so that the document states them. Answers
are built as plain dicts (``payloads.py``); the tests check each one against these models'
schemas.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from scorekeeper.engine import (
    ADJUSTMENT_MAX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REASON_MAX,
    Bidding,
    DealerRule,
    Plan,
    Suit,
    SuitNames,
    TieBreak,
)
from scorekeeper.engine.text import has_control
from scorekeeper.models import NAME_MAX
from scorekeeper.services import players
from scorekeeper.services.circle_api import MAX_ID, RECORDS

COLOURS = [suit.colour for suit in Suit]
TRUMPS = [*COLOURS, "none"]
WIZARD_TRUMPS = [f"wizard:{colour}" for colour in COLOURS]
# The most cards a player can hold: 60 cards among the fewest players.
MOST_CARDS = 60 // MIN_PLAYERS
MAX_PER_PAGE = 100
DEFAULT_PER_PAGE = 20

# Text that a pad shows (names, reasons): white space is folded into single spaces, and then
# no control or other invisible character is left (Unicode's "C" categories,
# ``engine.text.has_control``). The format says it whole (:func:`is_text_line`); the
# pattern says the part a regular expression of any dialect can: no C0 or C1 control
# character that is not white space.
LINE_FORMAT = "text-line"
# A schema that the document writes as a reference to another model's.
REF = "x-ref"
_NO_CONTROL = {"pattern": "[\\x00-\\x08\\x0e-\\x1b\\x7f-\\x84\\x86-\\x9f]"}
_LINE: dict[str, Any] = {"format": LINE_FORMAT, "not": _NO_CONTROL}


def is_text_line(text: str) -> bool:
    """Whether ``text`` is of the document's ``text-line`` format."""
    return not has_control(" ".join(text.split()))


def _extra(**schema: Any) -> Any:
    """Schema keywords written into the document (checked by the services, not here)."""
    return Field(json_schema_extra=schema)


class Closed(BaseModel):
    """A JSON object with exactly these keys, each of its JSON type."""

    model_config = ConfigDict(extra="forbid", strict=True)


Seat = Annotated[
    int, Field(ge=0, le=MAX_PLAYERS - 1, description="A seat: 0-based index into `players`.")
]
Count = Annotated[int, Field(ge=0)]
Rate = Annotated[float | None, Field(ge=0, le=1)]
PlayerId = Annotated[int, Field(ge=1, le=MAX_ID)]
Version = Annotated[int, Field(ge=1, description="Goes up with every change; also the ETag.")]
PerSeat = Annotated[list[int], Field(description="One number per player, in seat order.")]
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Uri = Annotated[str, Field(json_schema_extra={"format": "uri"})]
Link = Annotated[str, Field(description="An address in this API.")]

# -- requests -------------------------------------------------------------------------------

_NAME_RULES = (
    "Names in seat order (the order around the table). White space is trimmed and folded; "
    f"a name has 1 to {NAME_MAX} characters as sent, at least one of them not white space, "
    "and no control or other invisible characters; names differ in more than case and "
    "white space. A bad name is answered 422 `bad_name`, a wrong count or a name twice "
    "422 `bad_players`."
)


def _name_as_sent(name: str) -> str:
    """A name is at most ``NAME_MAX`` characters as sent, white space included (what the
    document can say); the services check it again as stored."""
    if len(name) > NAME_MAX:
        raise players.too_long(name)
    return name


Name = Annotated[
    str,
    AfterValidator(_name_as_sent),
    _extra(minLength=1, maxLength=NAME_MAX, pattern="\\S", **_LINE),
]
Bid = Annotated[int, _extra(minimum=0, maximum=MOST_CARDS)]
PerSeatIn = _extra(minItems=MIN_PLAYERS, maxItems=MAX_PLAYERS)


class ScoringInput(Closed):
    """V10: the scoring numbers, each from 0 to 1000."""

    exact_bonus: int = Field(20, ge=0, le=1000)
    per_trick: int = Field(10, ge=0, le=1000)
    per_miss: int = Field(10, ge=0, le=1000)


def _enum(values: list[Any], default: Any, description: str) -> Any:
    return Field(default, json_schema_extra={"enum": values}, description=description)


class RulesInput(Closed):
    """Missing keys take the book's defaults. A value the enums or ranges don't allow, or an
    unknown option, is answered 422 `bad_rules`."""

    dealer_rule: str = _enum(
        [r.value for r in DealerRule],
        DealerRule.NONE.value,
        "V1 plus/minus one (the 'German rule'), V2 Canadian rule.",
    )
    dealer_rule_from_round: int = Field(
        1, ge=1, le=20, description="The round the dealer rule starts from (V1)."
    )
    no_full_bid: bool = Field(False, description="V7.")
    bidding: str = _enum(
        [b.value for b in Bidding], Bidding.OPEN.value, "V3 hidden bids, V4 secret bids."
    )
    saboteur: bool = Field(False, description="V6 Wizard Saboteur.")
    foresight: bool = Field(False, description="V5 foresight round.")
    round_plan: str = _enum(
        [p.value for p in Plan],
        Plan.FULL.value,
        "V8 short game, V9 unicoloured (3 or 4 players: 422 `bad_players` for more).",
    )
    tie_break: str = _enum([t.value for t in TieBreak], TieBreak.SHARED.value, "R17.")
    scoring: ScoringInput = ScoringInput()
    suit_names: str = _enum(
        [s.value for s in SuitNames], SuitNames.COLOURS.value, "R1, P3: display names only."
    )


class Scoring(ScoringInput):
    """V10."""

    exact_bonus: int = Field(ge=0, le=1000)
    per_trick: int = Field(ge=0, le=1000)
    per_miss: int = Field(ge=0, le=1000)


class Rules(RulesInput):
    """The game's rule set."""

    scoring: Scoring


def _players_at_most(most: int) -> dict[str, Any]:
    return {"properties": {"players": {"maxItems": most}}}


_DEALER_AT_TABLE: list[Any] = [
    {
        "if": _players_at_most(count),
        "then": {"properties": {"first_dealer": {"maximum": count - 1}}},
    }
    for count in range(MIN_PLAYERS, MAX_PLAYERS)
]


class NewGame(Closed):
    """A game to set up."""

    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                *_DEALER_AT_TABLE,  # one of the players (else 422 `bad_dealer`) …
                # … and the unicoloured game is for 3 or 4 (V9; else 422 `bad_players`).
                {
                    "if": {
                        "properties": {
                            "rules": {
                                "properties": {"round_plan": {"const": Plan.UNICOLOURED.value}},
                                "required": ["round_plan"],
                            }
                        },
                        "required": ["rules"],
                    },
                    "then": _players_at_most(4),
                },
            ],
            "examples": [
                {"players": ["Ann", "Ben", "Cat"]},
                {
                    "players": ["Ann", "Ben", "Cat", "Dan"],
                    "first_dealer": 3,
                    "rules": {"dealer_rule": "plus_minus_one", "round_plan": "short"},
                },
            ],
        }
    )

    players: list[Name] = Field(
        json_schema_extra={"minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS, "uniqueItems": True},
        description=_NAME_RULES,
    )
    first_dealer: int = Field(
        0,
        json_schema_extra={"minimum": 0, "maximum": MAX_PLAYERS - 1},
        description="A seat: 0-based index into `players` (422 `bad_dealer` past the last).",
    )
    rules: dict[str, Any] = Field(
        default_factory=dict,
        json_schema_extra={REF: "RulesInput"},  # what the services read it as
        description="The rule set; the book's rules when left out.",
    )


_TRUMP_IN = (
    "A suit, `none` (Jester turned), or the dealer's choice after a Wizard was turned: either "
    "`wizard:<suit>` or the suit with `trump_wizard: true`. null: not recorded (in the last "
    "round, and in a unicoloured game, `none` is recorded by itself when adding a round)."
)


class RoundChange(Closed):
    """Only the keys sent change. The corrected round is checked under the rule set with the
    totals before it as they now stand; later rounds stay as played and their totals are
    recomputed (P2). How many bids and tricks, and which values, the game's players and
    round allow is answered 422 (`bad_bids`, `forbidden_bid`, `tricks_do_not_add_up`, …)."""

    model_config = ConfigDict(
        json_schema_extra={
            "dependentRequired": {"trump_wizard": ["trump"]},
            "examples": [{"tricks": [1, 0, 0]}, {"bids": [1, 0, 0], "version": 3}],
        }
    )

    bids: list[Bid | None] = Field(
        None,  # type: ignore[arg-type]  # left out: not changed
        json_schema_extra=PerSeatIn.json_schema_extra,
        description="One bid per player in seat order. null: no bid — the dealer under Wizard "
        "Saboteur (V6), or a player who has not bid yet (a round without its tricks may be "
        "recorded with bids missing, as the pad takes them one at a time; every bid must be "
        "in before the tricks: `bids_missing`).",
    )
    tricks: list[Bid] | None = Field(
        None,
        json_schema_extra=PerSeatIn.json_schema_extra,
        description="Tricks taken, one per player in seat order, adding up to the round's "
        "cards. Left out (or null) when adding a round: only the bids are recorded. null when "
        "correcting the last round: its tricks are taken back.",
    )
    trump: str | None = Field(
        None, json_schema_extra={"enum": [*TRUMPS, *WIZARD_TRUMPS, None]}, description=_TRUMP_IN
    )
    trump_wizard: bool = Field(
        None,  # type: ignore[assignment]  # left out: not said
        description="true: a Wizard was turned up and the dealer chose `trump`.",
    )

    @model_validator(mode="before")
    @classmethod
    def _trump_with_wizard(cls, data: Any) -> Any:
        if isinstance(data, dict) and "trump_wizard" in data and "trump" not in data:
            raise ValueError("trump_wizard goes with trump")
        return data

    version: int = Field(
        None,  # type: ignore[assignment]
        description="Optimistic versioning: the game's `version` as the client last saw it "
        "(or send If-Match).",
    )


class NewRound(RoundChange):
    """The next round: bids, and tricks now or later."""

    model_config = ConfigDict(
        json_schema_extra={
            "dependentRequired": {"trump_wizard": ["trump"]},
            "examples": [
                {"bids": [0, 1, 0], "tricks": [0, 1, 0], "trump": "red"},
                {"bids": [1, None, None]},
            ],
        }
    )

    bids: list[Bid | None] = Field(
        json_schema_extra=PerSeatIn.json_schema_extra,
        description=RoundChange.model_fields["bids"].description,
    )


class NewAdjustment(Closed):
    """A bonus (points > 0) or penalty (< 0) for a played round."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"seat": 1, "points": -10, "reason": "Misdeal"}]}
    )

    seat: int = Field(
        json_schema_extra={"minimum": 0, "maximum": MAX_PLAYERS - 1},
        description="A seat: 0-based index into `players` (422 past the last).",
    )
    points: int = Field(
        json_schema_extra={
            "minimum": -ADJUSTMENT_MAX,
            "maximum": ADJUSTMENT_MAX,
            "not": {"const": 0},
        },
        description="A bonus (> 0) or penalty (< 0), in the player's total from its round on.",
    )
    reason: str = Field(
        "",
        json_schema_extra={"maxLength": REASON_MAX, **_LINE},
        description="Optional: a misdeal, a revoke… One line.",
    )
    version: int = Field(
        None,  # type: ignore[assignment]
        description="The game version this change is made on (or If-Match).",
    )


REQUESTS: tuple[type[Closed], ...] = (NewGame, RulesInput, NewRound, RoundChange, NewAdjustment)

# -- answers --------------------------------------------------------------------------------


class ErrorBody(Closed):
    code: str = Field(
        description="Stable, for programs: `forbidden_bid`, `bids_equal_tricks`, "
        "`tricks_do_not_add_up`, `game_over`, `bad_rules`, …"
    )
    message: str = Field(description="For people, in the language of Accept-Language.")


class Error(Closed):
    """An error: nothing was changed."""

    error: ErrorBody


class Adjustment(Closed):
    """A one-off bonus or penalty for a player in a played round."""

    seat: Seat
    points: int = Field(
        ge=-ADJUSTMENT_MAX, le=ADJUSTMENT_MAX, json_schema_extra={"not": {"const": 0}}
    )
    reason: str = Field(max_length=REASON_MAX)


class Round(Closed):
    """A recorded round."""

    number: int = Field(ge=1)
    cards: int = Field(ge=1, description="Cards per player.")
    dealer: Seat
    trump: str | None = Field(
        json_schema_extra={"enum": [*TRUMPS, None]},
        description="The trump suit; `none` when a Jester was turned up (or in a round that "
        "deals every card); null when no trump was recorded. When a Wizard was turned up, "
        "this is the suit the dealer chose and `trump_wizard` is true.",
    )
    trump_wizard: bool
    bids: list[Annotated[int, Field(ge=0)] | None] = Field(
        description="Seat order. null: no bid yet, no bid at all (the dealer under V6), or a "
        "bid that may not be seen yet (see `bids_hidden`)."
    )
    bids_hidden: bool = Field(
        description="Some bids are in but masked: hidden bids (V3) until every bid is in, "
        "secret bids (V4) until the round's tricks are."
    )
    tricks: PerSeat | None
    scores: PerSeat | None
    totals: PerSeat | None = Field(description="Running totals after the round.")
    complete: bool = Field(description="The tricks are recorded; null lists until then.")
    flag: str | None = Field(
        description="P2: after a correction before it, this round as played would now be "
        "refused; it is kept as it was."
    )
    adjustments: list[Adjustment] = Field(
        description="Bonuses and penalties given in the round, in the order given (their "
        "points are in `totals`, not in `scores`)."
    )


class NextRound(Closed):
    """The round to record next (or to complete)."""

    number: int = Field(ge=1)
    cards: int = Field(ge=1)
    dealer: Seat
    bidding_order: list[Seat] = Field(description="Left of the dealer first (R6).")
    leader: Seat = Field(description="Leads the first trick.")
    open: bool = Field(
        description="The round is recorded with its bids but not its tricks yet: add them with PUT."
    )


class GameLinks(Closed):
    self: Link = Field(description="This game in the API.")
    view: Uri = Field(description="The game page, read-only: the link to share.")


class ScorerLinks(GameLinks):
    scorer: Uri = Field(
        description="The game page for the scorer (can change the game): it carries the "
        "token, so share it only with whoever keeps score."
    )


class Game(Closed):
    """A whole game."""

    id: str = Field(description="The game's unguessable id.")
    players: list[str] = Field(description="Names in seat order.")
    rules: Rules
    first_dealer: Seat
    round_plan: list[Annotated[int, Field(ge=1)]] = Field(
        description="Cards per player in each round."
    )
    rounds: list[Round]
    totals: PerSeat
    finished: bool
    winners: list[str] = Field(description="Empty until the last round is scored (R17).")
    next_round: NextRound | None = Field(description="null once the game is finished.")
    version: Version
    created_at: Timestamp
    links: GameLinks


class CreatedGame(Game):
    """A game just set up, with its scorer token."""

    scorer_token: str = Field(
        description="The secret that changes this game: send it as a bearer token. Shown "
        "only in this answer."
    )
    links: ScorerLinks


class ConflictError(Closed):
    """409: the game changed since the client loaded it; `game` is the current state."""

    error: ErrorBody
    game: Game


class SelfLink(Closed):
    self: Link


class GameSummary(Closed):
    """A game's line in the list of games."""

    id: str
    players: list[str]
    created_at: Timestamp
    rounds_played: Count
    rounds_in_plan: int = Field(ge=1)
    totals: PerSeat
    finished: bool
    winners: list[str]
    version: Version
    links: SelfLink


class PageLinks(Closed):
    self: Link
    first: Link
    last: Link
    next: Link | None
    prev: Link | None


class GamePage(Closed):
    """One page of the circle's games."""

    games: list[GameSummary] = Field(description="Newest first.")
    page: int = Field(ge=1)
    per_page: int = Field(ge=1, le=MAX_PER_PAGE)
    total: Count = Field(description="Games in all.")
    pages: int = Field(ge=1)
    links: PageLinks


class CircleLinks(Closed):
    self: Link
    games: Link = Field(description="The circle's games.")
    players: Link = Field(description="Its players.")
    records: Link = Field(description="Its records.")


class Circle(Closed):
    """The circle of the token."""

    id: str = Field(description="The circle's id (the part of its token before the dot).")
    name: str
    games: Count = Field(description="Games in the circle.")
    players: Count = Field(description="Players in the circle.")
    created_at: Timestamp
    links: CircleLinks


class Rating(Closed):
    """A rating from the finishing places of the circle's finished score pad games, in
    order of play; equal totals share a place."""

    value: int = Field(
        description="The rating as the pages show it: 1000 + 25 × (mu − 3 × sigma), a "
        "cautious estimate (everyone starts at 1000)."
    )
    margin: Count = Field(
        description="How far the skill may lie from its estimate, in the same points "
        "(2 × 25 × sigma)."
    )
    games: int = Field(ge=1, description="Finished games the rating rests on.")
    provisional: bool = Field(description="Fewer than 5 games: the rating is still settling.")
    mu: float = Field(
        description="The skill estimate (openskill's Plackett-Luce model; a new player's is 25)."
    )
    sigma: float = Field(ge=0, description="Its uncertainty (a new player's is 25/3).")


class PlayerLine(Closed):
    """A player's line in the circle's list of players."""

    id: PlayerId
    name: str
    games: Count = Field(description="Games played in the circle.")
    wins: Count = Field(description="Finished games won (shared wins count).")
    exact_rate: Rate = Field(
        description="Share of the rounds with a bid where the bid was exact; null before the first."
    )
    rating: Rating | None = Field(
        description="The player's rating in the circle; null before their first finished game."
    )
    links: SelfLink


class PlayerList(Closed):
    """Every player of the circle, by name."""

    players: list[PlayerLine]


class GameLine(Closed):
    """One of the player's finished games."""

    id: str = Field(description="The game's id.")
    created_at: Timestamp
    total: int = Field(description="The player's final score.")
    links: SelfLink


class CardsLine(Closed):
    cards: int = Field(ge=1)
    rounds: int = Field(ge=1)
    exact: Count
    exact_rate: float = Field(ge=0, le=1)


class HeadToHead(Closed):
    id: PlayerId
    name: str
    games: int = Field(ge=1)
    ahead: Count
    behind: Count
    level: Count
    links: SelfLink


class PlayerLinks(Closed):
    self: Link
    players: Link


class PlayerStats(Closed):
    """A player's statistics over the circle's games."""

    id: PlayerId
    name: str
    games: Count = Field(description="Games played, finished or not.")
    finished: Count = Field(description="Finished games.")
    wins: Count = Field(description="Finished games won (shared wins count).")
    win_rate: Rate = Field(description="wins / finished; null before the first.")
    average_final: float | None = Field(description="Average final score of the finished games.")
    rounds: Count = Field(description="Rounds played (with their tricks).")
    points: int = Field(description="All the rounds' scores added.")
    average_round_score: float | None = Field(description="points / rounds.")
    bid_rounds: Count = Field(description="Rounds in which the player bid.")
    exact: Count = Field(description="Rounds with the bid exactly made.")
    exact_rate: Rate = Field(description="exact / bid_rounds.")
    overs: Count = Field(description="Rounds with more tricks than bid.")
    unders: Count = Field(description="Rounds with fewer tricks than bid.")
    best_streak: Count = Field(description="Most exact bids in a row in a game.")
    best_game: GameLine | None = Field(
        description="The finished game with the player's highest final score; null before "
        "the first."
    )
    worst_game: GameLine | None = Field(description="The one with the lowest.")
    by_cards: list[CardsLine] = Field(
        description="Rounds and exact bids by the number of cards in hand."
    )
    head_to_head: list[HeadToHead] = Field(
        description="The others at the player's finished games: how often the player "
        "finished ahead of, behind, or level with each; most games together first."
    )
    links: PlayerLinks


class RecordLinks(Closed):
    player: Link
    game: Link


class Record(Closed):
    """One of the best seats of the circle's finished games."""

    player_id: PlayerId
    name: str
    game_id: str
    created_at: Timestamp
    value: int
    links: RecordLinks


RecordList = Annotated[list[Record], Field(max_length=RECORDS)]


class Records(Closed):
    """The best of the circle's finished games, best first (of equal values the later game
    first)."""

    highest_final: RecordList = Field(description="Highest final scores; `value` is the score.")
    most_exact: RecordList = Field(
        description="Most exact bids in one game; `value` is their number."
    )
    biggest_comeback: RecordList = Field(
        description="Winners who were furthest behind the leader during the game; `value` is "
        "that deficit."
    )


ANSWERS: tuple[type[Closed], ...] = (
    Error,
    ConflictError,
    Rules,
    Round,
    Game,
    CreatedGame,
    GamePage,
    Circle,
    PlayerList,
    PlayerStats,
    Records,
)
