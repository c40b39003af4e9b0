"""Phones for the circle tests (CSRF checks off; tests/adversarial keeps them on)."""

import pytest
from flask import Flask

from tests.circles.support import Phone


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    app.config["RATE_LIMIT_FAILURES"] = 3
    return app


@pytest.fixture
def anna(app: Flask) -> Phone:
    """The phone that makes the circle."""
    return Phone(app.test_client())


@pytest.fixture
def ben(app: Flask) -> Phone:
    """A friend's phone: gets the circle link from Anna."""
    return Phone(app.test_client())


@pytest.fixture
def stranger(app: Flask) -> Phone:
    """A phone holding no link at all."""
    return Phone(app.test_client())
