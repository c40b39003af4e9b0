"""A game's story: the running-totals chart and bids against tricks, with the downloads.

On a page of its own so that the game page, polled every second and a half by every
phone at the table, never pays for drawing a chart.
"""

from __future__ import annotations

from flask import render_template

from scorekeeper.services.charts import game_chart
from scorekeeper.services.padview import pad_view
from scorekeeper.web import bp, picture
from scorekeeper.web.access import load_game


@bp.get("/games/<public_id>/story", endpoint="game_story")
def game_story(public_id: str) -> str:
    """The chart of every player's running total by round, and bids against tricks."""
    game = load_game(public_id)
    pad = pad_view(game)
    return render_template(
        "games/story.html",
        game=game,
        pad=pad,
        chart=game_chart(pad),
        picture_name=picture.file_names(game)[0],
    )
