"""Taps a round takes on the score pad, replayed through the real page.

Bots play seeded games headless (the engine, normal bots, book rules, the full plan);
each game is then entered on the game page as a scorer at the table would: the setup
form, then every bid and every trick count tapped on the entry panel's own forms (their
hidden fields, keys and buttons as the page renders them, the answers htmx would get),
with the bots' misses as they happened. A tap is one press of a button: a bid key, a
trick key, the circle that points the keys at another player, "the rest made their
bids". The trump is not recorded (it is optional and not counted). Every round stored
is checked against the bots' round.

The scorer knows the counts and takes the shorter of two ways through a round's tricks:
around the table in the order asked (tapping "the rest made their bids" as soon as
everyone left made theirs), or the players who missed first, then the rest as bid.

Targets: 6 players ≤ 10.0 taps a round, 4 players ≤ 7.0.

    .venv/bin/python bench/taps.py [--games 200] [--players 3,4,5,6] [--seed 1] [--jobs 2]
        [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.engine import Game as EngineGame  # noqa: E402
from scorekeeper.engine import Plan, RuleSet  # noqa: E402
from scorekeeper.engine.bots import Bot, play_game  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402

TARGETS = {6: 10.0, 4: 7.0}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eva", "Finn"]
HX = {"HX-Request": "true"}


# -- the entry panel as a scorer's phone shows it -------------------------------------------


@dataclass
class Button:
    name: str
    value: str
    disabled: bool
    classes: str


@dataclass
class Form:
    action: str
    classes: str
    fields: dict[str, str] = field(default_factory=dict)
    buttons: list[Button] = field(default_factory=list)


@dataclass
class Panel:
    number: int | None = None  # the round on the panel (None: the final screen)
    forms: list[Form] = field(default_factory=list)
    takers: list[int] = field(default_factory=list)  # circles under "Took"

    def form(self, cls: str) -> Form | None:
        return next((f for f in self.forms if cls in f.classes.split()), None)


class _PanelParser(HTMLParser):
    """Reads the forms of the ``#entry`` section (hidden fields, submit buttons) and
    the "pick a player" circles."""

    def __init__(self) -> None:
        super().__init__()
        self.panel = Panel()
        self.depth = 0  # section nesting inside #entry
        self.form: Form | None = None
        self.in_title = False
        self.title = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "section" and (self.depth or a.get("id") == "entry"):
            self.depth += 1
        if not self.depth:
            return
        if tag == "h2" and a.get("id") == "entry-title":
            self.in_title = True
        elif tag == "form":
            self.form = Form(a.get("hx-post") or a.get("action", ""), a.get("class", ""))
            self.panel.forms.append(self.form)
        elif tag == "input" and self.form is not None and a.get("type") == "hidden":
            self.form.fields[a.get("name", "")] = a.get("value", "")
        elif tag == "button" and "data-taker" in a:
            self.panel.takers.append(int(a["data-taker"]))
        elif tag == "button" and self.form is not None and a.get("type", "submit") == "submit":
            self.form.buttons.append(
                Button(a.get("name", ""), a.get("value", ""), "disabled" in a, a.get("class", ""))
            )

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        if tag == "section":
            self.depth -= 1
        elif tag == "form":
            self.form = None
        elif tag == "h2" and self.in_title:
            self.in_title = False
            words = self.title.split()
            if len(words) > 1 and words[1].isdigit():
                self.panel.number = int(words[1])

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data


def read_panel(html: str) -> Panel:
    parser = _PanelParser()
    parser.feed(html)
    return parser.panel


# -- a scorer tapping -----------------------------------------------------------------------


class Scorer:
    """One phone keeping score of one game: taps buttons of the panel it was last shown."""

    def __init__(self, client: FlaskClient, public_id: str) -> None:
        self.client = client
        self.public_id = public_id
        self.panel = read_panel(client.get(f"/games/{public_id}").get_data(as_text=True))
        self.taps = 0

    def press(self, form: Form, button: Button | None = None, **override: str) -> None:
        data = {**form.fields, **override}
        if button is not None:
            if button.disabled:
                raise AssertionError(f"{button.name}={button.value} is disabled")
            data[button.name] = button.value
        response = self.client.post(form.action, data=data, headers=HX)
        if response.status_code != 200:
            raise AssertionError(f"{form.action}: {response.status_code}")
        self.taps += 1
        self.panel = read_panel(response.get_data(as_text=True))

    def key(self, form: Form, name: str, value: int) -> Button:
        return next(b for b in form.buttons if b.name == name and b.value == str(value))

    def bids(self, bids: list[int | None]) -> None:
        while (form := self.panel.form("taps")) is not None and form.buttons[0].name == "bid":
            seat = int(form.fields["seat"])
            bid = bids[seat]
            assert bid is not None
            self.press(form, self.key(form, "bid", bid))

    def tricks(self, bids: list[int | None], tricks: list[int], cards: int) -> None:
        number = self.panel.number
        plan = _shorter_way(bids, tricks, cards, self.panel)
        for seat in plan:
            if self.panel.number != number:
                return  # scored: the panel shows the next round
            if seat is None:
                rest = self.panel.form("rest-form")
                assert rest is not None, "the rest as bid was not offered"
                self.press(rest)
                continue
            form = self.panel.form("taps")
            assert form is not None
            if int(form.fields["seat"]) != seat:
                assert seat in self.panel.takers
                self.taps += 1  # the circle under "Took" (app.js points the keys at them)
            self.press(form, self.key(form, "tricks", tricks[seat]), seat=str(seat))
        assert self.panel.number != number, f"round {number} was not scored"


def _shorter_way(
    bids: list[int | None], tricks: list[int], cards: int, panel: Panel
) -> list[int | None]:
    """The seats a scorer who knows the counts taps, in order (``None``: "the rest made
    their bids"): the shorter of going round the table as asked and the misses first.
    Switching to a player who isn't asked costs a tap more (see ``Scorer.tricks``)."""
    form = panel.form("taps")
    assert form is not None
    asked = int(form.fields["seat"])
    order = panel.takers[panel.takers.index(asked) :] + panel.takers[: panel.takers.index(asked)]
    around = _way(order, bids, tricks, cards, misses_first=False)
    first = _way(order, bids, tricks, cards, misses_first=True)
    return min((around, first), key=lambda way: _cost(way, order))


def _way(
    order: list[int], bids: list[int | None], tricks: list[int], cards: int, misses_first: bool
) -> list[int | None]:
    """What the scorer taps, predicted from what the page does (a forced count fills
    itself in; "the rest made their bids" is there when everyone left can have made it)."""
    missing = list(order)
    taken = 0
    way: list[int | None] = []
    while len(missing) > 1 and taken < cards:
        made = all(bids[s] == tricks[s] for s in missing)
        if made and _fits(missing, bids, cards - taken):
            way.append(None)
            return way
        missed = [s for s in missing if bids[s] != tricks[s]]
        seat = missed[0] if misses_first and missed else missing[0]
        way.append(seat)
        missing.remove(seat)
        taken += tricks[seat]
    return way


def _fits(missing: list[int], bids: list[int | None], left: int) -> bool:
    return sum(b or 0 for s, b in enumerate(bids) if s in missing) == left


def _cost(way: list[int | None], order: list[int]) -> int:
    """Taps of ``way``: one each, and one more to point the keys at a player who is not
    the first still missing in bidding order."""
    taps = 0
    missing = list(order)
    for seat in way:
        taps += 1
        if seat is not None:
            taps += seat != missing[0]
            missing.remove(seat)
    return taps


# -- the run --------------------------------------------------------------------------------


def _app(path: Path) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=path.parent / "instance",
    )
    with app.app_context():
        upgrade()
    return app


