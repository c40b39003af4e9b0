"""Driving the pages as a phone would: form posts (with or without htmx), and reading
what the pages show back out of their HTML."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.services import games as game_service
from scorekeeper.services.padview import pad_view
from scorekeeper.web.access import credential_tag

HX = {"HX-Request": "true"}


def text_of(fragment: str) -> str:
    """The visible text of an HTML fragment, white space folded."""
    fragment = re.sub(r'<span class="visually-hidden">.*?</span>', "", fragment, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def alert(response: TestResponse) -> str | None:
    """The message of the page's alert (a rule broken), if any."""
    found = re.search(
        r'<p class="alert" role="alert"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S
    )
    return html.unescape(found.group(1)).strip() if found else None


def section(body: str, element_id: str) -> str:
    """The element with this id (up to its matching end tag, for table/section/div)."""
    start = re.search(rf'<(\w+)[^>]*\bid="{element_id}"', body)
    assert start, f"no #{element_id}"
    tag = start.group(1)
    depth, pos = 0, start.start()
    for m in re.finditer(rf"<(/?){tag}\b[^>]*>", body[start.start() :]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return body[pos : start.start() + m.end()]
    raise AssertionError(f"#{element_id} not closed")


def seat_rows(body: str) -> dict[str, tuple[str, str]]:
    """The entry panel's table: name → (bid shown, tricks shown)."""
    panel = section(body, "entry")
    table = re.search(r'<table class="seats">(.*?)</table>', panel, re.S)
    assert table, "no seats table"
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)[1:]:
        name = text_of(re.search(r'<span class="who">(.*?)</span>', row, re.S).group(1))
        cells = re.findall(r'<td class="c">(.*?)</td>', row, re.S)
        rows[name] = (text_of(cells[0]), text_of(cells[1]))
    return rows


def pad_rows(body: str) -> list[list[str]]:
    """The pad's body rows as text cells: [round+cards+trump, total, bid, total, bid, …]."""
    table = section(body, "pad")
    tbody = re.search(r"<tbody>(.*?)</tbody>", table, re.S).group(1)
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", tbody, re.S):
        # A bonus or penalty's mark beside a total is not part of it.
        row = re.sub(r'<sup class="adj".*?</sup>', "", row, flags=re.S)
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([text_of(c).removeprefix("D").strip() for c in cells])
    return rows


def pad_totals(body: str, number: int) -> list[int | None]:
    """The running totals the pad shows in round ``number``'s row."""
    cells = pad_rows(body)[number - 1][1:]
    # Negative totals are shown with a real minus sign (U+2212).
    return [int(t.replace("\N{MINUS SIGN}", "-")) if t else None for t in cells[0::2]]


def pad_bids(body: str, number: int) -> list[str]:
    return pad_rows(body)[number - 1][1:][1::2]


