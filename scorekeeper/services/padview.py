"""What a score pad shows, prepared once for the game page, its fragments, the API and the
printed pad: rows per round, masked bids (V3, V4), trump in words, leaders, winners."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from scorekeeper import engine, i18n
from scorekeeper.engine import RuleSet, SuitNames, TrumpCall
from scorekeeper.models import Game
from scorekeeper.services import games as game_service

HIDDEN_BID = "✓"  # a bid that is in but may not be shown yet


def suit_label(suit: engine.Suit, rules: RuleSet) -> str:
    """The suit's name as this game shows it (colours, or French names: P3)."""
    if rules.suit_names is SuitNames.FRENCH:
        return str(_FRENCH_NAMES[suit.french])
    return str(_COLOUR_NAMES[suit.colour])


_COLOUR_NAMES = {
    "yellow": i18n._l("Yellow"),
    "red": i18n._l("Red"),
    "green": i18n._l("Green"),
    "blue": i18n._l("Blue"),
}
_FRENCH_NAMES = {
    "hearts": i18n._l("Hearts"),
    "diamonds": i18n._l("Diamonds"),
    "clubs": i18n._l("Clubs"),
    "spades": i18n._l("Spades"),
}


def trump_label(trump: TrumpCall | None, rules: RuleSet) -> str:
    if trump is None:
        return ""
    if trump.suit is None:
        return i18n._("No trump")
    name = suit_label(trump.suit, rules)
    return i18n._("Wizard: dealer chose %(suit)s", suit=name) if trump.wizard_turned else name


_FRENCH_SYMBOL = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}


def suit_mark(suit: engine.Suit, rules: RuleSet) -> str:
    """A short mark for the suit, so it is never shown by colour alone: the start of the
    colour's name in the reader's language (Y, R, G, B; Ge, Ro, Gr, Bl) or the French
    suit symbol (P3)."""
    if rules.suit_names is SuitNames.FRENCH:
        return _FRENCH_SYMBOL[suit.french]
    return i18n.suit_mark(suit.colour)


def trump_mark(trump: TrumpCall | None, rules: RuleSet) -> str:
    """The trump in a narrow pad cell: a suit mark, "–" for no trump, "" not recorded."""
    if trump is None:
        return ""
    return "–" if trump.suit is None else suit_mark(trump.suit, rules)


@dataclass(frozen=True)
class TrumpOption:
    """One suit as a trump choice: its stored value, its name and mark for this game."""

    value: str  # the colour name ("red"); "wizard:red" is built from it
    label: str
    mark: str


def trump_options(rules: RuleSet) -> list[TrumpOption]:
    """The four suits as this game names them, in the book's order."""
    return [TrumpOption(s.colour, suit_label(s, rules), suit_mark(s, rules)) for s in engine.Suit]


@dataclass(frozen=True)
class Cell:
    """One player's cells of one round."""

    bid: str  # "" not yet, "2", "✓" entered but masked, "–" no bid (V6 dealer)
    tricks: int | None
    score: int | None
    total: int | None
    adjusted: int = 0  # bonuses and penalties of the round (in the total)
    reasons: str = ""  # their reasons, "; " between
    seen: engine.SeenBid = None  # the bid as the round model shows it: a number, or sealed

    @property
    def bid_number(self) -> int | None:
        """The bid when it may be seen, else ``None``."""
        return self.seen if isinstance(self.seen, int) else None

    @property
    def sealed(self) -> bool:
        """Whether the bid is in but may not be seen yet (V3, V4)."""
        return self.seen is engine.SEALED

    @property
    def exact(self) -> bool | None:
        if self.score is None or self.bid_number is None or self.tricks is None:
            return None
        return self.bid_number == self.tricks


@dataclass(frozen=True)
class Row:
    number: int
    cards: int
    dealer: int
    trump: str
    trump_suit: str | None  # colour name, for styling
    cells: list[Cell]
    complete: bool
    recorded: bool
    flag: str | None = None  # P2: a later round the rules would now refuse
    trump_mark: str = ""  # "R", "♥", "–" (no trump), "" (not recorded)
    trump_wizard: bool = False  # a Wizard was turned and the dealer chose the suit
    no_trump_round: bool = False  # every card is dealt (R8) or unicoloured (V9): no suit
    adjustments: tuple[engine.Adjustment, ...] = ()  # bonuses and penalties, in order given


