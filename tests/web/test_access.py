"""Who may change a game: the creating browser and the scorer link; everyone else follows
read-only (403 on every change). Live updates for followers, CSRF, 404s."""

import gzip
import html
import re
import secrets
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import DictLoader, Environment

from scorekeeper.web.access import MAX_SCORED, MAX_TOKENS, qr_image
from scorekeeper.web.filters import FoldIndent
from tests.web.support import HX, Pages, ok, pad_totals, section

Snapshot = Callable[[str], tuple[object, ...]]

CHANGES = [
    ("trump", {"trump": "red"}),
    ("bid", {"seat": "1", "bid": "0"}),
    ("tricks", {"seat": "1", "tricks": "0"}),
    ("clear", {"clear": "bid:1"}),
    ("confirm", {}),
    (
        "rounds/1",
        {
            "bid0": "0",
            "bid1": "0",
            "bid2": "0",
            "tricks0": "1",
            "tricks1": "0",
            "tricks2": "0",
            "trump": "",
        },
    ),
    ("rounds/1/delete", {}),
]


@pytest.fixture
def pid(pages: Pages) -> str:
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0)
    pages.play_round(pid, {1: 0, 2: 0, 0: 0}, {1: 1, 2: 0})
    ok(pages.bid(pid, 2, 1))
    return pid


@pytest.mark.parametrize(("action", "data"), CHANGES)
@pytest.mark.parametrize("htmx", [False, True])
def test_followers_get_403_on_every_change(
    follower: Pages,
    pid: str,
    snapshot: Snapshot,
    action: str,
    data: dict[str, str],
    htmx: bool,
) -> None:
    before = snapshot(pid)
    response = follower.client.post(f"/games/{pid}/{action}", data=data, headers=HX if htmx else {})
    assert response.status_code == 403
    body = response.get_data(as_text=True)
    assert "Only the scorer can change it" in body
    assert ("<html" in body) is not htmx
    assert snapshot(pid) == before


def test_followers_see_the_pad_read_only(follower: Pages, pid: str) -> None:
    body = follower.page(pid).get_data(as_text=True)
    assert "Following" in body
    assert 'name="bid"' not in body and 'name="clear"' not in body and "/edit" not in body
    assert "Waiting for Ann&#39;s bid" in body or "Waiting for Cat" in body or "Waiting" in body
    assert pad_totals(body, 1) == [20, -10, 20]
    # No scorer link for them, only the view link and its QR code.
    assert "/score/" not in body
    assert "Share scoring" not in body
    assert f'<a href="http://localhost/games/{pid}" class="share-link">' in body
    qr = re.search(r'<img class="qr" src="([^"]+)"[^>]* loading="lazy"', body)
    assert qr and qr.group(1) == f"/games/{pid}/qr.svg"
    image = follower.client.get(qr.group(1))
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    assert image.data == qr_image(f"http://localhost/games/{pid}")
    assert image.data.startswith(b"<svg") and b'xmlns="http://www.w3.org/2000/svg"' in image.data
    for path in (f"/games/{pid}/rounds/1/edit", f"/games/{pid}/rounds/1/delete"):
        assert follower.client.get(path).status_code == 403


def test_the_scorer_sees_the_scorer_link_and_its_qr(pages: Pages, pid: str) -> None:
    body = pages.whole_page(pid).get_data(as_text=True)
    share = body.split("Share scoring")[1]
    link = re.search(r'href="(http://localhost/games/[\w-]+/score/[\w-]+)"', share)
    assert link
    qr = re.search(r'<img class="qr" src="([^"]+)"', share)
    assert qr and qr.group(1) == f"/games/{pid}/score-qr.svg"
    image = pages.client.get(qr.group(1))
    assert image.status_code == 200 and image.headers["Cache-Control"] == "private, no-store"
    assert image.data == qr_image(link.group(1))


def test_only_the_scorer_gets_the_scorer_links_qr(follower: Pages, pid: str) -> None:
    assert follower.client.get(f"/games/{pid}/score-qr.svg").status_code == 403
    assert follower.client.get(f"/games/{'0' * 22}/score-qr.svg").status_code == 404
    assert follower.client.get(f"/games/{'0' * 22}/qr.svg").status_code == 404


