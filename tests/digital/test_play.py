"""Digital games played to the end through the pages, one phone per person (issue 6)."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.engine import Bidding, DealerRule, Game, Phase, Plan, RuleSet
from scorekeeper.engine.bots import Bot
from scorekeeper.services import digital as service
from scorekeeper.services import games as game_service
from tests.digital.support import SETUP_FORM, Table, public_id_of

P, B = "person", "bot"


def text(response: TestResponse) -> str:
    return html.unescape(response.get_data(as_text=True))


def pad_totals(app: Flask, public_id: str) -> tuple[list[int], bool, int]:
    with app.app_context():
        game = game_service.get_game(public_id)
        sheet = game_service.sheet_of(game)
        # Rounds scored (the open round's row holds its trump once it is known).
        return list(sheet.totals), sheet.finished, sum(1 for r in game.rounds if r.complete)


@pytest.mark.parametrize(
    ("rules", "kinds"),
    [
        (RuleSet(round_plan=Plan.SHORT), [P, P, P, B]),
        (RuleSet(round_plan=Plan.SHORT, bidding=Bidding.SECRET), [P, B, P]),
        (RuleSet(round_plan=Plan.SHORT, bidding=Bidding.HIDDEN), [P, P, B, B, P]),
        (
            RuleSet(
                round_plan=Plan.SHORT,
                saboteur=True,
                foresight=True,
                dealer_rule=DealerRule.PLUS_MINUS_ONE,
            ),
            [P, P, B, P],
        ),
    ],
    ids=["open", "secret-V4", "hidden-V3", "saboteur-foresight-V1"],
)
def test_whole_game_leaks_nothing_and_fills_the_pad(
    app: Flask, rules: RuleSet, kinds: list[str]
) -> None:
    table = Table.create(app, rules, kinds)
    game = table.play_rounds()
    assert game.finished
    totals, finished, rounds = pad_totals(app, table.public_id)
    assert finished and rounds == len(game.plan)
    assert totals == game.totals  # the pad scored the rounds exactly as the engine did
    assert table.responses > 100
    # Every phone shows the final standings.
    for seat in table.phones:
        body = table.get(seat)
        assert "Final standings" in body
        for s in range(len(kinds)):
            assert f'data-final-total="{s}:{game.totals[s]}"' in body


def test_unicoloured_rounds(app: Flask) -> None:
    table = Table.create(app, RuleSet(round_plan=Plan.UNICOLOURED), [P, B, P])
    game = table.play_rounds(rounds=2)
    # V9: each player drew from their own colour, no trump.
    assert game.trump is None and game.turned is None
    for seat, hand in enumerate(game.hands):
        assert {c.suit for c in hand if c.suit is not None} <= {list(game.hands[seat])[0].suit}
    totals, _, rounds = pad_totals(app, table.public_id)
    assert rounds == 2 and totals == game.totals
    # The open round's trump is on the pad as the table has it: none (V9).
    page = app.test_client().get(f"/games/{table.public_id}").get_data(as_text=True)
    assert "not recorded" not in page.split('id="entry"')[1].split("</section>")[0]


def test_a_seat_page_shows_only_its_own_hand(app: Flask) -> None:
    table = Table.create(app, RuleSet(), [P, P, P])
    game = table.engine()
    for seat in table.phones:
        body = table.get(seat)
        assert set(re.findall(r'data-card="([^"]+)"', body)) == {str(c) for c in game.hands[seat]}


def test_unknown_seat_or_game_is_not_found(app: Flask, client: FlaskClient) -> None:
    table = Table.create(app, RuleSet(), [P, P, B])
    assert client.get(f"/digital/{table.public_id}/s/not-a-token").status_code == 404
    assert client.get(f"/digital/nope/s/{table.tokens[0]}").status_code == 404
    response = client.post(
        f"/digital/{table.public_id}/s/wrong/act", data={"action": "bid", "value": "0", "seq": 0}
    )
    assert response.status_code == 404
    assert client.get(f"/digital/{table.public_id}/t/wrong").status_code == 404


def test_out_of_turn_wrong_phase_and_illegal_cards_are_refused(app: Flask) -> None:
    table = Table.create(app, RuleSet(), [P, P, P], seed=3)
    game = table.engine()
    # Round 1, dealer seat 0: seat 1 bids first.
    if game.phase.value == "choose_trump":
        table.post(0, "trump", "red", 0)
        game = table.engine()
    response = table.post(2, "bid", "0", 0)
    assert response.status_code == 422
    assert "turn to bid" in text(response)
    response = table.post(1, "play", str(game.hands[1][0]), 0)
    assert response.status_code == 422
    assert "can't play a card now" in text(response)
    assert table.engine().to_dict() == game.to_dict()


def test_a_card_that_must_not_be_played_says_why(app: Flask) -> None:
    for seed in range(40):
        table = Table.create(app, RuleSet(), [P, P, P], seed=seed)
        table.play_rounds(rounds=2, scan_all=False)
        game = _to_first_trick_follow(table)
        if game is None:
            continue
        seat = game.turn
        assert seat is not None
        legal = set(game.legal_cards(seat))
        bad = next(c for c in game.hands[seat] if c not in legal)
        response = table.post(seat, "play", str(bad), table.seq(seat))
        assert response.status_code == 422
        assert "You must follow" in text(response)
        assert table.engine().to_dict() == game.to_dict()
        return
    pytest.fail("no seed gave a hand that had to follow suit")


def _to_first_trick_follow(table: Table) -> Game | None:
    """Play bot moves until a person must follow suit and holds a card that can't."""
    bot = Bot()
    for _ in range(200):
        game = table.engine()
        if game.finished:
            return None
        seat = game.waiting_for()[0]
        if game.phase.value == "playing":
            legal = game.legal_cards(seat)
            if len(legal) < len(game.hands[seat]):
                return game
            value = str(bot.play(game, seat))
            action = "play"
        elif game.phase.value == "bidding":
            action, value = "bid", str(bot.bid(game, seat))
        else:
            action, value = "trump", bot.choose_trump(game, seat).colour
        table.post(seat, action, value, table.seq(seat))
    return None


