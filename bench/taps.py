"""Taps a round takes on the score pad, replayed through the real page.

Bots play seeded games headless (the engine, normal bots, book rules, the full plan);
each game is then entered on the game page as a scorer at the table would: the setup
form, then every bid and every trick count tapped on the entry panel's own forms (their
hidden fields, keys and buttons as the page renders them, the answers htmx would get),
with the bots' misses as they happened. A tap is one press of a button: a bid key, a
trick key, the circle that points the keys at another player, "the rest made their
bids", "only … missed". The trump is not recorded (it is optional and not counted).
Every round stored is checked against the bots' round.

The scorer knows the counts and takes the shortest honest way through a round's tricks
(each tap says something true; what the page offers after it is the round model's
answer): typically the players who missed first, the last of them with "only … missed"
(the others as bid, theirs what is left, the count on the button checked), or "the rest
made their bids" once everyone left made theirs.

Targets: 6 players ≤ 9.5 taps a round, 4 players ≤ 7.0.

    .venv/bin/python bench/taps.py [--games 200] [--players 3,4,5,6] [--seed 1] [--jobs 2]
        [--json]

With --phone, the same on real phones instead: Debian's Chromium (Playwright) at 360×640,
375×667 and 390×844 against the app on 127.0.0.1, counting taps and scrolls:

- a whole 6-player game (a bots' game, book rules, seeded), tapped in by bench/thumb.py:
  the taps, the taps whose target was not wholly on the screen (a person would scroll
  first) and the scroll events the page itself made;
- a new game with known names from the home page, for a group that played in this
  circle before: New game, the last table, Start (target ≤ 5 taps, each inside the
  screen, Start reachable without scrolling).

    .venv/bin/python bench/taps.py --phone [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.engine import Game as EngineGame  # noqa: E402
from scorekeeper.engine import Plan, RoundDraft, RuleSet  # noqa: E402
from scorekeeper.engine.bots import Bot, play_game  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402

TARGETS = {6: 9.5, 4: 7.0}
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
    attrs: dict[str, str] = field(default_factory=dict)


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
            self.form = Form(a.get("hx-post") or a.get("action", ""), a.get("class", ""), attrs=a)
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
        for kind, seat in _shortest_way(bids, tricks, cards, self.panel):
            assert self.panel.number == number, "scored before the way's end"
            form = self.panel.form(kind)
            assert form is not None, f"{kind} was not offered"
            if kind == "rest-form":
                self.press(form)
                continue
            assert seat is not None
            if int(form.fields["seat"]) != seat:
                assert seat in self.panel.takers
                self.taps += 1  # the circle under "Took" (app.js points the keys at them)
            if kind == "missed-form":
                # The words on the button, as app.js shows them for this player, say the
                # count it enters: the scorer checks it against what was said.
                label = json.loads(form.attrs["data-labels"])[str(seat)]
                assert label.endswith(f"took {tricks[seat]}"), label
                self.press(form, seat=str(seat))
            else:
                self.press(form, self.key(form, "tricks", tricks[seat]), seat=str(seat))
        assert self.panel.number != number, f"round {number} was not scored"


# A tap through the tricks: the form ("taps", "rest-form", "missed-form") and for whom.
Step = tuple[str, int | None]


def _shortest_way(
    bids: list[int | None], tricks: list[int], cards: int, panel: Panel
) -> list[Step]:
    """What a scorer who knows the counts taps through a round's tricks, the fewest taps
    there are, every one of them true: a player's count on the keys, "the rest made their
    bids" when everyone left made theirs, "only … missed" when one of them alone missed.
    Switching the keys to a player who isn't asked costs a tap more (``Scorer.tricks``).
    What the page offers after each tap is the round model's own answer (the engine's
    :class:`RoundDraft`, which the page asks too); the scorer checks it is offered."""
    order = list(panel.takers)
    players = len(bids)
    dealer = (order[0] - 1) % players  # the first asked bids first, left of the dealer
    blank = RoundDraft.empty(RuleSet(round_plan=Plan("full")), 1, cards, dealer, (0,) * players)
    truth = tuple(tricks)
    start = replace(blank, bids=tuple(bids))
    # Dijkstra over the counts entered so far (at most 2^6 of them).
    best: dict[tuple[int | None, ...], int] = {start.tricks: 0}
    queue: list[tuple[int, int, tuple[int | None, ...], RoundDraft, list[Step]]] = [
        (0, 0, start.tricks, start, [])
    ]
    pushed = 0
    while queue:
        cost, _, _, draft, way = heapq.heappop(queue)
        if draft.tricks_in:
            return way
        asked = draft.next_taker
        steps: list[tuple[int, RoundDraft, Step]] = []
        if draft.rest_as_bid() == truth:
            steps.append((1, draft.rest_made_their_bids()[0], ("rest-form", None)))
        missing = [s for s in draft.order if draft.tricks[s] is None]
        offered = draft.one_missed_offered
        for seat in missing:
            point = int(seat != asked)
            steps.append((1 + point, draft.record_tricks(seat, truth[seat])[0], ("taps", seat)))
            if offered and draft.only_missed(seat) == truth:
                after = draft.only_one_missed(seat)[0]
                steps.append((1 + point, after, ("missed-form", seat)))
        for taps, after, step in steps:
            if best.get(after.tricks, cost + taps + 1) > cost + taps:
                best[after.tricks] = cost + taps
                pushed += 1
                heapq.heappush(queue, (cost + taps, pushed, after.tricks, after, way + [step]))
    raise AssertionError("no way through the round's tricks")


# -- the run --------------------------------------------------------------------------------


def _app(path: Path) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "WTF_CSRF_ENABLED": False,
            # One client makes every game of the replay: the hourly quota on the games a
            # client makes is not what is measured here.
            "GAME_QUOTA": 1_000_000,
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


# -- on phones, in Chromium ---------------------------------------------------------------

PHONES = [(360, 640), (375, 667), (390, 844)]
NEW_GAME_TARGET = 5
COUNT_SCROLLS = "window.__scrolls = 0; addEventListener('scroll', () => window.__scrolls++);"


class _Eye:
    """Counts, before each tap, whether its target is wholly on the screen as it is."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.outside = 0
        self.missed: list[str] = []  # the targets outside the screen, said

    def seen(self) -> dict[str, Any]:
        return {
            "taps": self.taps,
            "outside": self.outside,
            "scrolls": self.page.evaluate("window.__scrolls"),
            "missed": self.missed,
        }

    def before(self, _thumb: Any, target: Any) -> None:
        self.see(target)

    def see(self, target: Any) -> None:
        target.wait_for(state="visible")
        box = target.bounding_box()
        size = self.page.viewport_size
        self.taps += 1
        if box is None or box["y"] < 0 or box["y"] + box["height"] > size["height"] + 0.5:
            self.outside += 1
            self.missed.append(f"{target} at {box} on {size['width']}x{size['height']}")


