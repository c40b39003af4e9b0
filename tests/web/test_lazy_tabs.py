"""The scorer's game page leaves out its Log and More tabs' parts (a lighter first load on
a phone): each comes when its tab first opens (htmx, app.js), and without JavaScript the
two tabs lead to the whole page, which has them. A follower's page has them all along."""

from tests.web.support import HX, Pages, section, text_of


def test_the_scorers_page_loads_the_log_and_more_when_opened(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    body = pages.page(pid).get_data(as_text=True)
    assert "Keeping score" in body
    more, log = section(body, "more-view"), section(body, "log")
    assert f'data-lazy="/games/{pid}/more"' in more and f'data-lazy="/games/{pid}/log"' in log
    for part in ("Rules of this game", "Share scoring", "/score/", "Round 1 recorded"):
        assert part not in body, part
    # Without JavaScript the two tabs lead to the whole page, which has their parts.
    tabs = body.split('<nav class="game-tabs"', 1)[1].split("</nav>", 1)[0]
    assert f'<a href="/games/{pid}?all=1#log-view">Log</a>' in tabs
    assert f'<a href="/games/{pid}?all=1#more-view">More</a>' in tabs
    whole = pages.whole_page(pid).get_data(as_text=True)
    assert "data-lazy" not in whole and '<a href="#more-view">More</a>' in whole
    assert "Rules of this game" in whole and "Share scoring" in whole
    assert "Round 1 recorded" in text_of(section(whole, "log"))

    answer = pages.client.get(f"/games/{pid}/log", headers=HX)
    assert answer.status_code == 200 and "HX-Request" in answer.headers["Vary"]
    shown = answer.get_data(as_text=True)
    assert shown.lstrip().startswith('<ol class="log">')
    assert "Round 1 recorded" in text_of(shown)
    answer = pages.client.get(f"/games/{pid}/more", headers=HX)
    shown = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "<html" not in shown
    assert "Rules of this game" in shown and "Share scoring" in shown and "/score/" in shown
    # It shows the scorer link: no cache may keep it.
    assert answer.headers["Cache-Control"] == "private, no-store"


def test_a_tab_opened_without_htmx_is_the_whole_page_at_it(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    for part in ("log", "more"):
        answer = pages.client.get(f"/games/{pid}/{part}")
        assert answer.status_code == 303
        assert answer.headers["Location"] == f"/games/{pid}?all=1#{part}-view"
    assert pages.client.get("/games/no-such-game/log", headers=HX).status_code == 404
    assert pages.client.get("/games/no-such-game/more").status_code == 404


def test_a_followers_page_has_every_part_and_no_scorer_link(pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    body = follower.page(pid).get_data(as_text=True)
    assert "Following" in body and "data-lazy" not in body
    assert "Rules of this game" in body and "Round 1 recorded" in text_of(section(body, "log"))
    more = follower.client.get(f"/games/{pid}/more", headers=HX).get_data(as_text=True)
    assert "Rules of this game" in more
    assert "Share scoring" not in more and "/score/" not in more