def test_double_taps_and_retries_play_one_card(app: Flask) -> None:
    table = Table.create(app, RuleSet(round_plan=Plan.SHORT), [P, P, P], seed=5)
    table.play_rounds(rounds=1, scan_all=False)
    game = table.engine()
    while game.phase.value != "playing":
        waiting = game.waiting_for()[0]
        if game.phase.value == "bidding":
            table.post(waiting, "bid", str(Bot().bid(game, waiting)), table.seq(waiting))
        else:
            table.post(waiting, "trump", "red", table.seq(waiting))
        game = table.engine()
    turn = game.turn
    assert turn is not None
    seat = turn
    seq = table.seq(seat)
    card = str(game.legal_cards(seat)[0])
    first = table.post(seat, "play", card, seq)
    assert first.status_code == 200
    again = table.post(seat, "play", card, seq)  # the double tap / the retried request
    assert again.status_code == 409
    assert "Already done" in again.get_data(as_text=True)
    after = table.engine()
    played = len(after.trick) + (len(after.last_trick.cards) if after.last_trick else 0)
    assert len(after.hands[seat]) == len(game.hands[seat]) - 1
    assert played >= 1
    # Without htmx the retry just goes back to the page.
    plain = table.post(seat, "play", card, seq, htmx=False)
    assert plain.status_code == 303
    assert len(table.engine().hands[seat]) == len(game.hands[seat]) - 1