@dataclass(frozen=True)
class BidChoice:
    value: int
    allowed: bool
    reason: str | None


@dataclass(frozen=True)
class DraftView:
    """The round being entered."""

    number: int
    cards: int
    dealer: int
    bidding_order: list[int]
    bidders: list[int]
    leader: int
    trump: str
    trump_value: str
    no_trump_round: bool
    bids: list[str]
    bids_in: bool
    next_bidder: int | None
    choices: list[BidChoice]
    balance: str  # "2 over", "1 under", "even" — once the bids shown add up to something
    tricks: list[int | None]
    tricks_in: bool
    bids_total: int | None = None  # of the bids shown; None while they are masked
    trump_mark: str = ""
    trump_suit: str | None = None  # colour name, for styling
    next_taker: int | None = None  # whose tricks to tap next (bidding order), once bids are in
    trick_choices: list[BidChoice] = field(default_factory=list)
    # The last tap, which "Undo" takes back: ("bid" | "tricks", seat), alone.
    undo: tuple[str, int] | None = None
    # Counts go in in any order: the first missing one in bidding order is asked for,
    # the others are a tap on their row away; "the rest made their bids" fills in every
    # missing count at once when their bids add up with the counts in (never for secret
    # bids: V4).
    rest_as_bid: bool = False
    # When someone missed: "only they missed" for each seat whose count is missing, in
    # the reader's words (with the count it enters, when it can be entered); the page
    # shows the one the keys point at. Empty when it isn't offered.
    missed_labels: dict[int, str] = field(default_factory=dict)
    shown_bids: list[int | None] = field(default_factory=list)  # per seat, None if masked
    # While bids are being made: their limits as data (the engine's), which the page
    # enforces on its own while it can't reach the server. The dealer rule's total only
    # for open bids: sealed ones (V3, V4) are checked by the server once they arrive.
    limits: engine.BidLimits | None = None
    sealed: str = ""  # what a sealed bid shows (V3, V4); "" for open bids
    reveal: str = "now"  # when the bids are shown to all: engine.Reveal's value
    # What the trick counts do at each step (the engine's, as data: the highest count the
    # next player may be given, what fills itself in), for the same page while offline.
    count_steps: dict[str, Any] = field(default_factory=dict)
    # Likewise the bid a bid key refuses besides the top bid (the dealer rule: V1, V2),
    # by bids missing and their total so far; empty for sealed bids (V3, V4).
    bid_steps: dict[str, Any] = field(default_factory=dict)
    # The totals before this round (bonuses and penalties in), which the page adds the
    # rounds it enters offline to.
    totals_before: list[int] = field(default_factory=list)
    # While the counts go in: the tricks no count holds yet (the engine's), for the words
    # next to the keys; None before every bid is in and once every count is.
    tricks_left: int | None = None


@dataclass(frozen=True)
class Standing:
    """One line of the standings at a glance."""

    place: int  # equal totals share a place (R17)
    seat: int
    name: str
    total: int
    behind: int  # points behind the leader: 0 for the leader(s)


SOFT_HYPHEN = "\N{SOFT HYPHEN}"
_VOWELS = frozenset("aeiouyäöüáàâéèêëíìîïóòôúùûæøåœ")
# Letters that stand for one sound: a word never breaks inside them.
_UNITS = ("sch", "ch", "ck", "ph", "sh", "th")


def breakable(name: str, shortest: int = 3) -> str:
    """``name`` with soft hyphens where its long words may break across lines: before
    the consonant (or "ch", "sch", …) that opens a syllable, as a rough rule of English
    and German finds them ("Maxi-mi-lian", "Chris-topher", "Kons-tan-tin"), at least
    ``shortest`` letters from either end of the word. Short words stay whole."""
    return " ".join(
        "-".join(_breakable_word(part, shortest) for part in word.split("-"))
        for word in name.split(" ")
    )


