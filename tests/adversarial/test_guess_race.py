"""Passphrase guesses sent all at once are limited as strictly as one after the other: a
guess is counted (committed to the database) before it is checked, so no two requests
can both find a free place under the limit. Every 429 says when to try again
(``Retry-After``).

Before, the limit was checked, then the guess, then the failure recorded: of 80 wrong
guesses sent at once, 17 to 24 were checked before the first 429.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager as ContextManager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper import ratelimit, transaction
from scorekeeper.extensions import db
from scorekeeper.models import FailedAttempt
from scorekeeper.services import circles as circle_service
from tests.adversarial.support import Clock, from_address
from tests.adversarial.test_passphrase_limit import SECRET, private_server

LIMIT = ratelimit.DEFAULT_FAILURES
AT_ONCE = 80
GUESSER = "203.0.113.80"
CIRCLE_SECRET = "open sesame"
# A connection for each of 20 requests at once per app: two apps stay well within
# PostgreSQL's default of 100 connections beside the other tests' (later requests wait
# for a connection, and come in while the first are under way).
POOL = {"pool_size": 20, "max_overflow": 0}

Send = Callable[[FlaskClient, int], TestResponse]


def server(tmp_path: Path, database_url: str, name: str, **config: object) -> ContextManager[Flask]:
    """An app (as an app server of its own) on the test's database, closed after use."""
    return private_server(tmp_path, database_url, name, SQLALCHEMY_ENGINE_OPTIONS=POOL, **config)


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    with server(tmp_path, database_url, "instance") as app:
        yield app


@pytest.fixture
def circle_app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    """A server without a passphrase of its own: the circle's is the one guessed."""
    with server(tmp_path, database_url, "circle", PASSPHRASE="") as app:
        yield app


def circle_link(app: Flask) -> str:
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Thursday", CIRCLE_SECRET)
        return f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"


def form_guess(client: FlaskClient, n: int) -> TestResponse:
    return client.post("/passphrase", data={"passphrase": f"guess {n}"})


def api_guess(client: FlaskClient, n: int) -> TestResponse:
    return client.get("/api/v1/openapi.json", headers={"X-Passphrase": f"guess {n}"})


def all_at_once(apps: list[Flask], send: Send) -> list[TestResponse]:
    """``AT_ONCE`` requests from one client, each in a thread of its own, let go together
    (spread over ``apps``, as over app servers sharing the database)."""
    start = threading.Barrier(AT_ONCE)

    def one(n: int) -> TestResponse:
        client = from_address(apps[n % len(apps)], GUESSER)
        start.wait()
        return send(client, n)

    with ThreadPoolExecutor(AT_ONCE) as pool:
        return list(pool.map(one, range(AT_ONCE)))


def checked(answers: list[TestResponse], wrong: int) -> int:
    """How many guesses were checked (answered ``wrong``); every other one was refused
    with 429 and the time to wait."""
    statuses = [a.status_code for a in answers]
    assert statuses.count(wrong) + statuses.count(429) == AT_ONCE, statuses
    for answer in answers:
        if answer.status_code == 429:
            assert 1 <= int(answer.headers["Retry-After"]) <= 600
    return statuses.count(wrong)


def failures(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(FailedAttempt)) or 0)


def test_wrong_guesses_at_the_form_all_at_once(
    app: Flask, tmp_path: Path, database_url: str, clock: Clock
) -> None:
    with server(tmp_path, database_url, "other") as other:
        answers = all_at_once([app, other], form_guess)
    done = checked(answers, 403)
    assert done <= LIMIT
    # Only the guesses checked are kept: the refused ones were never counted for good.
    assert failures(app) == done
    right = from_address(app, GUESSER).post("/passphrase", data={"passphrase": SECRET})
    assert right.status_code == (429 if done == LIMIT else 303)


def test_wrong_guesses_at_the_api_header_all_at_once(app: Flask, clock: Clock) -> None:
    assert checked(all_at_once([app], api_guess), 401) <= LIMIT


def test_wrong_guesses_at_a_circles_passphrase_all_at_once(circle_app: Flask, clock: Clock) -> None:
    link = circle_link(circle_app)
    answers = all_at_once([circle_app], lambda c, n: c.post(link, data={"passphrase": f"{n}"}))
    assert checked(answers, 403) <= LIMIT


def test_a_right_guess_among_them_costs_nothing(app: Flask, clock: Clock) -> None:
    # The right passphrase sent with the wrong ones: checked if it counted while fewer
    # than ten wrong ones did (as one after the other), and then no guess of its own.
    answers = all_at_once(
        [app],
        lambda c, n: c.post(
            "/passphrase", data={"passphrase": SECRET if n == AT_ONCE - 1 else f"guess {n}"}
        ),
    )
    statuses = [a.status_code for a in answers]
    assert statuses.count(403) <= LIMIT and statuses.count(303) <= 1
    assert statuses.count(403) + statuses.count(303) + statuses.count(429) == AT_ONCE
    assert failures(app) == statuses.count(403)


@pytest.mark.parametrize("route", ["form", "api", "circle"])
def test_every_refusal_says_when_to_try_again(
    app: Flask, circle_app: Flask, clock: Clock, route: str
) -> None:
    if route == "circle":
        link = circle_link(circle_app)
        target: Flask = circle_app
        send: Send = lambda c, n: c.post(link, data={"passphrase": f"guess {n}"})  # noqa: E731
    else:
        target, send = app, form_guess if route == "form" else api_guess
    client = from_address(target, GUESSER)
    for n in range(LIMIT):
        assert send(client, n).status_code in (401, 403)
    clock.advance(60)
    refused = send(client, LIMIT)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "540"
