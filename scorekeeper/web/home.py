"""The home page."""

from flask import render_template

from scorekeeper.web import bp


@bp.get("/")
def home() -> str:
    """Show the home page."""
    return render_template("home.html")
