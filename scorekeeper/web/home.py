"""The home page: this phone's circles and games, and how to start."""

from flask import render_template

from scorekeeper.services import history
from scorekeeper.web import bp
from scorekeeper.web.access import member_circles, scored_ids
from scorekeeper.web.digital import phone_tables
from scorekeeper.web.history import game_lines_context, undo_line


@bp.get("/")
def home() -> str:
    """Show the home page: nothing on it but what this phone already holds links to."""
    scored = scored_ids()
    return render_template(
        "home.html",
        circles=member_circles(),
        games=history.phone_games(list(scored)),
        tables=phone_tables(),
        scored=scored,
        undo=undo_line(),
        **game_lines_context("home"),
    )