def test_polls_answer_304_until_something_changes(app: Flask) -> None:
    table = Table.create(app, RuleSet(), [P, P, B], seed=2)
    phone = table.phones[0]
    first = phone.get(table.url(0, "/live"))
    etag = first.headers["ETag"]
    assert phone.get(table.url(0, "/live"), headers={"If-None-Match": etag}).status_code == 304
    game = table.engine()
    seat = game.waiting_for()[0]
    action = "trump" if game.phase.value == "choose_trump" else "bid"
    value = "red" if action == "trump" else str(game.allowed_bids(seat)[0])
    assert table.post(seat, action, value, table.seq(seat)).status_code == 200
    changed = phone.get(table.url(0, "/live"), headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_rejoining_restores_the_state(app: Flask) -> None:
    table = Table.create(app, RuleSet(round_plan=Plan.SHORT), [P, P, B], seed=9)
    table.play_rounds(rounds=1, scan_all=False)
    before = table.get(0)
    fresh = app.test_client()  # a closed tab, another browser: only the link is needed
    after = fresh.get(table.url(0)).get_data(as_text=True)
    strip = re.compile(r'(name="csrf_token" value="|X-CSRFToken": ")[^"]*"')
    assert strip.sub("", before) == strip.sub("", after)


def test_forbidden_bids_are_disabled_and_explained(app: Flask) -> None:
    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)
    table = Table.create(app, rules, [P, P, P], seed=1, dealer=0)
    game = table.engine()
    if game.phase.value == "choose_trump":
        table.post(0, "trump", "blue", table.seq(0))
    table.post(1, "bid", "0", table.seq(1))
    table.post(2, "bid", "0", table.seq(2))
    body = table.get(0)  # the dealer: 1 would make the total equal the 1 card
    assert re.search(r'<button type="submit" name="value" value="1" disabled', body)
    assert "can't bid 1" in html.unescape(body)
    response = table.post(0, "bid", "1", table.seq(0))
    assert response.status_code == 422


def test_pass_and_play_reveals_one_hand_and_hides_it_again(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        made = service.create_table(["Ann", "Ben", "Cat"], [P, P, B], 2, RuleSet(), seed=4)
        public_id, token = made.game.public_id, made.table_token
    phone = app.test_client()
    base = f"/digital/{public_id}/t/{token}"
    body = phone.get(base).get_data(as_text=True)
    assert "data-card=" not in body
    assert "Pass to Ann" in body  # left of the dealer (seat 2) bids first
    with app.app_context():
        game = service.engine_game(service.get_table(public_id))
    # Seed 4 turns up no Wizard, so the table waits for the first bid.
    assert game.phase.value == "bidding"
    phone.post(f"{base}/reveal", data={"seat": "0"})
    body = phone.get(base).get_data(as_text=True)
    assert set(re.findall(r'data-card="([^"]+)"', body)) == {str(c) for c in game.hands[0]}
    seq = re.search(r'name="seq" value="(\d+)"', body)
    assert seq
    response = phone.post(f"{base}/act", data={"action": "bid", "value": "0", "seq": seq.group(1)})
    assert response.status_code == 303
    body = phone.get(base).get_data(as_text=True)
    assert "data-card=" not in body  # hidden again after acting
    assert "Pass to Ben" in body and "Tap when only Ben is looking" in body


def test_setup_page_creates_a_table_and_shows_the_links(client: FlaskClient) -> None:
    assert client.get("/digital/new").status_code == 200
    response = client.post("/digital/new", data=SETUP_FORM)
    assert response.status_code == 303
    host = client.get(response.headers["Location"]).get_data(as_text=True)
    assert host.count("data-seat-link=") == 2
    assert "<svg" in host  # QR codes
    other = client.application.test_client()
    assert other.get(response.headers["Location"]).status_code == 403
    bad = client.post("/digital/new", data={"name0": "Ann", "kind0": "person"})
    assert bad.status_code == 422


def test_actions_need_the_csrf_token(app: Flask) -> None:
    table = Table.create(app, RuleSet(), [P, P, B])
    app.config["WTF_CSRF_ENABLED"] = True
    response = table.phones[1].post(
        table.url(1, "/act"), data={"action": "bid", "value": "0", "seq": "0"}
    )
    assert response.status_code == 400


def test_two_app_processes_share_the_table_through_the_database(app: Flask) -> None:
    """Phones served by different processes: the state lives only in the database."""
    from scorekeeper import create_app

    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        },
        instance_path=app.instance_path,
    )
    table = Table.create(app, RuleSet(round_plan=Plan.SHORT), [P, P, B], seed=8)
    table.phones[1] = other.test_client()  # Ben's phone reaches the second process
    game = table.play_rounds(rounds=2)
    assert len(game.history) == 2
    etag = table.phones[1].get(table.url(1, "/live")).headers["ETag"]
    # A move made through the first process shows on the second one's next poll.
    seat = game.waiting_for()[0]
    assert seat in (0, 1)
    before = table.phones[1].get(table.url(1, "/live"), headers={"If-None-Match": etag})
    assert before.status_code == 304
    action = "trump" if game.phase.value == "choose_trump" else "bid"
    value = "red" if action == "trump" else str(game.allowed_bids(seat)[0])
    client = app.test_client() if seat == 0 else other.test_client()
    response = client.post(
        table.url(seat, "/act"),
        data={"action": action, "value": value, "seq": str(table.seq(seat))},
    )
    assert response.status_code == 303
    after = table.phones[1].get(table.url(1, "/live"), headers={"If-None-Match": etag})
    assert after.status_code == 200
    with other.app_context():
        from scorekeeper.extensions import db

        db.session.remove()
        db.engine.dispose()


