"""Two app servers, one database: nothing lives in one process's memory.

Two gunicorn processes on two ports share one database (the test PostgreSQL when
TEST_DATABASE_URL is set, else one SQLite file in WAL mode, also a real multi-process
set-up) and one SECRET_KEY. One game is played through both alternately, as phones behind
a load balancer would: set up on A, bids on B, tricks on A, confirm on B, the scorer
session (cookie) and its CSRF token working on both, a second phone claiming the scorer
link on B and writing on A, a correction, a conflict, and the JSON API on both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.robustness.servers import Server, migrate

HX = {"HX-Request": "true"}


@pytest.fixture
def servers(tmp_path: Path, database_url: str) -> Iterator[tuple[Server, Server]]:
    instance = tmp_path / "instance"
    instance.mkdir()
    migrate(database_url, instance)
    a = Server(database_url, instance, workers=1)
    b = Server(database_url, instance, workers=1)
    try:
        yield a.start(), b.start()
    finally:
        a.stop()
        b.stop()


def csrf_of(html: str) -> str:
    match = re.search(r'"X-CSRFToken": "([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


class Phone:
    """A browser: one cookie jar, whichever server answers."""

    def __init__(self) -> None:
        self.http = requests.Session()
        self.csrf = ""

    def get(self, server: Server, path: str) -> requests.Response:
        response = self.http.get(server.base + path, timeout=10)
        if "X-CSRFToken" in response.text:
            self.csrf = csrf_of(response.text)
        return response

    def post(self, server: Server, path: str, **data: object) -> requests.Response:
        return self.http.post(
            server.base + path,
            data={k: str(v) for k, v in data.items()},
            headers={**HX, "X-CSRFToken": self.csrf},
            timeout=10,
            allow_redirects=False,
        )


def test_one_game_through_two_servers(servers: tuple[Server, Server]) -> None:
    a, b = servers
    phone = Phone()
    phone.get(a, "/games/new")
    created = phone.http.post(
        a.base + "/games",
        data={"player": ["Ann", "Ben", "Cat"], "dealer": "0", "csrf_token": phone.csrf},
        allow_redirects=False,
        timeout=10,
    )
    assert created.status_code == 303, created.text[:500]
    pid = created.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    game = f"/games/{pid}"

    # The scorer session made on A is good on B (the scorer link is on the whole page;
    # the phone's own page loads it with the More tab).
    page = phone.get(b, game + "?all=1")
    assert page.status_code == 200
    match = re.search(rf"/games/{pid}/score/([A-Za-z0-9_-]+)", page.text)
    assert match, "B does not know this phone is the scorer"
    token = match.group(1)

    # Round 1 (1 card; Ann deals, Ben bids first): bids on B, the trick on A (Ben took
    # it: the others' 0 fill themselves in and the round is scored); "Undo" on B, and the
    # trick again on A.
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        assert phone.post(b, f"{game}/bid", seat=seat, bid=bid).status_code == 200
    assert phone.post(a, f"{game}/tricks", seat=1, tricks=1).status_code == 200
    assert phone.post(b, f"{game}/reopen", round=1).status_code == 200
    assert phone.post(a, f"{game}/tricks", seat=1, tricks=1).status_code == 200

    # A second phone claims the scorer link on B and plays round 2 on A.
    other = Phone()
    claimed = other.http.get(f"{b.base}/games/{pid}/score/{token}", timeout=10)
    assert claimed.status_code == 200 and claimed.url.endswith(game)
    other.csrf = csrf_of(claimed.text)
    for seat, bid in ((2, 1), (0, 1), (1, 0)):  # Ben deals round 2: Cat bids first
        assert other.post(a, f"{game}/bid", seat=seat, bid=bid).status_code == 200
    assert other.post(b, f"{game}/tricks", seat=2, tricks=1).status_code == 200
    assert other.post(a, f"{game}/tricks", seat=0, tricks=1).status_code == 200  # scored

    # A phone that is not the scorer is refused on both, and changes nothing.
    stranger = Phone()
    stranger.get(a, "/games/new")  # a good CSRF token: what stops it is not being the scorer
    follower_page = stranger.get(a, game)
    assert "X-CSRFToken" not in follower_page.text  # a follower's page sends nothing back
    before = requests.get(f"{a.base}/api/v1/games/{pid}", timeout=10).json()
    for server in (a, b):
        refused = stranger.post(server, f"{game}/bid", seat=0, bid=0)
        assert refused.status_code in (403, 404)

    # A correction of round 1 on A with the version B showed; then a stale one on B.
    version = before["version"]
    corrected = phone.post(
        a, f"{game}/rounds/1", v=version, bid0=0, bid1=0, bid2=0, tricks0=0, tricks1=1, tricks2=0
    )
    assert corrected.status_code == 200
    stale = phone.post(
        b, f"{game}/rounds/1", v=version, bid0=1, bid1=0, bid2=0, tricks0=1, tricks1=0, tricks2=0
    )
    assert stale.status_code == 409

    # The API's scorer token works on either server too.
    auth = {"Authorization": f"Bearer {token}"}
    r3 = requests.post(
        f"{b.base}/api/v1/games/{pid}/rounds",
        json={"bids": [0, 0, 0], "tricks": [3, 0, 0]},
        headers=auth,
        timeout=10,
    )
    assert r3.status_code == 201, r3.text

    # Both servers show the same game: round 1 corrected, round 2, round 3.
    state_a = requests.get(f"{a.base}/api/v1/games/{pid}", timeout=10).json()
    state_b = requests.get(f"{b.base}/api/v1/games/{pid}", timeout=10).json()
    state_a.pop("links"), state_b.pop("links")  # absolute URLs name the server asked
    assert state_a == state_b
    rounds = state_a["rounds"]
    assert [r["bids"] for r in rounds] == [[0, 0, 0], [1, 0, 1], [0, 0, 0]]
    assert [r["tricks"] for r in rounds] == [[0, 1, 0], [1, 0, 1], [3, 0, 0]]
    # Round 1: Ann 0/0 +20, Ben 0/1 -10, Cat 0/0 +20; round 2: 30, 20, 30; round 3 all 0
    # bids: Ann took 3 (-30), Ben and Cat exact (+20).
    assert [r["totals"] for r in rounds] == [[20, -10, 20], [50, 10, 50], [20, 30, 70]]
    assert state_a["totals"] == [20, 30, 70]
    view = requests.get(f"{b.base}{game}", timeout=10)
    assert view.status_code == 200 and "Cat" in view.text
