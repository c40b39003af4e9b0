"""schemathesis against the API's own ``/api/v1/openapi.json``, in-process over WSGI.

Every operation gets generated requests (valid and invalid). Each answer must be no 5xx,
have a documented status, match the documented schema, and every rejection must be a 4xx
whose JSON body says what was wrong. A hook points about half of the requests at a real
game with its real scorer token and gives round writes plausible bodies, so writes also
succeed instead of all ending in 404/401. Of the circle's operations' cases that carry a
token, about half get the real circle's token (and real player ids, or a plausible new
game), the others another circle's token, none, or a wrong one; their negative cases
leave the token out or garble it, and schemathesis's own probes send each accepted request
again without a token and with a wrong one. A request the document allows is never refused
400, nor 422 but for a rule of the stored game (``state_rules.py``). Each operation is a
test of its own (on any pytest-xdist worker): at least 100 cases each, about 3,900 in all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask_migrate import upgrade
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import positive_data_acceptance
from sqlalchemy import create_engine, make_url, text

from scorekeeper import create_app, transaction
from scorekeeper.api.schemas import LINE_FORMAT
from scorekeeper.extensions import db
from scorekeeper.services import circles
from tests.robustness.state_rules import STATE_CODES

EXAMPLES_PER_OPERATION = 250
MIN_CASES = 100  # per operation (each is a test of its own, on whichever worker)
API = "/api/v1"


class Live:
    """The real game the hook aims at, replaced by a new one when it is finished, in the
    real circle ``circle`` (another circle, ``other``, has games and players too)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.id = ""
        self.token = ""
        self.circle = self.new_circle("Friends")
        self.other = self.new_circle("Others")
        # A finished game in each circle: statistics and records to show.
        for circle, players in ((self.circle, "Ann Ben Cat"), (self.other, "Ann Dan Eve")):
            self.finished_game(circle, players.split())
        self.new_game()
        self.players = self.player_ids(self.circle)
        self.other_players = self.player_ids(self.other)

    def new_circle(self, name: str) -> str:
        with self.app.app_context(), transaction.atomic():
            return circles.api_token(circles.create_circle(name))

    @property
    def wrong_token(self) -> str:
        public_id, _dot, key = self.circle.partition(".")
        return f"{public_id}.{key[::-1]}"

    def finished_game(self, circle: str, players: list[str]) -> None:
        response = self.client.post(
            f"{API}/games",
            json={"players": players, "rules": {"round_plan": "short"}},
            headers=bearer(circle),
        )
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        scorer = bearer(body["scorer_token"])
        while body["next_round"] is not None:
            cards = body["next_round"]["cards"]
            response = self.client.post(
                f"{API}/games/{body['id']}/rounds",
                json={"bids": [0, cards, 0], "tricks": [0, cards, 0]},
                headers=scorer,
            )
            assert response.status_code == 201, response.get_json()
            body = response.get_json()

    def player_ids(self, circle: str) -> list[int]:
        response = self.client.get(f"{API}/circle/players", headers=bearer(circle))
        assert response.status_code == 200, response.get_json()
        return [p["id"] for p in response.get_json()["players"]]

    def new_game(self) -> None:
        response = self.client.post(
            f"{API}/games",
            json={"players": ["Ann", "Ben", "Cat"], "first_dealer": 1},
            headers=bearer(self.circle),
        )
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.id, self.token = body["id"], body["scorer_token"]
        # A few rounds, so that PUT/GET/DELETE of rounds 1..3 find something.
        for cards in (1, 2, 3):
            self.client.post(
                f"{API}/games/{self.id}/rounds",
                json={"bids": [0, 0, 0], "tricks": [cards, 0, 0]},
                headers=self.auth,
            )

    @property
    def auth(self) -> dict[str, str]:
        return bearer(self.token)

    def state(self) -> dict[str, Any]:
        body: dict[str, Any] = self.client.get(f"{API}/games/{self.id}").get_json()
        if body.get("next_round") is None:
            self.new_game()
            body = self.client.get(f"{API}/games/{self.id}").get_json()
        return body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def circle_operation(path: str) -> bool:
    """The operations a circle token opens (and setting up a game, where it is optional)."""
    return path == f"{API}/games" or path.startswith(f"{API}/circle")


