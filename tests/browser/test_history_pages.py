"""The circle's pages and the home page on phones (360, 375 and 390 px, both looks),
with the long names of a real table: no "·" left alone at the end or start of a line,
the player page's head-to-head table whole on screen in English and German (its wins
counted out of the games they are a share of), and Play again and Delete lined up in
the games list."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import transaction
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from tests.browser.conftest import Phone, shot_if_failing

# The phones (phone_in, each_phone) stay open from test to test (KeptPages): the tests
# here add no handlers, scripts or routes to them.
KEEP_PAGES = True

NAMES = ["Christopher-Alexander", "Bartholomäus", "Anna-Lena", "Maximilian"]

# Every "·" a reader sees, as written text or as a separator drawn before a piece
# (::before, where one is drawn), with the characters seen before and after it: a dot
# that ends or starts a line has no neighbour on its own line on that side. A dot a
# piece brings is seen when hit-testing finds its piece there (a clipped one is not).
STRAY_DOTS = """() => {
    const seen = [];
    const range = document.createRange();
    const main = document.querySelector('main');
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
        if (node.nodeType === Node.ELEMENT_NODE) {
            const before = getComputedStyle(node, '::before');
            if (before.content !== '"·"') continue;
            const box = node.getClientRects()[0];
            if (!box) continue;
            const width = parseFloat(before.width) || 8;
            node.scrollIntoView({block: 'center'});
            const box2 = node.getClientRects()[0];
            const x = box2.left + width / 2, y = box2.top + box2.height / 2;
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit === node || node.contains(hit))) {
                seen.push({c: '·', top: box2.top + window.scrollY, where: node.textContent});
            }
            continue;
        }
        for (let i = 0; i < node.data.length; i++) {
            if (/\\s/.test(node.data[i])) continue;
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = [...range.getClientRects()].find(r => r.width > 0);
            if (box) seen.push({c: node.data[i], top: box.top + window.scrollY, where: node.data});
        }
    }
    const stray = [];
    seen.forEach((s, i) => {
        if (s.c !== '·') return;
        const before = seen[i - 1], after = seen[i + 1];
        const alone = !before || Math.abs(before.top - s.top) > 4
            || !after || Math.abs(after.top - s.top) > 4;
        if (alone) stray.push(s.where.trim().slice(0, 60));
    });
    return stray;
}"""


# The letters of a line of pieces (.dots) that are cut off: hit-testing at a letter's
# middle does not find its own element there.
CUT_OFF = """() => {
    const cut = [];
    const range = document.createRange();
    for (const line of document.querySelectorAll('main .dots')) {
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            for (let i = 0; i < node.data.length; i++) {
                if (/\\s/.test(node.data[i])) continue;
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                node.parentElement.scrollIntoView({block: 'center'});
                const box = [...range.getClientRects()].find(r => r.width > 0);
                if (!box) continue;
                const x = box.left + box.width / 2, y = box.top + box.height / 2;
                const hit = document.elementFromPoint(x, y);
                if (!hit || !(hit === node.parentElement || node.parentElement.contains(hit))) {
                    cut.push(node.data.trim());
                    break;
                }
            }
        }
    }
    return cut;
}"""


def history(app: Flask) -> dict[str, str]:
    """A circle whose players have long names: three finished games (Christopher-
    Alexander wins two, Anna-Lena one) and one going on. Its link, its pages, a scorer
    link of each game."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Donnerstagsrunde")
        short = game_service.parse_rules({"round_plan": "short"})
        links = []
        for winner, rounds in ((0, None), (0, None), (2, None), (0, 3)):
            game, token = game_service.create_game(NAMES, 0, short, circle_id=circle.id)
            for cards in game_service.sheet_of(game).plan[:rounds]:
                bids = [cards if seat == winner else 0 for seat in range(4)]
                game_service.record_round(game, bids, bids)
            links.append(f"/games/{game.public_id}/score/{token}")
        anna = next(s.player for s in game.seats if s.player.name == "Anna-Lena")
        home = f"/circles/{circle.public_id}"
        return {
            "link": f"/c/{circle.public_id}/{circle_service.circle_key(circle)}",
            "circle": home,
            "games": home + "/games",
            "records": home + "/records",
            "player": home + f"/players/{anna.id}",
            **{f"scorer{n}": link for n, link in enumerate(links)},
        }