def _breakable_word(word: str, shortest: int) -> str:
    if len(word) < 2 * shortest or not word.isalpha():
        return word
    low = word.lower()
    breaks = []
    inside = 0  # letters left of a unit just passed
    for i in range(1, len(low)):
        if inside:
            inside -= 1
            continue
        unit = next((u for u in _UNITS if low.startswith(u, i)), low[i])
        after = i + len(unit)
        if (
            low[i] not in _VOWELS
            and after < len(low)
            and low[after] in _VOWELS
            and shortest <= i <= len(low) - shortest
            and any(c in _VOWELS for c in low[:i])
        ):
            breaks.append(i)
        inside = len(unit) - 1
    for i in reversed(breaks):
        word = word[:i] + SOFT_HYPHEN + word[i:]
    return word


@dataclass(frozen=True)
class PadView:
    public_id: str
    names: list[str]
    rules: RuleSet
    rule_lines: list[str]
    plan: list[int]
    rows: list[Row]
    totals: list[int]
    leaders: list[int]
    finished: bool
    winners: list[int]
    standings: list[tuple[int, int]]  # (seat, total), best first
    draft: DraftView | None
    version: int
    created_at: object = None
    changes: list[tuple[object, str]] = field(default_factory=list)

    @property
    def winner_names(self) -> list[str]:
        return [self.names[s] for s in self.winners]

    @property
    def tie_broken(self) -> bool:
        """Whether the tie-break (R17, bid total) decided between equal top totals."""
        return self.finished and len(self.winners) < self.totals.count(max(self.totals))

    @property
    def rounds_done(self) -> int:
        """How many rounds are scored."""
        return sum(1 for row in self.rows if row.complete)

    @property
    def board(self) -> list[Standing]:
        """The standings at a glance, best first: each player's shared place (R17, as
        :attr:`places`), total, and how far behind the leader."""
        places = self.places
        top = places[0][2] if places else 0
        return [
            Standing(place, seat, self.names[seat], total, top - total)
            for place, seat, total in places
        ]

    @property
    def pad_names(self) -> list[str]:
        """The names as the pad's narrow columns head them: long ones may break at their
        syllables (soft hyphens), so they wrap instead of widening the pad."""
        return [breakable(name) for name in self.names]

    @property
    def places(self) -> list[tuple[int, int, int]]:
        """(place, seat, total), best first: the engine's places (R17); before the end
        nobody has won, and equal totals simply share a place."""
        return engine.places(self.totals, self.winners if self.finished else [])


def _bid_text(seen: engine.SeenBid, is_bidder: bool) -> str:
    if not is_bidder:
        return "–"
    if seen is None:
        return ""
    return HIDDEN_BID if seen is engine.SEALED else str(seen)


def pad_view(game: Game) -> PadView:
    """Everything a pad shows for ``game``; hidden and secret bids are masked here, so
    no page, fragment, PDF or API answer built from this can leak them."""
    rules = game_service.rules_of(game)
    names = game_service.names_of(game)
    sheet = game_service.sheet_of(game)
    n = game.player_count
    rows: list[Row] = []
    for scored in sheet.rounds:
        bidders = engine.bidders(rules, scored.dealer, n)
        seen = engine.seen_bids(
            rules,
            scored.entry.bids,
            dealer=scored.dealer,
            played=scored.complete,
            viewer=engine.FOLLOWER,
        )
        cells = [
            Cell(
                _bid_text(seen[s], s in bidders),
                scored.entry.tricks[s] if scored.entry.tricks is not None else None,
                scored.scores[s] if scored.scores is not None else None,
                scored.totals[s] if scored.complete else None,
                scored.adjusted[s],
                "; ".join(a.reason for a in scored.entry.adjustments if a.seat == s and a.reason),
                seen[s],
            )
            for s in range(n)
        ]
        rows.append(
            Row(
                scored.number,
                scored.cards,
                scored.dealer,
                trump_label(scored.entry.trump, rules),
                scored.entry.trump.suit.colour
                if scored.entry.trump and scored.entry.trump.suit
                else None,
                cells,
                scored.complete,
                True,
                _flag(names, sheet, scored) if scored.complete else None,
                trump_mark=trump_mark(scored.entry.trump, rules),
                trump_wizard=bool(scored.entry.trump and scored.entry.trump.wizard_turned),
                no_trump_round=engine.deals_every_card(rules, n, scored.cards),
                adjustments=scored.entry.adjustments,
            )
        )
    for number in range(len(rows) + 1, len(sheet.plan) + 1):
        rows.append(
            Row(
                number,
                sheet.plan[number - 1],
                sheet.dealer(number),
                "",
                None,
                [
                    Cell(
                        "" if s in engine.bidders(rules, sheet.dealer(number), n) else "–",
                        None,
                        None,
                        None,
                    )
                    for s in range(n)
                ],
                False,
                False,
                no_trump_round=engine.deals_every_card(rules, n, sheet.plan[number - 1]),
            )
        )
    totals = list(sheet.totals)
    standings = sorted(enumerate(totals), key=lambda st: (-st[1], st[0]))
    return PadView(
        public_id=game.public_id,
        names=names,
        rules=rules,
        rule_lines=i18n.describe_rules(rules),
        plan=list(sheet.plan),
        rows=rows,
        totals=totals,
        leaders=sheet.leaders,
        finished=sheet.finished,
        winners=sheet.winners,
        standings=standings,
        draft=_draft_view(game, rules, names, sheet),
        version=game.version,
        created_at=game.created_at,
    )


