"""Circles as phones use them: make one, share and open its link, set up games in it, read
its pages back out of their HTML."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.web.support import Pages, alert, ok, text_of

__all__ = ["Phone", "alert", "ok", "path_of", "shown", "stat", "text_of"]


def shown(response: TestResponse) -> TestResponse:
    """A page shown as asked (200), not a redirect elsewhere nor a refusal."""
    assert response.status_code == 200, (response.status_code, response.headers.get("Location"))
    return response


def path_of(url: str) -> str:
    """The path (and query) of a link as the pages show it (whole URLs, to share)."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def stat(body: str, label: str) -> str:
    """What the player page shows under a heading of its statistics, as text."""
    found = re.search(rf"<dt>{re.escape(label)}</dt><dd>(.*?)</dd>", body, re.S)
    assert found, f"no {label!r} on the page"
    return text_of(found.group(1))


@dataclass
class Phone(Pages):
    """One phone's browser: circles it made or opened, games it keeps score of."""

    client: FlaskClient

    def make_circle(self, name: str = "Thursday Wizards", passphrase: str = "") -> str:
        """Make a circle through its form; returns the circle's public id."""
        response = self.client.post("/circles", data={"name": name, "passphrase": passphrase})
        assert response.status_code == 303, alert(response)
        location = response.headers["Location"]
        assert location.endswith("?welcome=1"), location
        return location.split("?")[0].rsplit("/", 1)[1]

    def home_of(self, circle_id: str) -> TestResponse:
        return self.client.get(f"/circles/{circle_id}")

    def link(self, circle_id: str) -> str:
        """The circle link as its home page shows it to share (path only)."""
        body = shown(self.home_of(circle_id)).get_data(as_text=True)
        found = re.search(r'<a href="([^"]+)" class="share-link">', body)
        assert found, "no circle link on the circle's page"
        return path_of(html.unescape(found.group(1)))

    def open(self, link: str) -> TestResponse:
        """Open a circle link (as tapping it in a chat would)."""
        return self.client.get(link)

    def unlock(self, link: str, passphrase: str) -> TestResponse:
        return self.client.post(link, data={"passphrase": passphrase})

    def settings(self, circle_id: str, do: str, **data: str) -> TestResponse:
        return self.client.post(f"/circles/{circle_id}/settings", data={"do": do, **data})

    def game_in(self, circle_id: str, players: Iterable[str], dealer: int = 0, **rules: Any) -> str:
        """Set up a game in the circle through the setup form; returns its public id."""
        response = self.create(players, dealer, circle=circle_id, **rules)
        assert response.status_code == 303, alert(response)
        return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]

    def new_game(self, players: Iterable[str], dealer: int = 0, **rules: Any) -> str:
        """Set up a one-off game (no circle); returns its public id."""
        response = self.create(players, dealer, **rules)
        assert response.status_code == 303, alert(response)
        return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]

    def player_ids(self, circle_id: str) -> dict[str, int]:
        """The circle's players as its players page lists them: name → id."""
        body = shown(self.client.get(f"/circles/{circle_id}/players")).get_data(as_text=True)
        return {
            text_of(name): int(pid)
            for pid, name in re.findall(
                rf'href="/circles/{re.escape(circle_id)}/players/(\d+)"[^>]*>(.*?)</a>', body
            )
        }

    def player_page(self, circle_id: str, name: str) -> str:
        pid = self.player_ids(circle_id)[name]
        return shown(self.client.get(f"/circles/{circle_id}/players/{pid}")).get_data(as_text=True)

    def exact_round(self, pid: str, number: int, first_dealer: int = 0) -> None:
        """Tap in round ``number`` of a three-player full game (``number`` cards each) in
        which everybody bids exactly: the dealer bids and takes every trick, the others
        none. Bids go in bidding order, from the dealer's left."""
        dealer = (first_dealer + number - 1) % 3
        order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
        bids = {seat: number if seat == dealer else 0 for seat in order}
        self.play_round(pid, bids, {order[0]: 0, order[1]: 0})

    def missed_round(self, pid: str, number: int, first_dealer: int = 0) -> None:
        """Tap in round ``number`` in which the dealer misses: the dealer bids every trick
        and takes none, the player on the dealer's left takes them all."""
        dealer = (first_dealer + number - 1) % 3
        order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
        bids = {seat: number if seat == dealer else 0 for seat in order}
        self.play_round(pid, bids, {dealer: 0, order[0]: number})