def replay(app: Flask, players: int, games: range, seed: int) -> dict[str, Any]:
    """Play bot games number ``games`` of ``players`` (each seeded by its number) and
    tap each in; the taps of each round."""
    rules = RuleSet(round_plan=Plan("full"))
    per_round: list[int] = []
    bid_taps = trick_taps = 0
    for number in games:
        rng = random.Random(f"{seed}/{players}/{number}")
        first_dealer = number % players
        played = play_game(EngineGame.new(rules, players, first_dealer), [Bot()] * players, rng)
        client = app.test_client()
        answer = client.post(
            "/games",
            data={"player": NAMES[:players], "dealer": str(first_dealer), "circle": ""},
        )
        assert answer.status_code == 303, answer.status_code
        public_id = answer.headers["Location"].split("?")[0].rsplit("/", 1)[1]
        scorer = Scorer(client, public_id)
        for entry, cards in zip(played.history, played.plan, strict=True):
            assert entry.tricks is not None
            bids, tricks = list(entry.bids), list(entry.tricks)
            before = scorer.taps
            scorer.bids(bids)
            after_bids = scorer.taps
            scorer.tricks(bids, tricks, cards)
            per_round.append(scorer.taps - before)
            bid_taps += after_bids - before
            trick_taps += scorer.taps - after_bids
        with app.app_context():
            stored = game_service.entries_of(game_service.get_game(public_id))
            assert [(e.bids, e.tricks) for e in stored] == [
                (e.bids, e.tricks) for e in played.history
            ], "a round was stored differently from the bots' round"
            db.session.remove()
    return {"taps": per_round, "bids": bid_taps, "tricks": trick_taps}