def _phone_context(browser: Any, size: tuple[int, int]) -> Any:
    return browser.new_context(
        viewport={"width": size[0], "height": size[1]}, is_mobile=True, has_touch=True
    )


def _serve(app: Flask) -> tuple[Any, str]:
    import threading

    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def _phone_game(app: Flask, base: str, browser: Any, size: tuple[int, int], seed: int) -> dict:
    from bench.thumb import Thumb, bots_game
    from scorekeeper import transaction

    played = bots_game({}, 6, seed)
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(NAMES, 0, game_service.parse_rules({}))
        link = f"{base}/games/{game.public_id}/score/{token}"
    context = _phone_context(browser, size)
    try:
        page = context.new_page()
        page.add_init_script(COUNT_SCROLLS)
        page.goto(link)
        eye = _Eye(page)
        Thumb(page, eye.before).game(played)
        return {**eye.seen(), "rounds": len(played.plan)}
    finally:
        context.close()


def _phone_new_game(app: Flask, base: str, browser: Any, size: tuple[int, int]) -> dict:
    """Home page → New game → the last table → Start, for a phone that holds the circle
    and kept score of its last game."""
    from playwright.sync_api import expect

    from scorekeeper import transaction
    from scorekeeper.services import circles as circle_service

    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Thursday Wizards")
        game, token = game_service.create_game(
            NAMES, 0, game_service.parse_rules({}), circle_id=circle.id
        )
        circle_link = f"{base}/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        last_game = f"{base}/games/{game.public_id}/score/{token}"
    context = _phone_context(browser, size)
    try:
        page = context.new_page()
        page.goto(circle_link)
        page.goto(last_game)
        page.add_init_script(COUNT_SCROLLS)
        page.goto(base + "/")
        eye = _Eye(page)
        steps = [
            page.get_by_role("link", name="New game"),
            page.locator("#setup .table-chip"),
            page.locator("#setup .start-bar").get_by_role("button", name="Start the game"),
        ]
        for step in steps:
            eye.see(step)
            step.click()
            if step is steps[1]:  # the table sits down: the form comes back with them
                seats = page.locator("#setup input[name=player]")
                expect(seats.nth(len(NAMES) - 1)).to_have_value(NAMES[-1])
        expect(page.locator("form.taps .key").first).to_be_visible()
        return eye.seen()
    finally:
        context.close()


