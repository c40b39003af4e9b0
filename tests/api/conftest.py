"""Fixtures for the JSON API tests: a client that checks every answer against the
OpenAPI document (see ``support.py``), and short ways to call the API."""

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.support import Api, CheckedClient, Circle, new_circle


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    app.test_client_class = CheckedClient
    return app.test_client()


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@pytest.fixture
def circle(app: Flask) -> Circle:
    """A circle, known by its API token."""
    return new_circle(app)