def _flag(names: list[str], sheet: engine.Sheet, scored: engine.ScoredRound) -> str | None:
    """P2: say when a round would now be refused after a correction before it."""
    refusal = _refusal(
        sheet.rules,
        scored.number,
        scored.cards,
        scored.dealer,
        sheet.totals_before(scored.number),
        scored.entry,
        tuple(names),
    )
    if refusal is None:
        return None
    return i18n._(
        "Kept as played, though after a correction: %(reason)s", reason=i18n.rule_message(refusal)
    )


@lru_cache(maxsize=4096)
def _refusal(
    rules: RuleSet,
    number: int,
    cards: int,
    dealer: int,
    totals_before: tuple[int, ...],
    entry: engine.RoundEntry,
    names: tuple[str, ...],
) -> ValueError | None:
    """Why the rules would refuse a played round now (``None``: they wouldn't): the same
    for the same round and totals before it, so checked once for every page that shows
    the round (the engine's check of every played round took a seventh of rendering a
    game page)."""
    draft = engine.RoundDraft.of_entry(rules, number, cards, dealer, totals_before, entry)
    try:
        draft.check(names)
    except ValueError as exc:
        return exc.with_traceback(None)  # kept without the frames it was raised in
    return None


def _balance(total: int, cards: int) -> str:
    if total > cards:
        return i18n._("%(count)s over", count=total - cards)
    if total < cards:
        return i18n._("%(count)s under", count=cards - total)
    return i18n._("even")


def _draft_view(
    game: Game, rules: RuleSet, names: list[str], sheet: engine.Sheet
) -> DraftView | None:
    draft = game_service.draft_of(game)
    if draft is None:
        return None
    n = game.player_count
    seen = draft.seen_by(engine.SCORER)
    next_bidder = draft.next_bidder
    choices = [_choice(option, names) for option in draft.bid_options()]
    shown_total = seen.total
    no_trump_round = engine.deals_every_card(rules, n, draft.cards)
    trump = draft.trump
    if trump is None and no_trump_round:
        trump = TrumpCall(None)
    return DraftView(
        number=draft.number,
        cards=draft.cards,
        dealer=draft.dealer,
        bidding_order=draft.order,
        bidders=draft.bidders,
        leader=engine.first_lead(draft.dealer, n),
        trump=trump_label(trump, rules),
        trump_value="" if trump is None else str(trump),
        no_trump_round=no_trump_round,
        bids=[_bid_text(seen[s], s in draft.bidders) for s in range(n)],
        bids_in=draft.bids_in,
        next_bidder=next_bidder,
        choices=choices,
        balance="" if shown_total is None else _balance(shown_total, draft.cards),
        tricks=list(draft.tricks),
        tricks_in=draft.tricks_in,
        bids_total=shown_total,
        trump_mark=trump_mark(trump, rules),
        trump_suit=trump.suit.colour if trump is not None and trump.suit is not None else None,
        next_taker=draft.next_taker,
        trick_choices=[_choice(o, names) for o in draft.trick_options(draft.next_taker)],
        undo=draft.undo_step,  # from the stack of moves kept with the game
        rest_as_bid=draft.rest_as_bid() is not None,
        missed_labels=_missed_labels(draft, names),
        shown_bids=seen.numbers,
        limits=None if next_bidder is None else draft.limits,
        sealed="" if draft.reveal is engine.Reveal.NOW else HIDDEN_BID,
        reveal=draft.reveal.value,
        count_steps=engine.count_steps(draft).as_data(),
        bid_steps={} if next_bidder is None else engine.bid_steps(draft).as_data(),
        totals_before=list(draft.totals_before),
        tricks_left=draft.tricks_left,
    )


