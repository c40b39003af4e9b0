"""Friendly error pages for the whole app."""

from flask import render_template
from werkzeug.exceptions import HTTPException

from scorekeeper.extensions import db
from scorekeeper.web import bp


@bp.app_errorhandler(404)
def not_found(error: HTTPException) -> tuple[str, int]:
    """Say the page does not exist and offer the way home."""
    return render_template("error.html", status=404, title="Page not found"), 404


@bp.app_errorhandler(500)
def internal_error(error: Exception) -> tuple[str, int]:
    """Roll back whatever the failed request left in the session, then apologise."""
    db.session.rollback()
    return render_template("error.html", status=500, title="Something went wrong"), 500
