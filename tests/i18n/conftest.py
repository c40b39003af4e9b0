"""Fixtures for the language tests: page clients with CSRF checks off, one per language."""

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.support import Pages


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def german(app: Flask) -> Pages:
    """A phone whose browser asks for German first."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9,en;q=0.5"
    return Pages(client)


@pytest.fixture
def english(client: FlaskClient) -> Pages:
    """A phone whose browser asks for English."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en-GB,en;q=0.8"
    return Pages(client)