def phone(seed: int) -> dict[str, Any]:
    """The figures of --phone, one run."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    results: dict[str, Any] = {"game": {}, "new_game": {}}
    with tempfile.TemporaryDirectory() as tmp:
        app = _app(Path(tmp) / "phone.db")
        server, base = _serve(app)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for size in PHONES:
                    label = f"{size[0]}x{size[1]}"
                    results["game"][label] = _phone_game(app, base, browser, size, seed)
                    results["new_game"][label] = _phone_new_game(app, base, browser, size)
                browser.close()
        finally:
            server.shutdown()
    return results


def main_phone(seed: int, as_json: bool) -> dict[str, Any]:
    start = time.perf_counter()
    results = phone(seed)
    for label, r in results["game"].items():
        print(
            f"{label}: a 6-player game of {r['rounds']} rounds in {r['taps']} taps "
            f"({r['taps'] / r['rounds']:.1f} a round), {r['outside']} outside the screen, "
            f"{r['scrolls']} scrolls"
        )
    for label, r in results["new_game"].items():
        met = r["taps"] <= NEW_GAME_TARGET and not r["outside"] and not r["scrolls"]
        print(
            f"{label}: a new game with known names from the home page in {r['taps']} taps, "
            f"{r['outside']} outside the screen, {r['scrolls']} scrolls "
            f"(target ≤ {NEW_GAME_TARGET} taps, all on screen: {'met' if met else 'MISSED'})"
        )
    for part in ("game", "new_game"):
        for r in results[part].values():
            for missed in r["missed"]:
                print(f"  outside the screen: {missed}")
    print(f"{time.perf_counter() - start:.0f} s")
    figures = {
        "game_taps": {k: r["taps"] for k, r in results["game"].items()},
        "game_rounds": {k: r["rounds"] for k, r in results["game"].items()},
        "game_outside": {k: r["outside"] for k, r in results["game"].items()},
        "game_scrolls": {k: r["scrolls"] for k, r in results["game"].items()},
        "new_game_taps": {k: r["taps"] for k, r in results["new_game"].items()},
        "new_game_outside": {k: r["outside"] for k, r in results["new_game"].items()},
        "new_game_scrolls": {k: r["scrolls"] for k, r in results["new_game"].items()},
        "new_game_target": NEW_GAME_TARGET,
        "met": all(
            r["taps"] <= NEW_GAME_TARGET and not r["outside"] and not r["scrolls"]
            for r in results["new_game"].values()
        )
        and all(not r["outside"] and not r["scrolls"] for r in results["game"].values()),
    }
    if as_json:
        print(json.dumps(figures))
    return figures


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", default="3,4,5,6", help="player counts, e.g. 4,6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one database each)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument("--phone", action="store_true", help="taps and scrolls in Chromium")
    args = parser.parse_args(argv)
    if args.phone:
        return main_phone(args.seed, args.json)
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
