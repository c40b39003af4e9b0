"""The look (auto, ledger paper, card table) is this browser's choice, kept in a cookie;
cached pages are kept per look, so one phone's choice never shows on another's."""

from __future__ import annotations

from flask import Flask

from tests.web.support import Pages


def _theme_of(body: str) -> str | None:
    head = body.split("<head>", 1)[0]
    if 'data-theme="' not in head:
        return None
    return head.split('data-theme="', 1)[1].split('"', 1)[0]


def test_the_choice_is_remembered_and_offered_back(pages: Pages) -> None:
    client = pages.client
    assert _theme_of(client.get("/").get_data(as_text=True)) is None  # the device's own
    answer = client.get("/theme/dark?next=/games/new")
    assert answer.status_code == 303 and answer.headers["Location"] == "/games/new"
    assert "theme=dark" in answer.headers["Set-Cookie"]
    assert "HttpOnly" in answer.headers["Set-Cookie"]
    body = client.get("/games/new").get_data(as_text=True)
    assert _theme_of(body) == "dark"
    assert '<span aria-current="true">Card table</span>' in body
    client.post("/theme/light")
    assert _theme_of(client.get("/").get_data(as_text=True)) == "light"
    client.get("/theme/auto")
    assert _theme_of(client.get("/").get_data(as_text=True)) is None


def test_what_is_not_a_look_or_a_page_here_is_refused(pages: Pages) -> None:
    client = pages.client
    assert client.get("/theme/neon").status_code == 404
    assert client.get("/theme/" + "x" * 5000).status_code == 404
    outside = client.get("/theme/dark?next=https://evil.example/")
    assert outside.status_code == 303 and outside.headers["Location"] == "/"
    client.set_cookie("theme", "<script>")
    assert _theme_of(client.get("/").get_data(as_text=True)) is None


def test_a_kept_page_is_kept_per_look(app: Flask, pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    light, dark = app.test_client(), app.test_client()
    light.get("/theme/light")
    dark.get("/theme/dark")
    for _ in range(2):  # the second time from the page cache
        assert _theme_of(light.get(f"/games/{pid}").get_data(as_text=True)) == "light"
        assert _theme_of(dark.get(f"/games/{pid}").get_data(as_text=True)) == "dark"