def _missed_labels(draft: engine.RoundDraft, names: list[str]) -> dict[int, str]:
    """The words of "only one missed" for each seat whose count is missing, when it is
    offered (:attr:`engine.RoundDraft.one_missed_offered`)."""
    if not draft.one_missed_offered:
        return {}
    labels: dict[int, str] = {}
    for seat in draft.order:
        if draft.tricks[seat] is not None:
            continue
        counts = draft.only_missed(seat)
        if counts is None:
            labels[seat] = i18n._("Only %(name)s missed", name=names[seat])
        else:
            labels[seat] = i18n.ngettext(
                "Only %(name)s missed: took %(num)s",
                "Only %(name)s missed: took %(num)s",
                counts[seat],
                name=names[seat],
            )
    return labels


def _choice(option: engine.Option, names: list[str]) -> BidChoice:
    """A key of the keypad, a refused one with the engine's reason in the reader's words."""
    if option.refusal is None:
        return BidChoice(option.value, True, None)
    return BidChoice(option.value, False, i18n.rule_message(option.refusal, names))


# -- a blank pad, printed before game night (no game stored) --------------------------------


@dataclass(frozen=True)
class BlankRow:
    number: int
    cards: int
    no_trump: bool  # every card is dealt (R8) or no trump at all (V9): nothing to write


@dataclass(frozen=True)
class BlankPad:
    """What a blank paper pad shows: the round plan, and names when they are known."""

    names: list[str]  # one per seat; "" leaves the name to be written in
    rules: RuleSet
    rule_lines: list[str]
    plan: list[int]
    rows: list[BlankRow]


def blank_pad(players: int, plan: engine.Plan, names: list[str] | None = None) -> BlankPad:
    """A blank pad for ``players`` following ``plan`` (R4, V8, V9).

    :raises ValueError: for a player count the plan can't be played with, or more names
        than players.
    """
    rules = RuleSet(round_plan=plan)
    cards = engine.plan_for(rules, players)
    given = list(names or [])
    if len(given) > players:
        raise ValueError(f"{len(given)} names for {players} players: give at most {players}.")
    return BlankPad(
        names=given + [""] * (players - len(given)),
        rules=rules,
        rule_lines=i18n.describe_rules(rules),
        plan=cards,
        rows=[
            BlankRow(number, n, engine.deals_every_card(rules, players, n))
            for number, n in enumerate(cards, start=1)
        ],
    )


# -- the rest of the game, for the scorer's page while it can't reach the server ----------


