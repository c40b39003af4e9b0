"""The scorer's page of an open game says where the rest of the game is, as the engine's
data (plan.json, for entering rounds offline), and is marked for the service worker to
keep; nobody else's is, and nobody else gets the data."""

from scorekeeper.engine import DealerRule, RuleSet, game_ahead
from tests.web.support import Pages


def test_v1_the_rest_of_the_game_comes_as_the_engines_data(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], 2, dealer_rule="plus_minus_one")
    pages.play_round(pid, {0: 0, 1: 0, 2: 0}, {0: 1, 1: 0})
    page = pages.page(pid)
    body = page.get_data(as_text=True)
    assert page.headers["X-Offline-Copy"] == "keep"
    assert f'data-plan="/games/{pid}/plan.json"' in body
    # The totals before the open round, which the page adds its own rounds to.
    assert 'data-round="2" data-totals="[-10,20,20]"' in body  # no spaces to send

    response = pages.client.get(f"/games/{pid}/plan.json")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-cache"
    data = response.get_json()
    engine = game_ahead(RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE), 3, 2, 1).as_data()
    assert data["scores"] == engine["scores"] and data["no_bid"] is None and data["rest"] is True
    assert [r["n"] for r in data["rounds"]] == list(range(1, 21))
    for mine, theirs in zip(data["rounds"], engine["rounds"], strict=True):
        assert {k: mine[k] for k in theirs} == theirs
    assert data["rounds"][1]["cards_each"] == '<strong class="num">2</strong> cards each'
    assert data["rounds"][1]["why_total"] == (
        "{name} can't bid {bid}: the bids would add up to the 2 tricks."
    )
    assert data["sealed"] == "" and data["texts"]["ask_tricks"] == "Tricks: {name} took"


def test_the_data_speaks_the_readers_language(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], bidding="hidden")
    response = pages.client.get(f"/games/{pid}/plan.json", headers={"Accept-Language": "de"})
    data = response.get_json()
    assert data["texts"]["ask_tricks"] == "Stiche: {name} hat gemacht"
    assert data["sealed"] == "✓"


def test_followers_get_no_data_and_their_page_no_keep_mark(pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], round_plan="short")
    response = follower.page(pid)
    assert "X-Offline-Copy" not in response.headers
    assert "offline-plan" not in response.get_data(as_text=True)
    assert follower.client.get(f"/games/{pid}/plan.json").status_code == 403
    assert pages.client.get("/games/nosuchgame/plan.json").status_code == 404
    for number in range(1, 11):
        dealer = (number - 1) % 3
        order = [(dealer + 1 + i) % 3 for i in range(3)]
        pages.play_round(pid, dict.fromkeys(order, 0), {order[0]: 0, order[1]: 0})
    finished = pages.page(pid)
    assert "offline-plan" not in finished.get_data(as_text=True)
    assert finished.headers["X-Offline-Copy"] == "keep"  # the standings open offline too
