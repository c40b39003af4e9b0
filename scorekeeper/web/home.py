"""The home page: this phone's circles and games, and how to start."""

from flask import render_template

from scorekeeper.services import pages as page_service
from scorekeeper.web import bp
from scorekeeper.web.access import member_circles, scored_ids


@bp.get("/")
def home() -> str:
    """Show the home page: nothing on it but what this phone already holds links to."""
    scored = scored_ids()
    return render_template(
        "home.html",
        circles=member_circles(),
        games=page_service.recent_games(list(scored)),
        scored=scored,
    )
