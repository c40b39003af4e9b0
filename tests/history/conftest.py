from collections.abc import Iterator

import pytest
from flask import Flask

from tests.history.support import Fixture, build_fixture


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


@pytest.fixture
def fx(app: Flask) -> Fixture:
    """The small hand-computed history (three games, four players)."""
    with app.app_context():
        return build_fixture()
