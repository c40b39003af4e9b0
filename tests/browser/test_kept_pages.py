"""The phones a module keeps open from test to test (conftest.KeptPages) come back to
each test as new ones would be: no cookies, nothing stored for the test's server, at
the size asked, and one context for each phone held at once."""

from __future__ import annotations

from tests.browser.conftest import KeptPages

KEEP_PAGES = True


def test_a_kept_page_comes_back_as_a_new_one(kept_pages: KeptPages, live_server: str) -> None:
    page = kept_pages.take(live_server, {"width": 360, "height": 640})
    page.goto(live_server + "/")
    page.context.add_cookies([{"name": "theme", "value": "dark", "url": live_server}])
    page.evaluate("localStorage.setItem('scorekeeper-pace', 'slow')")
    page.set_viewport_size({"width": 320, "height": 500})
    kept_pages.give_back()
    assert page.url == "about:blank"  # nothing left talking to the server

    again = kept_pages.take(live_server, {"width": 390, "height": 844})
    assert again is page  # kept, not made anew
    assert again.context.cookies() == []
    again.goto(live_server + "/")
    assert again.evaluate("localStorage.length") == 0  # the same origin: a port used again
    assert again.evaluate("[innerWidth, innerHeight, screen.width]") == [390, 844, 390]
    kept_pages.give_back()


def test_two_phones_held_at_once_are_two_contexts(kept_pages: KeptPages, live_server: str) -> None:
    first = kept_pages.take(live_server, {"width": 360, "height": 640})
    second = kept_pages.take(live_server, {"width": 360, "height": 640})
    assert first.context is not second.context
    first.context.add_cookies([{"name": "theme", "value": "dark", "url": live_server}])
    assert second.context.cookies() == []
    kept_pages.give_back()