def member(app: Flask, phone: Page, live_server: str, pages: dict[str, str]) -> None:
    """The phone has opened the circle's link and keeps score of its games (so the home
    page lists them): the links opened by a client of the app, whose session cookie (all
    the phone keeps of them) the phone then holds, as if it had opened them itself."""
    client = app.test_client()
    for link in [pages["link"], *(pages[f"scorer{n}"] for n in range(4))]:
        assert client.get(link, follow_redirects=True).status_code == 200, link
    cookie = client.get_cookie("session")
    assert cookie is not None
    phone.context.add_cookies([{"name": "session", "value": cookie.value, "url": live_server}])


def test_no_dot_is_left_alone_at_a_lines_end_or_start(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path
) -> None:
    pages = history(app)
    phone = each_phone.page
    member(app, phone, live_server, pages)
    stray = {}
    for name in ("home", "circle", "games", "records", "player"):
        phone.goto(live_server + ("/" if name == "home" else pages[name]))
        expect(phone.locator("main")).to_be_visible()
        stray[name] = phone.evaluate(STRAY_DOTS)
        shot = artifacts / f"dots-{name}-{each_phone.label}.png"
        if stray[name]:  # a picture of a page with a dot left alone, to look at
            phone.screenshot(path=shot, full_page=True)
        with shot_if_failing(phone, shot):
            assert phone.evaluate(CUT_OFF) == [], name
            assert phone.evaluate("document.documentElement.scrollWidth") <= each_phone.width
    assert stray == dict.fromkeys(stray, [])


# The head-to-head table's box, and each of its cells whose text does not show whole in it.
TABLE = """() => {
    const heading = [...document.querySelectorAll('main h2')]
        .find(h => h.nextElementSibling && h.nextElementSibling.matches('.table-box')
                   && h.nextElementSibling.querySelector('a'));
    const box = heading.nextElementSibling;
    const edge = box.getBoundingClientRect();
    const range = document.createRange();
    const cut = [...box.querySelectorAll('th, td')].filter(cell => {
        range.selectNodeContents(cell);
        const text = range.getBoundingClientRect();
        return text.left < edge.left - 0.5 || text.right > edge.right + 0.5;
    }).map(cell => cell.textContent.trim());
    return {scroll: box.scrollWidth, width: box.clientWidth, cut};
}"""


@pytest.mark.parametrize(
    ("language", "wins"),
    [("en", "1 of 3 finished games"), ("de", "1 von 3 beendeten Spielen")],
)
def test_the_head_to_head_table_shows_whole_and_the_wins_say_out_of_what(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path, language: str, wins: str
) -> None:
    """Anna-Lena played four games, three of them finished, and won one: her wins read
    "1 of 3 finished games (33 %)" beside "4 (1 ongoing)", not "1 (33 %)". Her record
    against each of three long names fits the phone, every column whole, in German
    too (no box to scroll sideways without a sign that it does)."""
    pages = history(app)
    phone = each_phone.page
    phone.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    member(app, phone, live_server, pages)
    phone.goto(live_server + pages["player"])
    stat = phone.locator(".stat-grid > div").nth(1).locator("dd")
    expect(stat).to_contain_text(wins)
    expect(stat).to_contain_text("33")
    found = phone.evaluate(TABLE)
    assert found["scroll"] <= found["width"], found
    assert found["cut"] == [], found
    phone.locator(".table-box").last.scroll_into_view_if_needed()
    phone.screenshot(path=artifacts / f"head-to-head-{language}-{each_phone.label}.png")


def test_play_again_and_delete_line_up_in_the_games_list(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path
) -> None:
    """A finished game's Play again and Delete stand one above the other in one column,
    equally wide and centred on the same line."""
    pages = history(app)
    phone = each_phone.page
    member(app, phone, live_server, pages)
    phone.goto(live_server + pages["games"])
    finished = phone.locator("li.game-line", has=phone.locator(".again-form"))
    expect(finished).to_have_count(3)
    for line in finished.all():
        again = line.get_by_role("button", name="Play again").bounding_box()
        delete = line.locator("details.delete > summary").bounding_box()
        assert again is not None and delete is not None
        assert abs(again["x"] - delete["x"]) <= 1, (again, delete)
        assert abs(again["width"] - delete["width"]) <= 1, (again, delete)
        assert delete["y"] >= again["y"] + again["height"], (again, delete)
    phone.screenshot(path=artifacts / f"games-list-again-delete-{each_phone.label}.png")
