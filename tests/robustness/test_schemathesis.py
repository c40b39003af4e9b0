"""schemathesis against the API's own ``/api/v1/openapi.json``, in-process over WSGI.

Every operation gets generated requests (valid and invalid). Each answer must be no 5xx,
have a documented status, match the documented schema, and every rejection must be a 4xx
whose JSON body says what was wrong. A hook points about half of the requests at a real
game with its real scorer token and gives round writes plausible bodies, so writes also
succeed instead of all ending in 404/401. At least 1,000 cases run in total.
"""

from __future__ import annotations

import os
import shutil
import tempfile
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
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.extensions import db

EXAMPLES_PER_OPERATION = 250
MIN_CASES = 1000
API = "/api/v1"

# Cases run (the count of calls to the test body), checked by the last test of the module.
RUN: dict[str, int] = {}


class Live:
    """The real game the hook aims at; replaced by a new one when it is finished."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.id = ""
        self.token = ""
        self.new_game()

    def new_game(self) -> None:
        response = self.client.post(
            f"{API}/games", json={"players": ["Ann", "Ben", "Cat"], "first_dealer": 1}
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
        return {"Authorization": f"Bearer {self.token}"}

    def state(self) -> dict[str, Any]:
        body: dict[str, Any] = self.client.get(f"{API}/games/{self.id}").get_json()
        if body.get("next_round") is None:
            self.new_game()
            body = self.client.get(f"{API}/games/{self.id}").get_json()
        return body


def _database_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(TMP) / 'schemathesis.sqlite'}"
    return url


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
    url = APP.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("postgresql"):
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
        engine.dispose()
    with APP.app_context():
        upgrade()
        LIVE.append(Live(APP))
        yield LIVE[0]
        db.session.remove()
        db.engine.dispose()
    shutil.rmtree(TMP, ignore_errors=True)


schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", APP)


@schema.auth(refresh_interval=None, retry_on=[])
class ScorerToken:
    """The live game's scorer token on every write (a write to another game id is a 404
    anyway); schemathesis's own probes then check that writes without it, or with a wrong
    one, are refused."""

    def get(self, case: Any, ctx: Any) -> str | None:
        return LIVE[0].token if LIVE else None

    def set(self, case: Any, data: str | None, ctx: Any) -> None:
        if data is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    """Aim some cases at the live game (real id, real token, plausible round bodies)."""
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


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    derandomize=True,
)
def test_api_conforms(case: Any) -> None:
    RUN["cases"] = RUN.get("cases", 0) + 1
    key = f"{case.method.upper()} {case.path}"
    RUN[key] = RUN.get(key, 0) + 1
    # The WSGI transport hands over bodies as sent: ask for them uncompressed.
    response = case.call_and_validate(
        headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance]
    )
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])[0]
        assert content_type.startswith("application/json"), content_type
        error = response.json()["error"]
        assert isinstance(error["message"], str) and error["message"].strip()
        assert isinstance(error["code"], str) and error["code"]
    status_key = f"{key} {response.status_code}"
    RUN[status_key] = RUN.get(status_key, 0) + 1
    if 200 <= response.status_code < 300 and case.method.upper() != "GET":
        RUN["writes_accepted"] = RUN.get("writes_accepted", 0) + 1


def test_enough_cases_ran() -> None:
    """Runs after the generated tests (pytest keeps file order)."""
    print(RUN)
    assert RUN.get("cases", 0) >= MIN_CASES, RUN
    assert RUN.get("writes_accepted", 0) > 0, RUN