def _database_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(TMP) / 'schemathesis.sqlite'}"
    # A database of this worker's own: the operations are tests of their own, spread over
    # the workers, and each worker's module sets its database up afresh (in one shared
    # database, one worker's setup dropped the tables under the other's cases).
    server = make_url(url)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return server.set(database=f"{server.database}_{worker}_schemathesis").render_as_string(
        hide_password=False
    )


# schemathesis builds its tests at import time from the live document, so the app exists
# from then on; its database is made (and, on PostgreSQL, wiped) only when the tests start.
TMP = tempfile.mkdtemp(prefix="scorekeeper-schemathesis-")
APP = create_app(
    {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": _database_url()},
    instance_path=Path(TMP) / "instance",
)
LIVE: list[Live] = []


@pytest.fixture(scope="module", autouse=True)
def live() -> Iterator[Live]:
    url = make_url(APP.config["SQLALCHEMY_DATABASE_URI"])
    server = None
    if url.get_backend_name() == "postgresql":
        server = create_engine(os.environ["TEST_DATABASE_URL"], isolation_level="AUTOCOMMIT")
        with server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{url.database}" TEMPLATE template0'))
    with APP.app_context():
        upgrade()
        LIVE.append(Live(APP))
        yield LIVE[0]
        db.session.remove()
        db.engine.dispose()
    if server is not None:
        with server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
        server.dispose()
    shutil.rmtree(TMP, ignore_errors=True)


schemathesis.openapi.format(
    LINE_FORMAT, st.text(st.characters(exclude_categories=("C",)), max_size=80)
)
schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", APP)


@schema.auth(refresh_interval=None, retry_on=[])
class Tokens:
    """The real circle's token on the circle's operations, the live game's scorer token on
    the others (a write to another game id is a 404 anyway); schemathesis's own probes
    then check that requests without it, or with a wrong one, are refused."""

    def get(self, case: Any, ctx: Any) -> str | None:
        if not LIVE:
            return None
        return LIVE[0].circle if circle_operation(case.path) else LIVE[0].token

    def set(self, case: Any, data: str | None, ctx: Any) -> None:
        if data is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


# Whose token a circle operation's case carries: the real circle's in half of them.
WHO = ("circle", "circle", "circle", "other", "none", "wrong")


def aim_at_circle(case: Any) -> Any:
    """Give the case the real circle's token, another circle's, none or a wrong one, and
    (half the time) a real player id of either circle, or a plausible new game."""

    def aim(choice: tuple[str, bool, bool, int]) -> Any:
        who, real_player, own_player, index = choice
        live = LIVE[0]
        # A case whose token schemathesis left out on purpose (a negative case) stays so.
        if case._has_explicit_auth:
            headers = dict(case.headers or {})
            headers.pop("Authorization", None)
            token = {"circle": live.circle, "other": live.other, "wrong": live.wrong_token}
            if who in token:
                headers.update(bearer(token[who]))
            case.headers = headers
        if not real_player or (case.meta and not case.meta.generation.mode.is_positive):
            return case  # a negative case's id or body stays as generated
        if "player_id" in (case.path_parameters or {}):
            ids = live.players if own_player else live.other_players
            case.path_parameters["player_id"] = ids[index % len(ids)]
        if case.method.upper() == "POST":
            case.body = {"players": ["Ann", "Ben", "Cat"], "first_dealer": index % 3}
        return case

    return st.tuples(st.sampled_from(WHO), st.booleans(), st.booleans(), st.integers(0, 5)).map(aim)


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    """Aim some cases at the live game (real id, real token, plausible round bodies), and
    the circle's at the real circle."""
    if circle_operation(case.path):
        return aim_at_circle(case)
    if "game_id" not in (case.path_parameters or {}):
        return st.just(case)

    def aim(choice: tuple[bool, bool, int, int, bool]) -> Any:
        real, plausible, number, first, with_version = choice
        if not real:
            return case
        live = LIVE[0]
        game = live.state()
        method = case.method.upper()
        case.path_parameters["game_id"] = live.id
        if "number" in case.path_parameters:
            case.path_parameters["number"] = number
        if plausible and method in ("POST", "PUT"):
            rounds = game["rounds"]
            if method == "PUT" and number <= len(rounds):
                cards = rounds[number - 1]["cards"]
            else:
                cards = game["next_round"]["cards"]
            tricks = [min(cards, first), 0, 0]
            tricks[1] = cards - tricks[0]
            body: dict[str, Any] = {"bids": [0, 1, 0], "tricks": tricks}
            if with_version:
                body["version"] = game["version"]
            case.body = body
        return case

    return st.tuples(
        st.booleans(), st.booleans(), st.integers(1, 4), st.integers(0, 20), st.booleans()
    ).map(aim)


# Operations of the circle, which must be answered both ways: opened and refused.
CIRCLE_OPERATIONS = [
    f"GET {API}/games",
    f"GET {API}/circle",
    f"GET {API}/circle/players",
    f"GET {API}/circle/players/{{player_id}}",
    f"GET {API}/circle/records",
]


@pytest.fixture
def tally(request: pytest.FixtureRequest) -> Iterator[Counter[str]]:
    """What one operation's generated cases were answered, checked once they have all run:
    enough cases, and the answers that show the operation was really reached (each
    operation is a test of its own, so this holds on whichever worker it runs)."""
    seen: Counter[str] = Counter()
    yield seen
    operation = request.node.name.partition("[")[2].removesuffix("]")
    assert seen["cases"] >= MIN_CASES, (operation, seen)
    if operation in CIRCLE_OPERATIONS:  # answered both ways: opened and refused
        assert seen[f"{operation} 200"] > 0 and seen[f"{operation} 401"] > 0, seen
    if operation == f"GET {API}/circle/players/{{player_id}}":
        assert seen[f"{operation} 404"] > 0, seen
    if operation == f"POST {API}/games":
        assert seen["writes_accepted"] > 0 and seen[f"{operation} 401"] > 0, seen
        assert seen["in_circle"] > 0 and seen["created"] > 0, seen


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    derandomize=True,
)
def test_api_conforms(case: Any, tally: Counter[str]) -> None:
    tally["cases"] += 1
    key = f"{case.method.upper()} {case.path}"
    # The WSGI transport hands over bodies as sent: ask for them uncompressed.
    response = case.call_and_validate(
        headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance]
    )
    assert response.status_code < 500, response.text
    if case.meta is not None and case.meta.generation.mode.is_positive:
        # What the document allows is not refused for its shape (400), and a 422 is for a
        # rule of the stored game only: the document states every other rule.
        assert response.status_code != 400, response.text
        if response.status_code == 422:
            assert response.json()["error"]["code"] in STATE_CODES, response.text
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])[0]
        assert content_type.startswith("application/json"), content_type
        error = response.json()["error"]
        assert isinstance(error["message"], str) and error["message"].strip()
        assert isinstance(error["code"], str) and error["code"]
    tally[f"{key} {response.status_code}"] += 1
    if 200 <= response.status_code < 300 and case.method.upper() != "GET":
        tally["writes_accepted"] += 1
    if key == f"POST {API}/games" and response.status_code == 201:
        sent = (case.headers or {}).get("Authorization")
        tally["in_circle" if sent == f"Bearer {LIVE[0].circle}" else "created"] += 1