@dataclass
class Pages:
    """One phone's browser: a test client with its own session."""

    client: FlaskClient

    def make_circle(self, name: str = "Friends") -> str:
        """Make a circle through its form (this browser holds its link from then on);
        returns the circle's public id. Give ``circle=`` to :meth:`new_game` to set up a
        game in it."""
        response = self.client.post("/circles", data={"name": name})
        assert response.status_code == 303, alert(response)
        return str(response.headers["Location"]).split("?")[0].rsplit("/", 1)[1]

    def new_game(self, players: Iterable[str], dealer: int = 0, **rules: Any) -> str:
        """Set up a game through the form; returns its public id."""
        response = self.create(players, dealer, **rules)
        assert response.status_code == 303, alert(response)
        # A new game opens with ?welcome=1 (the scorer link shown once, prominently).
        return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]

    def create(
        self, players: Iterable[str], dealer: object = 0, htmx: bool = False, **rules: Any
    ) -> TestResponse:
        data: dict[str, Any] = {"player": list(players), "dealer": str(dealer)}
        for key, value in rules.items():
            if value is True:
                data[key] = "on"
            elif value is not False:
                data[key] = str(value)
        return self.client.post("/games", data=data, headers=HX if htmx else {})

    def page(self, pid: str) -> TestResponse:
        return self.client.get(f"/games/{pid}")

    def whole_page(self, pid: str) -> TestResponse:
        """The game page with every tab's part: a scorer's page leaves the Log and More
        tabs out until they are opened (their links lead here without JavaScript)."""
        return self.client.get(f"/games/{pid}?all=1")

    def post(self, pid: str, action: str, htmx: bool = True, **data: Any) -> TestResponse:
        return self.client.post(
            f"/games/{pid}/{action}",
            data={k: str(v) for k, v in data.items()},
            headers=HX if htmx else {},
        )

    def bid(self, pid: str, seat: int, bid: int | str, **kw: Any) -> TestResponse:
        return self.post(pid, "bid", seat=seat, bid=bid, **kw)

    def tricks(self, pid: str, seat: int, tricks: int | str, **kw: Any) -> TestResponse:
        return self.post(pid, "tricks", seat=seat, tricks=tricks, **kw)

    def confirm(self, pid: str, **kw: Any) -> TestResponse:
        return self.post(pid, "confirm", **kw)

    def play_round(
        self,
        pid: str,
        bids: dict[int, int | None],
        tricks: dict[int, int],
        trump: str | None = None,
    ) -> TestResponse:
        """Tap a round in: trump (optional), bids in bidding order (dict order), tricks
        in dict order until the round is scored (the counts that are forced fill
        themselves in, and the round is scored once every count is in: R16)."""
        if trump is not None:
            ok(self.post(pid, "trump", trump=trump))
        for seat, bid in bids.items():
            if bid is not None:
                ok(self.bid(pid, seat, bid))
        for seat, count in tricks.items():
            response = ok(self.tricks(pid, seat, count))
            if scored(response):
                return response
        return ok(self.confirm(pid))

    def correct(
        self,
        pid: str,
        number: int,
        bids: list[object],
        tricks: list[object],
        trump: str = "",
        **kw: Any,
    ) -> TestResponse:
        data = {f"bid{s}": "" if b is None else b for s, b in enumerate(bids)}
        data.update({f"tricks{s}": t for s, t in enumerate(tricks)})
        return self.post(pid, f"rounds/{number}", trump=trump, **data, **kw)


def scored(response: TestResponse) -> bool:
    """Whether a tap's answer says it scored the round (the page then shows the new
    standings at its top)."""
    return "show:window:top" in response.headers.get("HX-Reswap", "")


def ok(response: TestResponse) -> TestResponse:
    assert response.status_code in (200, 303), (response.status_code, alert(response))
    return response


def stored_tricks(pid: str, number: int) -> list[int | None]:
    """Round ``number``'s trick counts as stored, by seat (needs an app context)."""
    from scorekeeper.extensions import db

    db.session.expire_all()
    rnd = next(r for r in game_service.get_game(pid).rounds if r.number == number)
    return [r.tricks for r in sorted(rnd.results, key=lambda r: r.seat)]


def stored(pid: str) -> tuple[Any, ...]:
    """Everything stored about a game (needs an app context): compared before and after
    a rejection to prove nothing changed."""
    from scorekeeper.extensions import db

    db.session.expire_all()
    game = game_service.get_game(pid)
    rounds = tuple(
        (
            r.number,
            r.cards,
            r.dealer,
            r.trump,
            r.complete,
            tuple((x.seat, x.bid, x.tricks, x.score, x.total) for x in r.results),
        )
        for r in game.rounds
    )
    view = pad_view(game)
    return (
        game.version,
        game.rules,
        rounds,
        tuple(view.totals),
        game.draft_moves,
        len(game.changes),
    )


def keep_score_without_link(client: FlaskClient, pid: str) -> None:
    """The browser keeps score of the game without holding its scorer link, as for a
    browser's older games: its session holds only the tag of the scorer token."""
    app = client.application
    with app.app_context():
        stored, _taken_over = game_service.scoring_states([pid])[pid]
    with app.test_request_context():
        tag = credential_tag(stored)
    with client.session_transaction() as session:
        entries = [e for e in session.get("scoring", []) if e[0] != pid]
        session["scoring"] = [*entries, [pid, tag]]