def _part(job: tuple[int, int, int, int, int]) -> tuple[int, dict[str, Any]]:
    """One process's share: its own app and SQLite database."""
    players, start, stop, step, seed = job
    import logging

    logging.getLogger("alembic").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        app = _app(Path(tmp) / "taps.db")
        return players, replay(app, players, range(start, stop, step), seed)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", default="3,4,5,6", help="player counts, e.g. 4,6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one database each)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    try:
        counts = sorted({int(p) for p in args.players.split(",")})
    except ValueError:
        parser.error("--players: player counts from 3 to 6, e.g. 4,6")
    if not counts or any(not 3 <= p <= 6 for p in counts):
        parser.error("--players: player counts from 3 to 6, e.g. 4,6")
    if args.games < 1:
        parser.error("--games: at least 1")
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    start = time.perf_counter()
    jobs = [(p, k, args.games, args.jobs, args.seed) for p in counts for k in range(args.jobs)]
    parts: dict[int, list[dict[str, Any]]] = {p: [] for p in counts}
    if args.jobs == 1:
        done = map(_part, jobs)
    else:
        done = multiprocessing.get_context("spawn").Pool(args.jobs).imap_unordered(_part, jobs)
    for players, part in done:
        parts[players].append(part)
    results: dict[int, dict[str, Any]] = {}
    for players in counts:
        taps = [t for part in parts[players] for t in part["taps"]]
        rounds = len(taps)
        r = results[players] = {
            "avg": statistics.fmean(taps),
            "bids": sum(part["bids"] for part in parts[players]) / rounds,
            "tricks": sum(part["tricks"] for part in parts[players]) / rounds,
            "rounds": rounds,
        }
        met = ""
        if players in TARGETS:
            goal = TARGETS[players]
            met = f"  (target ≤ {goal}: {'met' if r['avg'] <= goal else 'MISSED'})"
        print(
            f"{players} players: {r['avg']:.2f} taps a round "
            f"({r['bids']:.2f} bids + {r['tricks']:.2f} tricks) "
            f"over {r['rounds']} rounds of {args.games} games{met}"
        )
    seconds = time.perf_counter() - start
    print(f"{seconds:.0f} s")
    figures = {
        "avg_taps": {str(p): round(r["avg"], 2) for p, r in results.items()},
        "bid_taps": {str(p): round(r["bids"], 2) for p, r in results.items()},
        "trick_taps": {str(p): round(r["tricks"], 2) for p, r in results.items()},
        "rounds": {str(p): r["rounds"] for p, r in results.items()},
        "games": args.games,
        "targets": {str(p): t for p, t in TARGETS.items()},
        "met": all(results[p]["avg"] <= t for p, t in TARGETS.items() if p in results),
    }
    if args.json:
        print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
