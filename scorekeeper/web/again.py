"""Play again: the next game at the same table in one tap, from a finished game.

The button posts a form that holds nothing but its CSRF token and idempotency key: what
the next game is (same players and seats, the next first dealer, the same rule set and
circle) comes from the finished game alone. Whoever taps becomes the new game's scorer.
"""

from __future__ import annotations

from flask import Response, abort, flash, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import ratelimit
from scorekeeper.i18n import _
from scorekeeper.idempotency import idempotent
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import Rejected
from scorekeeper.web import bp
from scorekeeper.web.access import (
    grant_again,
    is_htmx,
    is_member_of,
    load_game,
    open_as_scorer,
    scores,
)


def may_play_again(game: Game) -> bool:
    """Whether this browser may start the game's next game: its scorer, or (for a
    circle's game) anyone holding the circle's link."""
    return scores(game) or is_member_of(game.circle_id)


def _refusal(status: int, title: str, detail: str, public_id: str) -> Response:
    """A refusal in words where the person is looking: with htmx a notice in the
    button's place, else a page with the way back to the game."""
    if is_htmx():
        target = request.headers.get("HX-Target") or "notice"
        body = render_template("_notice.html", target=target, title=title, detail=detail)
    else:
        body = render_template(
            "error.html",
            status=status,
            title=title,
            detail=detail,
            back=url_for("web.game", public_id=public_id),
        )
    return make_response(body, status)


def _to_game(public_id: str) -> BaseResponse:
    """To a game's page (htmx follows the redirect as a page load)."""
    target = url_for("web.game", public_id=public_id)
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, 303)


def _authorize(public_id: str, **view_args: object) -> None:
    _require_table(load_game(public_id))


def _require_table(game: Game) -> None:
    """Refuse (403, in words) a browser that neither scores the game nor holds its circle."""
    if not may_play_again(game):
        abort(
            _refusal(
                403,
                _("Only the scorer or the circle can play again"),
                _(
                    "The next game is started by whoever keeps score of this one, or by "
                    "someone in its circle. This phone only follows it."
                ),
                game.public_id,
            )
        )


def _refuse(message: str, public_id: str, **view_args: object) -> Response:
    """The form's idempotency key sent with another request (422)."""
    return _refusal(422, _("Nothing was started"), message, public_id)


def _rejected(exc: Rejected, public_id: str) -> ResponseReturnValue:
    """Nothing started: the next game already was (there it is), or the game can't have
    one (why, in words)."""
    if isinstance(exc, game_service.NextGameStarted):
        flash(exc.message)
        return _to_game(exc.public_id)
    return _refusal(exc.status, _("Nothing was started"), exc.message, public_id)


@bp.post("/games/<public_id>/again", endpoint="play_again")
@idempotent(_refuse, authorize=_authorize, replayed=grant_again, rejected=_rejected)
def play_again(public_id: str) -> ResponseReturnValue:
    """Start the next game at this table; this browser keeps its score. A double tap or
    a retry (the same idempotency key) starts one game, and both answers lead to it."""
    game = load_game(public_id)
    _require_table(game)  # also without an idempotency key
    ratelimit.spend("game")  # not kept when the next game was already started
    new, token = game_service.play_again(game)
    # The phones following this game are led to the next one: it opens ready to bid.
    return open_as_scorer(new.public_id, token, welcome=False)
