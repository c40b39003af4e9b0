"""What a score pad shows, prepared once for the game page, its fragments, the API and the
printed pad: rows per round, masked bids (V3, V4), trump in words, leaders, winners."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper import engine
from scorekeeper.engine import Bidding, RuleSet, SuitNames, TrumpCall
from scorekeeper.models import Game
from scorekeeper.services import games as game_service

HIDDEN_BID = "✓"  # a bid that is in but may not be shown yet


def suit_label(suit: engine.Suit, rules: RuleSet) -> str:
    """The suit's name as this game shows it (colours, or French names: P3)."""
    return (suit.french if rules.suit_names is SuitNames.FRENCH else suit.colour).capitalize()


def trump_label(trump: TrumpCall | None, rules: RuleSet) -> str:
    if trump is None:
        return ""
    if trump.suit is None:
        return "No trump"
    name = suit_label(trump.suit, rules)
    return f"Wizard: dealer chose {name}" if trump.wizard_turned else name


@dataclass(frozen=True)
class Cell:
    """One player's cells of one round."""

    bid: str  # "" not yet, "2", "✓" entered but masked, "–" no bid (V6 dealer)
    tricks: int | None
    score: int | None
    total: int | None

    @property
    def exact(self) -> bool | None:
        if self.score is None or not self.bid.isdigit() or self.tricks is None:
            return None
        return int(self.bid) == self.tricks


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


def _bid_text(bid: int | None, show: bool, is_bidder: bool) -> str:
    if not is_bidder:
        return "–"
    if bid is None:
        return ""
    return str(bid) if show else HIDDEN_BID


def _bids_visible(
    rules: RuleSet, bids: list[int | None], bidders: list[int], complete: bool
) -> bool:
    if complete or rules.bidding is Bidding.OPEN:
        return True
    if rules.bidding is Bidding.HIDDEN:
        return all(bids[s] is not None for s in bidders)
    return False  # V4: not before the round's tricks are recorded


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
        bids = list(scored.entry.bids)
        show = _bids_visible(rules, bids, bidders, scored.complete)
        cells = [
            Cell(
                _bid_text(bids[s], show, s in bidders),
                scored.entry.tricks[s] if scored.entry.tricks is not None else None,
                scored.scores[s] if scored.scores is not None else None,
                scored.totals[s] if scored.complete else None,
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
                _flag(game, sheet, scored) if scored.complete else None,
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
            )
        )
    totals = list(sheet.totals)
    standings = sorted(enumerate(totals), key=lambda st: (-st[1], st[0]))
    return PadView(
        public_id=game.public_id,
        names=names,
        rules=rules,
        rule_lines=rules.describe(),
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


def _flag(game: Game, sheet: engine.Sheet, scored: engine.ScoredRound) -> str | None:
    """P2: say when a round would now be refused after a correction before it."""
    try:
        engine.check_entry(
            sheet.rules,
            scored.entry,
            round_number=scored.number,
            cards=scored.cards,
            dealer=scored.dealer,
            totals_before=sheet.totals_before(scored.number),
            names=game_service.names_of(game),
        )
    except ValueError as exc:
        return f"Kept as played, though after a correction: {exc}"
    return None


def _balance(total: int, cards: int) -> str:
    if total > cards:
        return f"{total - cards} over"
    if total < cards:
        return f"{cards - total} under"
    return "even"


def _draft_view(
    game: Game, rules: RuleSet, names: list[str], sheet: engine.Sheet
) -> DraftView | None:
    draft = game_service.draft_of(game)
    if draft is None:
        return None
    n = game.player_count
    order = engine.bidding_order(draft.dealer, n)
    bidders = engine.bidders(rules, draft.dealer, n)
    bids_in = all(draft.bids[s] is not None for s in bidders)
    show = _bids_visible(rules, draft.bids, bidders, False)
    next_bidder = next((s for s in bidders if draft.bids[s] is None), None)
    choices: list[BidChoice] = []
    if next_bidder is not None:
        totals_before = sheet.totals_before(draft.number)
        known = {s: draft.bids[s] for s in bidders if draft.bids[s] is not None}
        for value in range(draft.cards + 1):
            try:
                engine.check_bid(
                    rules,
                    value,
                    round_number=draft.number,
                    cards=draft.cards,
                    dealer=draft.dealer,
                    seat=next_bidder,
                    bids=known,
                    totals_before=totals_before,
                    names=names,
                )
                choices.append(BidChoice(value, True, None))
            except engine.IllegalBid as exc:
                choices.append(BidChoice(value, False, str(exc)))
    shown_total = sum(b for b in draft.bids if b is not None) if show else None
    no_trump_round = engine.deals_every_card(rules, n, draft.cards)
    trump = draft.trump
    if trump is None and no_trump_round:
        trump = TrumpCall(None)
    return DraftView(
        number=draft.number,
        cards=draft.cards,
        dealer=draft.dealer,
        bidding_order=order,
        bidders=bidders,
        leader=engine.first_lead(draft.dealer, n),
        trump=trump_label(trump, rules),
        trump_value="" if trump is None else str(trump),
        no_trump_round=no_trump_round,
        bids=[_bid_text(draft.bids[s], show, s in bidders) for s in range(n)],
        bids_in=bids_in,
        next_bidder=next_bidder,
        choices=choices,
        balance="" if shown_total is None else _balance(shown_total, draft.cards),
        tricks=list(draft.tricks),
        tricks_in=all(t is not None for t in draft.tricks),
    )
