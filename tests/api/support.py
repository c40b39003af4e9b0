"""Helpers for the JSON API tests.

Every answer the API gives in these tests is checked against the OpenAPI document: its
status must be documented for that operation, its body must match the documented schema
(closed schemas: no undocumented key passes), its documented headers must be there, and
a request body the API accepted must be one the document allows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.api.openapi import document
from scorekeeper.services import circles

DOC = document()
API = "/api/v1"


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node and node["$ref"].startswith("#/components/") and len(node) == 1:
        kind, name = node["$ref"].removeprefix("#/components/").split("/")
        node = DOC["components"][kind][name]
    return node


def validate(instance: object, schema: dict[str, Any]) -> None:
    """Validate against a schema of the document (its ``$ref``s resolve in the document)."""
    root = {**schema, "components": DOC["components"]}
    Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(
        instance
    )


def schema(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _operation(method: str, path: str) -> dict[str, Any] | None:
    for template, item in DOC["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            op = item.get(method.lower())
            return op if op is not None else {"responses": {}}
    return None


def check_against_document(response: TestResponse, sent: object = None) -> None:
    """Fail unless ``response`` (to a request with JSON body ``sent``) is exactly what the
    document says it can be."""
    request = response.request
    if not request.path.startswith("/api/"):
        return
    method = "get" if request.method == "HEAD" else request.method.lower()
    status = str(response.status_code)
    op = _operation(method, request.path)
    if status in ("404", "405", "500") and (op is None or status not in op["responses"]):
        # Unknown paths, methods a path doesn't take and server errors: the
        # document's general promise, a JSON error.
        assert op is None or status != "404", f"{request.path}: undocumented 404"
        validate(response.get_json(), schema("Error"))
        return
    assert op is not None, f"{request.method} {request.path} is not documented"
    assert status in op["responses"], (
        f"{request.method} {request.path} answered {status}, documented: "
        f"{sorted(op['responses'])}: {response.get_data(as_text=True)}"
    )
    documented = _resolve(op["responses"][status])
    for header in documented.get("headers", {}):
        assert header in response.headers, f"{status} of {request.path} lacks {header}"
    if request.method == "HEAD":
        return
    content = documented.get("content", {})
    assert response.mimetype == "application/json", response.mimetype
    validate(response.get_json(), content["application/json"]["schema"])
    if response.status_code < 300 and "requestBody" in op:
        body_schema = op["requestBody"]["content"]["application/json"]["schema"]
        validate(sent, body_schema)


class CheckedClient(FlaskClient):
    """A test client that checks each API answer against the OpenAPI document."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        sent = kwargs.get("json")
        if sent is None and isinstance(kwargs.get("data"), (str, bytes)):
            try:
                sent = json.loads(kwargs["data"])
            except ValueError:
                sent = None
        response = super().open(*args, **kwargs)
        check_against_document(response, sent)
        return response


@dataclass
class Circle:
    """A circle as an API client knows it: by its token."""

    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def new_circle(app: Flask, name: str = "Friends") -> Circle:
    """A new circle (made as its page makes it), with its API token."""
    with app.app_context(), transaction.atomic():
        return Circle(circles.api_token(circles.create_circle(name)))


@dataclass
class Game:
    id: str
    token: str
    data: dict[str, Any]

    @property
    def url(self) -> str:
        return f"{API}/games/{self.id}"

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Api:
    """Short ways to call the API in tests; every call goes through :class:`CheckedClient`."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def create(
        self,
        players: Sequence[str] = ("Ann", "Ben", "Cat"),
        first_dealer: int = 0,
        circle: Circle | None = None,
        **rules: Any,
    ) -> Game:
        """A new game: one-off, or with ``circle`` in that circle."""
        response = self.client.post(
            f"{API}/games",
            json={"players": list(players), "first_dealer": first_dealer, "rules": rules},
            headers={} if circle is None else circle.auth,
        )
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        return Game(body["id"], body["scorer_token"], body)

    def listed(self, circle: Circle, query: str = "") -> dict[str, Any]:
        """The circle's list of games (``query``: e.g. "?per_page=2")."""
        response = self.client.get(f"{API}/games{query}", headers=circle.auth)
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body

    def get(self, game: Game) -> dict[str, Any]:
        response = self.client.get(game.url)
        assert response.status_code == 200
        body: dict[str, Any] = response.get_json()
        return body

    def raw(self, game: Game) -> bytes:
        """The game as the API sends it, byte for byte."""
        response = self.client.get(game.url)
        assert response.status_code == 200
        return response.get_data()

    def add(
        self,
        game: Game,
        bids: Sequence[int | None],
        tricks: Sequence[int] | None = None,
        **more: Any,
    ) -> TestResponse:
        body: dict[str, Any] = {"bids": list(bids), **more}
        if tricks is not None:
            body["tricks"] = list(tricks)
        return self.client.post(f"{game.url}/rounds", json=body, headers=game.auth)

    def play(
        self, game: Game, bids: Sequence[int | None], tricks: Sequence[int], **more: Any
    ) -> dict[str, Any]:
        """Record a whole round, expecting it to be accepted."""
        response = self.add(game, bids, tricks, **more)
        assert response.status_code == 201, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body

    def put(self, game: Game, number: int, **body: Any) -> TestResponse:
        return self.client.put(f"{game.url}/rounds/{number}", json=body, headers=game.auth)

    def delete(self, game: Game, number: int, **headers: str) -> TestResponse:
        return self.client.delete(f"{game.url}/rounds/{number}", headers={**game.auth, **headers})

    @contextmanager
    def unchanged(self, game: Game) -> Iterator[None]:
        """The game as the API shows it is byte-identical after the block."""
        before = self.raw(game)
        yield
        assert self.raw(game) == before


def error_of(response: TestResponse) -> tuple[int, str]:
    """(status, error code) of an error answer."""
    body = response.get_json()
    return response.status_code, body["error"]["code"]