def offline_plan(game: Game) -> dict[str, Any]:
    """The engine's data for every round of the game (:func:`engine.game_ahead`), with each
    round's words in the reader's language: the same for the whole game, whatever has been
    entered. The scorer's page keeps entering rounds from this while the phone is offline."""
    rules = game_service.rules_of(game)
    ahead = engine.game_ahead(rules, game.player_count, game.first_dealer, 1)
    data = ahead.as_data()
    for row, rnd in zip(data["rounds"], ahead.rounds, strict=True):
        row["cards_each"] = i18n.ngettext(
            '<strong class="num">%(num)s</strong> card each',
            '<strong class="num">%(num)s</strong> cards each',
            rnd.cards,
        )
        row["to_bid"] = i18n.ngettext(
            '<strong class="num">%(num)s</strong> trick to bid for',
            '<strong class="num">%(num)s</strong> tricks to bid for',
            rnd.cards,
        )
        if rnd.bid_steps.refused or rnd.blind.refused:
            row["why_total"] = i18n.ngettext(
                "%(name)s can't bid %(bid)s: the bids would add up to the %(num)s trick.",
                "%(name)s can't bid %(bid)s: the bids would add up to the %(num)s tricks.",
                rnd.cards,
                name="{name}",
                bid="{bid}",
            )
    rounds = len(ahead.rounds)
    data["texts"] = {
        "title": i18n._(
            'Round %(number)s <span class="of">of %(rounds)s</span>', number="{n}", rounds=rounds
        ),
        "roles": i18n._(
            "<strong>%(dealer)s</strong> deals · <strong>%(leader)s</strong> bids first and leads",
            dealer="{dealer}",
            leader="{leader}",
        ),
        "caption": i18n._("Bidding order, bids and tricks of round %(number)s", number="{n}"),
        "bids": i18n._("%(name)s bids", name="{name}"),
        "dealer_bids": i18n._('%(name)s <span class="tag">deals</span> bids', name="{name}"),
        "deals": i18n._("deals"),
        "leads": i18n._("leads"),
        "no_bid": i18n._("no bid"),
        "not_yet": i18n._("not yet"),
        "everyone": i18n._("Everyone made their bid"),
        "rest": i18n._("The rest made their bids"),
        # "Only … missed" with the count it enters, by that count (0 to the most cards).
        "missed": [
            i18n.ngettext(
                "Only %(name)s missed: took %(num)s",
                "Only %(name)s missed: took %(num)s",
                count,
                name="{name}",
            )
            for count in range(max(r.cards for r in ahead.rounds) + 1)
        ],
        "missed_none": i18n._("Only %(name)s missed", name="{name}"),
        "undo_bid": i18n._("Undo %(name)s's bid", name="{name}"),
        "undo_tricks": i18n._("Undo %(name)s's tricks", name="{name}"),
        "undo": i18n._("Undo"),
        "scored": i18n._("Round %(number)s is scored.", number="{n}"),
        # The standings line over the round (games/_standings.html).
        "after": i18n._("After round %(number)s", number="{n}"),
        "deals_round": i18n._("%(name)s deals round %(number)s", name="{name}", number="{n}"),
        "behind": i18n._(", %(points)s behind", points="{n}"),
        "ask_tricks": i18n._("Tricks: %(name)s took", name="{name}"),
        "online_only": i18n._("Not while offline: this can be done once the connection is back."),
        # Back online, each entry the server refused or that could no longer go (app.js).
        "entry_bid": i18n._(
            "%(name)s's bid of %(bid)s in round %(number)s",
            name="{name}",
            bid="{bid}",
            number="{n}",
        ),
        "entry_sealed_bid": i18n._(
            "%(name)s's bid in round %(number)s", name="{name}", number="{n}"
        ),
        "entry_tricks": i18n._(
            "%(name)s took %(tricks)s in round %(number)s",
            name="{name}",
            tricks="{tricks}",
            number="{n}",
        ),
        "entry_rest": i18n._("“The rest made their bids” in round %(number)s", number="{n}"),
        "entry_missed": i18n._(
            "“Only %(name)s missed” in round %(number)s", name="{name}", number="{n}"
        ),
        "entry_trump": i18n._("the trump of round %(number)s", number="{n}"),
        "entry_other": i18n._("a change made on this phone"),
        "not_saved": i18n._("Not saved: %(entry)s. %(reason)s", entry="{entry}", reason="{reason}"),
        "not_sent_scored": i18n._(
            "Not sent: %(entry)s. Round %(number)s is scored already.",
            entry="{entry}",
            number="{n}",
        ),
        "not_sent_held": i18n._(
            "Not sent: %(entry)s. Another phone entered it first.", entry="{entry}"
        ),
        "not_sent_after": i18n._(
            "Not sent: %(entry)s. It came after an entry the game didn't take.", entry="{entry}"
        ),
        "more_not_sent": i18n._("… and %(num)s more not sent.", num="{n}"),
        "now_held": i18n._("The pad shows what the game holds now; everything else is saved."),
        "differs": i18n._(
            "The server worked out other totals than this phone: these are the server’s."
        ),
    }
    # What a sealed bid shows while the round is open (V3, V4); "" for open bids.
    data["sealed"] = "" if rules.bidding is engine.Bidding.OPEN else HIDDEN_BID
    # When they are shown to all: "now", "all_in" (V3) or "scored" (V4).
    data["reveal"] = engine.reveal_of(rules).value
    return data
