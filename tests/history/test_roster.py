"""Renaming and merging players, with the history kept."""

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Player, RoundResult, Seat
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from scorekeeper.services import roster, stats
from scorekeeper.services.errors import NotFound, Rejected
from tests.history.support import Fixture, player_id

pytestmark = pytest.mark.usefixtures("ctx")


def test_rename(fx: Fixture) -> None:
    roster.rename_player(fx.circle_id, fx.cat, "  Catherine  ")
    assert game_service.names_of(game_service.get_game(fx.g1)) == ["Ann", "Ben", "Catherine"]
    assert stats.player_stats(fx.cat, fx.circle_id).player.name == "Catherine"
    roster.rename_player(fx.circle_id, fx.cat, "CATHERINE")  # a change of case is the same name
    assert db.session.get(Player, fx.cat).name == "CATHERINE"  # type: ignore[union-attr]


def test_rename_to_a_taken_name_is_refused(fx: Fixture) -> None:
    with pytest.raises(Rejected, match="already a player called Ben.*merge"):
        roster.rename_player(fx.circle_id, fx.cat, "ben")
    with pytest.raises(Rejected):
        roster.rename_player(fx.circle_id, fx.cat, "   ")
    with pytest.raises(NotFound):
        roster.rename_player(fx.circle_id, 999, "Zed")


def test_merge_moves_every_game(fx: Fixture) -> None:
    # "Catherine" played a game of her own under another name.
    game, _ = game_service.create_game(
        ["Catherine", "Eve", "Fay"], 0, game_service.parse_rules({}), circle_id=fx.circle_id
    )
    game_service.record_round(game, [1, 0, 0], [1, 0, 0])
    cathy = player_id("Catherine")
    before = stats.player_stats(fx.cat, fx.circle_id)
    roster.merge_players(fx.circle_id, fx.cat, cathy)
    assert db.session.get(Player, cathy) is None
    assert (
        db.session.scalar(select(func.count()).select_from(Seat).where(Seat.player_id == cathy))
        == 0
    )
    assert (
        db.session.scalar(
            select(func.count()).select_from(RoundResult).where(RoundResult.player_id == cathy)
        )
        == 0
    )
    after = stats.player_stats(fx.cat, fx.circle_id)
    assert after.games == before.games + 1
    assert after.exact == before.exact + 1
    assert game_service.names_of(game_service.get_game(game.public_id))[0] == "Cat"


def test_merge_of_players_who_sat_together_is_refused(fx: Fixture) -> None:
    with pytest.raises(Rejected, match="same table .*3 games.*two people"):
        roster.merge_players(fx.circle_id, fx.ann, fx.ben)
    assert stats.player_stats(fx.ben, fx.circle_id).games == 3
    with pytest.raises(Rejected):
        roster.merge_players(fx.circle_id, fx.ann, fx.ann)
    with pytest.raises(NotFound):
        roster.merge_players(fx.circle_id, fx.ann, 999)


def test_players_of_another_circle_are_not_found(fx: Fixture) -> None:
    other = circle_service.create_circle("Elsewhere")
    game, _ = game_service.create_game(
        ["Ann", "Eve", "Fay"], 0, game_service.parse_rules({}), circle_id=other.id
    )
    their_ann = player_id("Ann", other.id)
    assert their_ann != fx.ann  # the same name in two circles: two people
    with pytest.raises(NotFound):
        roster.rename_player(fx.circle_id, their_ann, "Anna")
    with pytest.raises(NotFound):
        roster.merge_players(fx.circle_id, fx.ann, their_ann)
    with pytest.raises(NotFound):
        roster.rename_player(other.id, fx.cat, "Catherine")
    assert db.session.get(Player, their_ann).name == "Ann"  # type: ignore[union-attr]
    assert db.session.get(Player, fx.cat).name == "Cat"  # type: ignore[union-attr]
