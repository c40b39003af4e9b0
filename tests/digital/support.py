"""Driving a digital table through the Flask client, one client per phone, and checking
that no response leaks another seat's cards or a bid before its reveal."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.engine import Bidding, Game, Phase, RuleSet
from scorekeeper.engine.bots import Bot
from scorekeeper.services import digital as service


def public_id_of(location: str) -> str:
    """The game of a digital page's address (``/digital/<id>/…``)."""
    return urlsplit(location).path.split("/")[2]


DATA_CARD = re.compile(r'data-card="([^"]+)"')
SEEN_CARD = re.compile(r'data-seen-card="([^"]+)"')
DATA_BID = re.compile(r'data-bid="(\d+):(\d+)"')
SEQ = re.compile(r'name="seq" value="(\d+)"')


@dataclass
class Table:
    app: Flask
    public_id: str
    tokens: list[str | None]
    phones: dict[int, FlaskClient] = field(default_factory=dict)
    responses: int = 0
    table_token: str = ""  # the pass-and-play phone's link
    # Each seat's action number as an answer to that seat showed it since the latest move
    # (every move forgets them all: an answer to each seat at the table as it is now).
    seqs: dict[int, int] = field(default_factory=dict)
    # The table as the latest answer was checked against.
    checked: Game | None = None

    @classmethod
    def create(
        cls, app: Flask, rules: RuleSet, kinds: list[str], seed: int = 7, dealer: int = 0
    ) -> Table:
        names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][: len(kinds)]
        with app.app_context(), transaction.atomic():
            made = service.create_table(names, kinds, dealer, rules, seed=seed)
            table = cls(app, made.game.public_id, list(made.seat_tokens))
            table.table_token = made.table_token
        for seat, token in enumerate(table.tokens):
            if token is not None:
                table.phones[seat] = app.test_client()
        return table

    def url(self, seat: int, suffix: str = "") -> str:
        return f"/digital/{self.public_id}/s/{self.tokens[seat]}{suffix}"

    def engine(self) -> Game:
        with self.app.app_context():
            return service.engine_game(service.get_table(self.public_id))

    def get(self, seat: int, suffix: str = "", game: Game | None = None, **headers: str) -> str:
        """The seat's page (or ``suffix`` of it), checked against ``game``, the table as
        it stands (loaded afresh when not given)."""
        response = self.phones[seat].get(self.url(seat, suffix), headers=headers)
        assert response.status_code in (200, 304), response.status_code
        body = response.get_data(as_text=True)
        self.check(seat, body, game)
        return body

    def post(
        self,
        seat: int,
        action: str,
        value: str,
        seq: str | int,
        htmx: bool = True,
        screen: str = "",
    ) -> TestResponse:
        headers = {"HX-Request": "true"} if htmx else {}
        data = {"action": action, "value": value, "seq": str(seq), "screen": screen}
        self.seqs.clear()
        response = self.phones[seat].post(self.url(seat, "/act"), data=data, headers=headers)
        self.check(seat, response.get_data(as_text=True))
        return response

    def check(self, seat: int, body: str, game: Game | None = None) -> None:
        """Nothing of another hand, no bid before it may be seen, in ``game`` (the table
        as it stands: loaded afresh when not given)."""
        self.responses += 1
        game = self.engine() if game is None else game
        self.checked = game
        found = SEQ.search(body)
        if found:
            self.seqs[seat] = int(found.group(1))
        mine = {str(c) for c in game.hands[seat]}
        foresight = game.rules.foresight and game.round_number == 1
        shown = set(DATA_CARD.findall(body))
        assert shown <= mine, f"seat {seat} sees {shown - mine}"
        seen = set(SEEN_CARD.findall(body))
        if foresight and game.phase in (Phase.BIDDING, Phase.PLAYING, Phase.CHOOSE_TRUMP):
            others = {str(c) for s, h in enumerate(game.hands) if s != seat for c in h}
            assert seen <= others
            assert not shown, "in the foresight round one's own cards stay unseen"
        else:
            assert not seen
        for s, _bid in DATA_BID.findall(body):
            other = int(s)
            if other == seat:
                continue
            if game.rules.bidding is Bidding.SECRET:
                assert game.phase not in (Phase.BIDDING, Phase.PLAYING), "secret bid shown"
            if game.rules.bidding is Bidding.HIDDEN:
                assert game.phase is not Phase.BIDDING, "hidden bid shown before all are in"

    def seq(self, seat: int) -> int:
        body = self.get(seat)
        found = SEQ.search(body)
        assert found, "the seat has nothing to do"
        return int(found.group(1))

    def play_rounds(self, rounds: int | None = None, scan_all: bool = True) -> Game:
        """Every person seat makes a bot's move through its phone until the game (or the
        given number of rounds) is over; every seat's view is checked after each move
        (``scan_all``). A seat's action number is read from an answer to it already checked
        at the table as it stands (after a scan, every seat's; else the one that moved
        last, when it is to move again); only when there is none is its page asked for."""
        bot = Bot()
        game = self.engine()
        while True:
            if game.finished or (rounds is not None and len(game.history) >= rounds):
                return game
            waiting = [s for s in game.waiting_for() if s in self.phones]
            assert waiting, f"nobody to act in {game.phase}"
            seat = waiting[0]
            if game.phase is Phase.CHOOSE_TRUMP:
                action, value = "trump", bot.choose_trump(game, seat).colour
            elif game.phase is Phase.BIDDING:
                action, value = "bid", str(bot.bid(game, seat))
            else:
                foresight = game.rules.foresight and game.round_number == 1
                action, value = "play", "blind" if foresight else str(bot.play(game, seat))
            seq = self.seqs.get(seat)
            response = self.post(seat, action, value, self.seq(seat) if seq is None else seq)
            assert response.status_code == 200, response.get_data(as_text=True)
            # The table after the move, as the answer's check loaded it: GETs change
            # nothing, so every seat's view is checked against it, and the next move made.
            game = self.checked
            assert game is not None
            if scan_all:
                for other in self.phones:
                    self.get(other, "/live", game=game)


# The setup form of a 3-seat table (Ann, a bot as Ben, Cat), Ben dealing first.
SETUP_FORM = {
    "name0": "Ann",
    "kind0": "person",
    "name1": "Ben",
    "kind1": "bot",
    "name2": "Cat",
    "kind2": "person",
    "first_dealer": "1",
    "plan": "short",
    "dealer_rule": "none",
    "bidding": "open",
}
