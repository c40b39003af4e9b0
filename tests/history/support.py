"""Building histories for the history tests: a small hand-computed one, and random ones,
in a circle (the history pages are a circle's); and a browser that holds its link."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime

from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import engine
from scorekeeper.engine import DealerRule, Plan, RuleSet
from scorekeeper.extensions import db
from scorekeeper.models import Circle, Game, Player
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service

SHORT = RuleSet(round_plan=Plan.SHORT)
SHORT_CARDS = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]


CIRCLE = "Friends"


@dataclass(frozen=True)
class Fixture:
    """The small history: ids of the three games and the four players, and of the circle
    they belong to (its public id, for its pages, and its database id)."""

    g1: str
    g2: str
    g3: str
    ann: int
    ben: int
    cat: int
    dan: int
    circle: str
    circle_id: int


def the_circle() -> Circle:
    """The circle the test histories go into (made the first time it is asked for)."""
    circle = db.session.scalar(select(Circle).where(Circle.name == CIRCLE))
    return circle if circle is not None else circle_service.create_circle(CIRCLE)


def join(client: FlaskClient, circle: str) -> FlaskClient:
    """Open the circle's link (public id ``circle``) in this browser, as a member would:
    from then on its pages open. Returns the client."""
    with client.application.app_context():
        found = circle_service.get_circle(circle)
        link = f"/c/{found.public_id}/{circle_service.circle_key(found)}"
    response = client.get(link)
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"].endswith(f"/circles/{circle}"), response.headers
    return client


def _game(names: list[str], rules: RuleSet, when: datetime, circle_id: int) -> Game:
    game, _token = game_service.create_game(names, 0, rules, circle_id=circle_id)
    game.created_at = when
    db.session.commit()
    return game


def build_fixture() -> Fixture:
    """Three games of the circle "Friends" (see tests/history/test_stats.py for the
    values they give).

    g1 (short, Ann Ben Cat): every round Ann bids all cards and takes them, Ben bids and
        takes 0, Cat bids 1 and takes 0. Ann 1300, Ben 200, Cat -100: Ann wins.
    g2 (short, Ann Ben Dan): rounds 1-5 Ann bids all and takes all, Ben bids 1 takes 0;
        rounds 6-10 Ann bids all and takes 0, Ben bids all and takes all; Dan always 0/0.
        Ann -400, Ben 850 (450 behind after round 5), Dan 200: Ben wins.
    g3 (full, Ann Ben Cat Dan, ongoing): two rounds.
    """
    circle = the_circle()
    cid = circle.id
    g1 = _game(["Ann", "Ben", "Cat"], SHORT, datetime(2025, 12, 24, 18, tzinfo=UTC), cid)
    for c in SHORT_CARDS:
        game_service.record_round(g1, [c, 0, 1], [c, 0, 0])
    g2 = _game(["Ann", "Ben", "Dan"], SHORT, datetime(2025, 12, 25, 18, tzinfo=UTC), cid)
    for c in SHORT_CARDS[:5]:
        game_service.record_round(g2, [c, 1, 0], [c, 0, 0])
    for c in SHORT_CARDS[5:]:
        game_service.record_round(g2, [c, c, 0], [0, c, 0])
    g3 = _game(["Ann", "Ben", "Cat", "Dan"], RuleSet(), datetime(2026, 1, 6, 18, tzinfo=UTC), cid)
    game_service.record_round(g3, [1, 0, 0, 1], [1, 0, 0, 0])
    game_service.record_round(g3, [0, 1, 0, 1], [1, 1, 0, 0])
    db.session.commit()
    ids = {p.name: p.id for p in db.session.scalars(select(Player).where(Player.circle_id == cid))}
    return Fixture(
        g1.public_id,
        g2.public_id,
        g3.public_id,
        ids["Ann"],
        ids["Ben"],
        ids["Cat"],
        ids["Dan"],
        circle.public_id,
        cid,
    )


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "=SUM(A1)", "-Ivy", "Jo Ø"]


def random_rules(rng: random.Random, players: int) -> RuleSet:
    dealer_rule = rng.choice(list(DealerRule))
    plan = rng.choice([Plan.FULL, Plan.SHORT] + ([Plan.UNICOLOURED] if players <= 4 else []))
    data = {
        "dealer_rule": dealer_rule.value,
        "dealer_rule_from_round": rng.randint(1, 3),
        "round_plan": plan.value,
        "saboteur": rng.random() < 0.2,
        "no_full_bid": rng.random() < 0.2,
        "tie_break": rng.choice(["shared", "bid_total"]),
        "bidding": "open"
        if dealer_rule is not DealerRule.NONE
        else rng.choice(["open", "hidden", "secret"]),
        "scoring": {"exact_bonus": rng.choice([20, 30]), "per_trick": 10, "per_miss": 10},
    }
    return RuleSet.from_dict(data)


def random_round(rng: random.Random, game: Game) -> tuple[list[int | None], list[int]]:
    """Legal bids (asked of the engine) and tricks adding up, for the game's next round."""
    rules = game_service.rules_of(game)
    draft = game_service.draft_of(game)
    assert draft is not None
    sheet = game_service.sheet_of(game)
    n = game.player_count
    bids: dict[int, int | None] = {}
    for seat in engine.bidders(rules, draft.dealer, n):
        allowed = engine.allowed_bids(
            rules,
            round_number=draft.number,
            cards=draft.cards,
            dealer=draft.dealer,
            seat=seat,
            bids=bids,
            totals_before=sheet.totals_before(draft.number),
        )
        bids[seat] = rng.choice(allowed)
    tricks = [0] * n
    for _ in range(draft.cards):
        tricks[rng.randrange(n)] += 1
    return [bids.get(s) for s in range(n)], tricks