def test_the_pad_of_a_digital_game_is_read_only(client: FlaskClient) -> None:
    response = client.post(
        "/digital/new",
        data={
            "name0": "Ann",
            "kind0": "person",
            "name1": "Ben",
            "kind1": "bot",
            "name2": "Cat",
            "kind2": "bot",
            "first_dealer": "0",
            "plan": "short",
            "dealer_rule": "none",
            "bidding": "open",
        },
    )
    public_id = public_id_of(response.headers["Location"])
    pad = client.post(f"/games/{public_id}/confirm")
    assert pad.status_code == 403


def test_a_move_racing_another_process_changes_nothing(app: Flask) -> None:
    """Two processes write the same table: the later commit is refused as a conflict
    (optimistic versioning), and nothing of it is stored."""
    from sqlalchemy import update

    from scorekeeper.extensions import db
    from scorekeeper.models import DigitalTable
    from scorekeeper.services.errors import Conflict

    table = Table.create(app, RuleSet(), [P, P, P], seed=6)
    with app.app_context():
        row = service.get_table(table.public_id)
        game = service.engine_game(row)
        seat = game.waiting_for()[0]
        before = dict(row.state)
        # Another process moved the table on after this one loaded it.
        db.session.execute(
            update(DigitalTable)
            .where(DigitalTable.id == row.id)
            .values(version=DigitalTable.version + 1)
            .execution_options(synchronize_session=False)
        )
        action = "trump" if game.phase.value == "choose_trump" else "bid"
        value = "red" if action == "trump" else "0"
        with pytest.raises(Conflict) as caught:
            service.act(row, seat, action, value, row.actions[seat])
        assert caught.value.code == "conflict"
        db.session.rollback()
        assert service.get_table(table.public_id).state == before


def test_the_page_retries_a_move_that_raced_another_process(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.services.errors import Conflict

    table = Table.create(app, RuleSet(), [P, P, P], seed=6)
    game = table.engine()
    seat = game.waiting_for()[0]
    real = service.act
    calls: list[int] = []

    def racing(*args: object) -> str | None:
        calls.append(1)
        if len(calls) == 1:
            raise Conflict("Someone else acted at the same moment.", "conflict")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "act", racing)
    action = "trump" if game.phase.value == "choose_trump" else "bid"
    value = "red" if action == "trump" else "0"
    response = table.post(seat, action, value, table.seq(seat))
    assert response.status_code == 200
    assert len(calls) == 2
    assert table.engine().to_dict() != game.to_dict()


def test_a_seat_holds_its_hand_sorted_trump_first(app: Flask) -> None:
    import random as random_module

    from scorekeeper.engine import Phase, sort_hand
    from scorekeeper.engine.bots import Bot, play_until_waiting
    from scorekeeper.extensions import db

    with app.app_context(), transaction.atomic():
        made = service.create_table(["Ann", "Ben", "Cat"], [P, P, B], 2, RuleSet(), seed=4)
        public_id, token = made.game.public_id, made.seat_tokens[0]
        table = service.get_table(public_id)
        game = service.engine_game(table)
        rng = random_module.Random(9)
        while game.round_number < 6 or game.phase is not Phase.BIDDING:  # six cards each
            if game.phase is Phase.DEAL:
                game.deal(rng)
            else:
                play_until_waiting(game, [Bot()] * 3)
        table.state = game.to_dict()
        db.session.commit()
    body = app.test_client().get(f"/digital/{public_id}/s/{token}").get_data(as_text=True)
    shown = re.findall(r'data-card="([^"]+)"', body)
    assert len(shown) == 6
    assert shown == [str(c) for c in sort_hand(game.hands[0], game.trump)]
    assert sorted(shown) == sorted(str(c) for c in game.hands[0])


