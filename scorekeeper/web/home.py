"""The home page: start a new game, or pick up a recent one."""

from flask import render_template

from scorekeeper.services import pages as page_service
from scorekeeper.web import bp
from scorekeeper.web.access import scored_ids


@bp.get("/")
def home() -> str:
    """Show the home page."""
    return render_template("home.html", games=page_service.recent_games(), scored=scored_ids())
