"""Helpers for the limits per client: a clock the test moves, a client at an address."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import ratelimit


class Clock:
    """The limits' clock, moved by the test instead of waiting."""

    def __init__(self) -> None:
        self.now = ratelimit.now()

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def from_address(app: Flask, address: str) -> FlaskClient:
    """A browser (or API client) whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client