def test_scorer_link_grants_scoring(pages: Pages, follower: Pages, pid: str) -> None:
    link = re.search(
        r'href="http://localhost(/games/[\w-]+/score/[\w-]+)"',
        pages.whole_page(pid).get_data(as_text=True),
    )
    assert link
    response = follower.client.get(link.group(1))
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{pid}"
    ok(follower.bid(pid, 0, 0))  # Ann, the dealer, bids last
    assert "Share scoring" in follower.whole_page(pid).get_data(as_text=True)


def test_a_scorer_link_sets_the_cookie_once(pages: Pages, pid: str, app: Flask) -> None:
    """The link's answer carries the whole session (the forms' token too): the game page
    it leads to sends no cookie again, bytes a phone would pay on its first load."""
    link = re.search(
        r'href="http://localhost(/games/[\w-]+/score/[\w-]+)"',
        pages.whole_page(pid).get_data(as_text=True),
    )
    assert link
    phone = app.test_client()
    claim = phone.get(link.group(1))
    assert claim.status_code == 303
    assert claim.headers["Set-Cookie"].startswith("session=")
    page = phone.get(f"/games/{pid}")
    assert "Keeping score" in page.get_data(as_text=True)
    assert "Set-Cookie" not in page.headers
    assert "Share scoring" in phone.get(f"/games/{pid}/more", headers=HX).get_data(as_text=True)


def test_pages_go_out_without_the_templates_indentation(pages: Pages, pid: str) -> None:
    page = pages.page(pid).get_data(as_text=True)
    at = page.find("\n ")
    assert at < 0, page[at - 200 : at + 100]
    assert 'class="seats"' in page  # still the whole page
    # Nor the lines of its block tags (169 empty lines of the scorer's page before).
    assert page.count("\n\n") < 20


def test_a_line_of_a_block_tag_alone_goes_and_the_words_around_it_stay_apart() -> None:
    source = (
        "<p>\n  <b>a</b>\n  {% if x %}\n  <b>b</b>\n  {%- if x %}\n  <b>c</b>\n"
        "  {% endif %}{% endif %}\n  {% set y = {'k': 1} %}\n  {{ y.k }}\n</p>\n"
    )
    env = Environment(loader=DictLoader({"t.html": source}), extensions=[FoldIndent])
    # The line break before a tag stays; "{%-" has taken it, so the one after it stays.
    assert env.get_template("t.html").render(x=True) == (
        "<p>\n<b>a</b>\n<b>b</b>\n<b>c</b>\n\n\n1\n</p>"
    )


def test_a_wrong_scorer_token_is_refused(follower: Pages, pid: str, snapshot: Snapshot) -> None:
    response = follower.client.get(f"/games/{pid}/score/not-the-token")
    assert response.status_code == 403
    assert "This scorer link doesn't work" in html.unescape(response.get_data(as_text=True))
    assert follower.bid(pid, 0, 0).status_code == 403


def test_unknown_games_get_a_friendly_404(pages: Pages) -> None:
    for response in (
        pages.client.get("/games/no-such-game"),
        pages.client.get("/games/no-such-game/live?v=1", headers=HX),
        pages.client.get("/games/no-such-game/score/abc"),
        pages.bid("no-such-game", 0, 0),
        pages.client.get("/games/no-such-game/rounds/1/edit"),
    ):
        assert response.status_code == 404
    body = pages.client.get("/games/no-such-game").get_data(as_text=True)
    assert "Page not found" in body and 'href="/"' in body


def test_followers_poll_cheaply(pages: Pages, follower: Pages, pid: str, app: Flask) -> None:
    body = follower.page(pid).get_data(as_text=True)
    poller = re.search(r'<div id="sync"[^>]*hx-get="([^"]+)"[^>]*>', body)
    # Asked when the live channel says the game moved on (or every 5 s if it fails).
    assert poller and 'hx-trigger="sk-live"' in poller.group(0)
    url = poller.group(1).replace("&amp;", "&")
    unchanged = follower.client.get(url, headers=HX)
    assert unchanged.status_code == 204
    assert unchanged.get_data() == b""
    ok(pages.bid(pid, 0, 0))
    changed = follower.client.get(url, headers=HX)
    assert changed.status_code == 200
    html = changed.get_data(as_text=True)
    assert section(html, "entry")  # the status panel, then the pad and a new poller
    assert 'id="pad" class="pad players-3" hx-swap-oob="true"' in html
    newer = re.search(r'<div id="sync"[^>]*hx-get="([^"]+)"', html)
    assert newer and newer.group(1) != poller.group(1)
    assert follower.client.get(newer.group(1).replace("&amp;", "&"), headers=HX).status_code == 204
    # The scorer's own page needs no polling: it changes with each tap.
    scorer = pages.page(pid).get_data(as_text=True)
    assert 'hx-trigger="every' not in scorer and 'hx-trigger="sk-live"' not in scorer


