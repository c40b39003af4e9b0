from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.history.support import Fixture, build_fixture, join


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


@pytest.fixture
def fx(app: Flask) -> Fixture:
    """The small hand-computed history (three games, four players, one circle)."""
    with app.app_context():
        return build_fixture()


@pytest.fixture
def member(client: FlaskClient, fx: Fixture) -> FlaskClient:
    """A browser that opened the fixture circle's link: its history pages open."""
    return join(client, fx.circle)