def random_history(rng: random.Random, games: int, circle_id: int | None = None) -> None:
    """Random games through the services: some finished, some open, some corrected; in
    the circle ``circle_id`` (by default the one of :func:`the_circle`)."""
    if circle_id is None:
        circle_id = the_circle().id
    for i in range(games):
        n = rng.randint(3, 6)
        names = rng.sample(NAMES, n)
        rules = random_rules(rng, n)
        game, _ = game_service.create_game(names, rng.randrange(n), rules, circle_id=circle_id)
        game.created_at = datetime(2025, 1, 1, tzinfo=UTC).replace(day=1 + i % 28)
        plan = engine.plan_for(rules, n)
        rounds = len(plan) if rng.random() < 0.5 else rng.randint(0, len(plan) - 1)
        for _ in range(rounds):
            bids, tricks = random_round(rng, game)
            game_service.record_round(game, bids, tricks)
        if rounds >= 2 and rng.random() < 0.5:
            # Correct an earlier round's tricks (P2: later rounds stay as played).
            number = rng.randint(1, rounds - 1)
            rnd = game.rounds[number - 1]
            tricks = [r.tricks or 0 for r in rnd.results]
            if rnd.cards > 0:
                src = next(s for s, t in enumerate(tricks) if t > 0)
                tricks[src] -= 1
                tricks[(src + 1) % n] += 1
                game_service.update_round(game, number, tricks=tricks)
        if rounds < len(plan) and rng.random() < 0.5:
            bids, _ = random_round(rng, game)
            game_service.record_round(game, bids)  # bids in, tricks to come
        db.session.commit()


def player_id(name: str, circle_id: int | None = None) -> int:
    """The id of the player of this name in the circle (by default :func:`the_circle`)."""
    if circle_id is None:
        circle_id = the_circle().id
    player = db.session.scalar(
        db.select(Player).where(
            Player.circle_id == circle_id, Player.key == player_service.name_key(name)
        )
    )
    assert player is not None
    return int(player.id)