def test_a_request_sent_oddly_is_refused_in_words_where_the_person_looks(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    # Before, werkzeug's bare English "Bad Request" page, a whole page even for htmx.
    before = snapshot(pid)
    odd = {"Idempotency-Key": "two words"}
    page = pages.client.post(f"/games/{pid}/bid", data={"seat": 1, "bid": 0}, headers=odd)
    assert page.status_code == 400
    body = page.get_data(as_text=True)
    assert "That could not be done" in body and "Idempotency-Key must be" in body
    widget = pages.client.post(
        f"/games/{pid}/bid", data={"seat": 1, "bid": 0}, headers={**odd, **HX}
    )
    assert widget.status_code == 400
    fragment = widget.get_data(as_text=True)
    assert 'role="alert"' in fragment and "<html" not in fragment
    assert "Idempotency-Key must be" in fragment
    assert snapshot(pid) == before


def test_csrf_token_is_required(
    app: Flask, client: FlaskClient, pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    before = snapshot(pid)
    response = pages.bid(pid, 0, 0)
    assert response.status_code == 400
    assert "This page has expired" in response.get_data(as_text=True)
    assert pages.client.post("/games", data={"player": ["A", "B", "C"]}).status_code == 400
    assert snapshot(pid) == before
    # With the token from the page (form field or htmx header) it goes through.
    body = pages.page(pid).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', body).group(1)  # type: ignore[union-attr]
    header = re.search(r'"X-CSRFToken": "([^"]+)"', body).group(1)  # type: ignore[union-attr]
    ok(pages.client.post(f"/games/{pid}/bid", data={"seat": "0", "bid": "0", "csrf_token": token}))
    ok(
        pages.client.post(
            f"/games/{pid}/clear", data={"clear": "bid:0"}, headers={**HX, "X-CSRFToken": header}
        )
    )


def test_the_session_keeps_the_latest_games_and_stays_under_4_kb(app: Flask) -> None:
    from flask import session

    from scorekeeper.web.access import TAG, grant_scorer, scorer_token

    # Random ids and tokens, as real ones are: they don't compress.
    games = [(secrets.token_urlsafe(16), secrets.token_urlsafe(24)) for _ in range(MAX_SCORED + 20)]
    with app.test_request_context():
        for public_id, token in games:
            grant_scorer(public_id, token)
        kept = games[20:]
        assert [e[0] for e in session["scoring"]] == [public_id for public_id, _ in kept]
        assert scorer_token(kept[-MAX_TOKENS - 1][0]) is None
        assert scorer_token(kept[-1][0]) == kept[-1][1]
        # The older games keep a tag of their token (checked against the game's), not it.
        credentials = [credential for _, credential in session["scoring"]]
        assert all(c.startswith(TAG) for c in credentials[:-MAX_TOKENS])
        assert credentials[-MAX_TOKENS:] == [token for _, token in kept[-MAX_TOKENS:]]
        # With a CSRF token and two circles' links beside them.
        session["csrf_token"] = secrets.token_hex(20)
        session["circles"] = [[secrets.token_urlsafe(16), secrets.token_urlsafe(32)]] * 2
        cookie = app.session_interface.get_signing_serializer(app).dumps(dict(session))  # type: ignore[attr-defined]
    assert len(cookie) < 3500


def test_a_game_page_is_light(pages: Pages, app: Flask) -> None:
    """First load of a game page, gzip-compressed: page, CSS and scripts ≤ 35 KB."""
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], dealer=0)
    for first in range(1, 4):  # three rounds: everyone bids 0, the dealer takes it all
        order = [(first + i) % 6 for i in range(6)]
        pages.play_round(pid, dict.fromkeys(order, 0), dict.fromkeys(order[:5], 0))
    page = pages.page(pid).get_data(as_text=True)
    assets = re.findall(r'(?:href|src)="(/static/[^"?]+\.(?:css|js))', page)
    total = len(gzip.compress(page.encode()))
    for asset in assets:
        response = pages.client.get(asset)
        total += len(gzip.compress(response.get_data()))
        response.close()
    assert assets == ["/static/css/app.css", "/static/js/page.js"]  # htmx and app.js in one
    print(f"game page, first load, gzip: {total} bytes")
    assert total <= 35 * 1024, total