def test_a_rounds_last_trick_keeps_its_key_and_its_trump_under_the_next_round(
    app: Flask,
) -> None:
    """Each card has one key (round.trick.position) from the moment it lies on the table
    until the next round's first trick, so the page lays it once; the last trick of a
    round is shown under the next round with that round's trump, not the new one (R7)."""
    table = Table.create(app, RuleSet(), [P, B, B], seed=11, dealer=0)
    keys_in_play: dict[int, set[str]] = {}
    while table.engine().round_number < 4:
        game = table.engine()
        number = game.round_number
        body = table.get(0)
        if game.phase is Phase.PLAYING:
            keys_in_play.setdefault(number, set()).update(re.findall(r'data-play="([^"]+)"', body))
        before = game
        assert game.waiting_for() == [0]
        if game.phase is Phase.CHOOSE_TRUMP:
            table.post(0, "trump", "red", table.seq(0))
        elif game.phase is Phase.BIDDING:
            table.post(0, "bid", "0", table.seq(0))
        else:
            table.post(0, "play", str(game.legal_cards(0)[0]), table.seq(0))
        after = table.engine()
        if after.round_number != number and after.round_number <= 4:
            # The round just ended: its last trick, under the next round, same keys.
            page = table.get(0)
            cards = before.plan[number - 1]
            done = re.search(r'data-trick="([^"]+)" data-complete', page)
            assert done and done.group(1) == f"{number}.{cards}"
            shown = set(re.findall(r'data-play="([^"]+)"', page))
            last = {k for k in shown if k.startswith(f"{number}.{cards}.")}
            assert len(last) == 3
            # Keys shown while that trick was being played are the same keys.
            played = keys_in_play.get(number, set())
            assert {k for k in played if k.startswith(f"{number}.{cards}.")} <= last
            trump = before.trump
            said = re.search(r"data-trick-trump>\(([^)]*)\)", page)
            assert said and said.group(1) == (f"trump: {trump.colour}" if trump else "no trump")


def test_a_stale_screen_of_the_same_seat_is_told_what_the_other_one_did(app: Flask) -> None:
    """Two tabs of Ann's seat: the bid made on one stands; the other tab's bid, sent with
    the old action number, changes nothing and says so in words, with the table as it is."""
    table = Table.create(app, RuleSet(), [P, B, B], seed=4, dealer=2)  # Ann bids first
    assert table.engine().waiting_for() == [0]
    seq = table.seq(0)
    first = table.post(0, "bid", "1", seq, screen="tab-one-abc")
    assert first.status_code == 200
    stale = table.post(0, "bid", "0", seq, screen="tab-two-xyz")
    assert stale.status_code == 409
    assert "Ann already bid 1 from another screen." in html.unescape(stale.get_data(as_text=True))
    again = table.post(0, "bid", "1", seq, screen="tab-one-abc")  # a double tap
    assert "Already done: this tap was counted once." in again.get_data(as_text=True)
    assert table.engine().bids[0] == 1
    # A screen name that is not one is no name (and no error).
    odd = table.post(0, "bid", "0", seq, screen="x" * 5000 + "\x00")
    assert odd.status_code == 409
    assert "Already done" in odd.get_data(as_text=True)
    assert table.engine().bids[0] == 1


def test_a_bonus_on_the_pad_reaches_the_seats_that_poll(app: Flask) -> None:
    """R17: a penalty the host gives on the pad changes every seat's totals without a move
    at the table; a seat polling with the ETag it had gets the new totals, not a 304."""
    table = Table.create(app, RuleSet(), [P, P, B], seed=2)
    table.play_rounds(rounds=1, scan_all=False)
    phone = table.phones[0]
    first = phone.get(table.url(0, "/live"))
    etag = first.headers["ETag"]
    assert phone.get(table.url(0, "/live"), headers={"If-None-Match": etag}).status_code == 304
    with app.app_context(), transaction.atomic():
        pad = service.get_table(table.public_id).game
        game_service.add_adjustment(pad, 1, 0, -7, "revoke")
    with app.app_context():
        totals = game_service.sheet_of(service.get_table(table.public_id).game).totals
    changed = phone.get(table.url(0, "/live"), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    shown = re.findall(r'<span class="total" title="total">([^<]*)</span>', changed.text)
    assert shown == [f"{t:,}".replace("-", "−") for t in totals], shown
