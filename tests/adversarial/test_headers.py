"""Headers: a value never carries a control character, and every answer that shows a
scorer, seat or table link is ``Cache-Control: private, no-store``.

A ``next`` target with a line break used to reach the ``Location`` header (a 500, and a
header injection on a server that let it through); now anything but a plain local path
leads home. A cache that kept a page with a link would hand its secret to the next
person who asks.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.limits import local_path
from scorekeeper.services import digital as digital_service
from tests.web.support import HX, Pages

NO_STORE = "private, no-store"
SECRET = "correct horse battery staple"
# Each decoded: carriage return, line feed, NUL, tab, DEL, another host, a backslash.
BAD_NEXT = ["/%0Dx", "/%0Ax", "/x%0D%0ASet-Cookie:%20a=b", "/x%00", "/%09x", "/%7Fx"]
ELSEWHERE = ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:x"]


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def private(app: Flask) -> Flask:
    app.config["PASSPHRASE"] = SECRET
    return app


def new_game(client: FlaskClient) -> str:
    response = Pages(client).create(["Ann", "Ben", "Cat"])
    assert response.status_code == 303
    return urlsplit(response.headers["Location"]).path.rsplit("/", 1)[1]


@pytest.mark.parametrize(
    "target", ["\r", "/a\rb", "/a\nb", "/a\x00", "/a\tb", "/a\x7f", "//x", "/\\x", "x", ""]
)
def test_local_path_refuses_what_a_header_cant_carry(target: str) -> None:
    assert local_path(target) is None


@pytest.mark.parametrize("target", ["/", "/games/abc?x=1#y", "/players/3", "/caf%C3%A9"])
def test_local_path_keeps_a_path_on_this_site(target: str) -> None:
    assert local_path(target) == target


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_language_switch_goes_home_for_a_bad_target(client: FlaskClient, method: str) -> None:
    for target in BAD_NEXT + [t.replace("/", "%2F") for t in ELSEWHERE]:
        if method == "get":
            answer = client.get(f"/lang/de?next={target}")
        else:
            answer = client.post(f"/lang/de?next={target}")
        assert answer.status_code == 303, target
        assert answer.headers["Location"] == "/", target
    kept = client.get("/lang/en?next=/games/new")
    assert kept.status_code == 303 and kept.headers["Location"] == "/games/new"


def test_the_passphrase_form_goes_home_for_a_bad_target(private: Flask) -> None:
    client = private.test_client()
    for target in BAD_NEXT:
        shown = client.get(f"/passphrase?next={target}")
        assert shown.status_code == 200
        field = re.search(r'name="next" value="([^"]*)"', shown.get_data(as_text=True))
        assert field and field.group(1) == "/", target
    decoded = ["/\rx", "/\nx", "/x\r\nSet-Cookie: a=b", "/x\x00", "/\tx", "/\x7fx"]
    for target in decoded + ELSEWHERE:
        answer = client.post("/passphrase", data={"passphrase": SECRET, "next": target})
        assert answer.status_code == 303, repr(target)
        assert answer.headers["Location"] == "/", repr(target)
        assert "Set-Cookie: a=b" not in str(answer.headers)
    fine = client.post("/passphrase", data={"passphrase": SECRET, "next": "/games/new?x=1"})
    assert fine.headers["Location"] == "/games/new?x=1"


def test_a_private_servers_redirect_keeps_an_odd_path_in_the_query(private: Flask) -> None:
    answer = private.test_client().get("/games/%0D%0Ax")
    assert answer.status_code == 303
    assert "\r" not in answer.headers["Location"] and "\n" not in answer.headers["Location"]


# -- no cache may keep a link's secret -------------------------------------------------------


def test_the_scorers_page_with_the_scorer_link_is_no_store(app: Flask) -> None:
    scorer = app.test_client()
    pid = new_game(scorer)
    with scorer.session_transaction() as session:
        token = session["scoring"][-1][1]
    for path, headers in [
        (f"/games/{pid}", {}),
        (f"/games/{pid}?welcome=1", {}),
        (f"/games/{pid}", HX),
        (f"/games/{pid}/live?v=0", HX),
        (f"/games/{pid}/panel", {}),
        (f"/games/{pid}/more", HX),
    ]:
        answer = scorer.get(path, headers=headers)
        assert answer.status_code == 200, path
        if token in answer.get_data(as_text=True):
            assert answer.headers["Cache-Control"] == NO_STORE, path
    page = scorer.get(f"/games/{pid}?all=1")  # the whole page, with its More part
    assert token in page.get_data(as_text=True)  # the page does show the link
    assert page.headers["Cache-Control"] == NO_STORE
    qr = scorer.get(f"/games/{pid}/score-qr.svg")
    assert qr.headers["Cache-Control"] == NO_STORE
    # A follower's page holds no secret and may be kept as before.
    follower = app.test_client().get(f"/games/{pid}")
    assert token not in follower.get_data(as_text=True)
    assert "no-store" not in follower.headers.get("Cache-Control", "")


def test_the_apis_answer_with_the_scorer_token_is_no_store(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": ["Ann", "Ben", "Cat"]})
    assert created.status_code == 201 and created.get_json()["scorer_token"]
    assert created.headers["Cache-Control"] == NO_STORE


def test_digital_pages_with_seat_or_table_links_are_no_store(client: FlaskClient) -> None:
    form = {
        "name0": "Ann",
        "kind0": "person",
        "name1": "Ben",
        "kind1": "bot",
        "name2": "Cat",
        "kind2": "person",
        "first_dealer": "1",
        "plan": "short",
    }
    created = client.post("/digital/new", data=form)
    assert created.status_code == 303
    host = client.get(created.headers["Location"])
    assert host.status_code == 200 and host.headers["Cache-Control"] == NO_STORE
    seat_links = re.findall(r'href="([^"]+)" data-seat-link=', host.get_data(as_text=True))
    assert seat_links
    for link in seat_links:
        path = urlsplit(link).path
        for url, headers in [(path, {}), (path, HX), (f"{path}/live", HX)]:
            answer = client.get(url, headers=headers)
            assert answer.status_code == 200, url
            assert answer.headers["Cache-Control"] == NO_STORE, url


def test_the_pass_and_play_page_is_no_store(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        made = digital_service.create_table(
            ["Ann", "Ben", "Cat"], ["person", "person", "bot"], 2, RuleSet(), seed=4
        )
        public_id, token = made.game.public_id, made.table_token
    phone = app.test_client()
    base = f"/digital/{public_id}/t/{token}"
    for path, headers in [(base, {}), (f"{base}/live", HX)]:
        answer = phone.get(path, headers=headers)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == NO_STORE
    # Polls still get 304 while nothing changed: the widget sends its ETag itself.
    etag = phone.get(f"{base}/live", headers=HX).headers["ETag"]
    unchanged = phone.get(f"{base}/live", headers={**HX, "If-None-Match": etag})
    assert unchanged.status_code == 304
