"""Circles on the web: make one, open its link, its home page and its settings.

The link ``/c/<id>/<key>`` is what a group shares; the browser that opens it remembers it
(signed session), and from then on the circle's pages open at ``/circles/<id>``. To a
browser without the link every circle page is the same 404 as a circle that does not
exist.
"""

from __future__ import annotations

from flask import (
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import passphrase, ratelimit
from scorekeeper.i18n import _
from scorekeeper.idempotency import idempotent, remember
from scorekeeper.models import Circle
from scorekeeper.services import circles as circle_service
from scorekeeper.services import history
from scorekeeper.services.errors import NotFound, Rejected
from scorekeeper.web import bp
from scorekeeper.web.access import (
    forget_circle,
    holds_circle,
    is_member,
    join_circle,
    load_circle,
    qr_image,
)

RECENT = 5


def circle_url(circle: Circle) -> str:
    """The circle's link, as a whole URL to share."""
    return url_for(
        "web.open_circle",
        circle_id=circle.public_id,
        key=circle_service.circle_key(circle),
        _external=True,
    )


def _private(response: Response) -> Response:
    # Pages that show the circle's link are nobody's to keep.
    response.headers["Cache-Control"] = "private, no-store"
    return response


# -- making a circle -----------------------------------------------------------------------


def creation_open() -> bool:
    """Whether this browser may make a circle: on an open server anyone may; with
    ``CIRCLES = "passphrase"`` only a browser that gave the server's passphrase."""
    if not passphrase.circles_only():
        return True
    return passphrase.unlocked_here()


def _new_form(status: int = 200, message: str | None = None, name: str = "") -> Response:
    body = render_template("circles/new.html", message=message, name=name, allowed=creation_open())
    return make_response(body, status)


@bp.get("/circles/new")
def new_circle() -> Response:
    """The form: a name is enough."""
    return _new_form()


def _refuse_new(message: str, **_: object) -> Response:
    return _new_form(422, message, request.form.get("name", ""))


def _not_created(exc: Rejected) -> Response:
    return _new_form(exc.status, exc.message, request.form.get("name", ""))


def _join_again(remembered: dict[str, str], **_: object) -> None:
    """A retried creation (its first answer, cookie and all, got lost on the way) joins
    with what that answer gave: the link of the generation the circle was made with, and
    only while that link still opens it. After "Make a new link" the replay leads where
    the old link leads (the circle's 404), and the new key never reaches the session."""
    generation = remembered.get("generation", "")
    if "circle" not in remembered or not generation.isdigit():
        return
    try:
        circle = circle_service.get_circle(remembered["circle"])
    except NotFound:
        return
    key = circle_service.circle_key(circle, int(generation))
    if circle_service.key_matches(circle, key):
        join_circle(circle, key, remembered.get("proof", ""))


@bp.post("/circles")
@idempotent(_refuse_new, replayed=_join_again, scope="new-circle", rejected=_not_created)
def create_circle() -> ResponseReturnValue:
    """Make the circle; this browser holds its link from now on."""
    if not creation_open():
        return _new_form(
            403, _("Only people who know this server's passphrase can make circles here.")
        )
    ratelimit.spend("circle")
    circle = circle_service.create_circle(
        request.form.get("name", ""), request.form.get("passphrase", "")
    )
    proof = circle_service.passphrase_proof(circle)
    join_circle(circle, circle_service.circle_key(circle), proof)
    # Kept sealed with the answer (never sent): what a replay may give back.
    remember(circle=circle.public_id, generation=str(circle.link_generation), proof=proof)
    return redirect(url_for("web.circle_home", circle_id=circle.public_id, welcome=1), 303)


# -- opening the link ----------------------------------------------------------------------


def _linked_circle(circle_id: str, key: str) -> Circle:
    """The circle of a link; a wrong link is the same 404 as no circle."""
    circle = circle_service.get_circle(circle_id)
    if not circle_service.key_matches(circle, key):
        abort(404)
    return circle


def _passphrase_form(circle: Circle, key: str, status: int, message: str | None) -> Response:
    body = render_template("circles/passphrase.html", circle=circle, key=key, message=message)
    return _private(make_response(body, status))


@bp.get("/c/<circle_id>/<key>")
def open_circle(circle_id: str, key: str) -> ResponseReturnValue:
    """The circle link: this browser opens the circle's pages from now on (after its
    passphrase, when it has one)."""
    circle = _linked_circle(circle_id, key)
    if not is_member(circle):
        # Asked once per browser: one that gave the passphrase before goes straight in.
        if circle.passphrase_hash is not None:
            return _passphrase_form(circle, key, 200, None)
        join_circle(circle, key)
    return redirect(url_for("web.circle_home", circle_id=circle.public_id), 303)


@bp.post("/c/<circle_id>/<key>")
def unlock_circle(circle_id: str, key: str) -> ResponseReturnValue:
    """The circle's passphrase, once per browser; guesses are limited per client."""
    circle = _linked_circle(circle_id, key)
    guess = ratelimit.take_guess(
        "circle-passphrase", f"{circle.public_id}:{ratelimit.client_address()}"
    )
    if guess.wait:
        message = ratelimit.wait_message(guess.wait)
        return ratelimit.refused(_passphrase_form(circle, key, 429, message), guess.wait)
    if not circle_service.passphrase_matches(circle, request.form.get("passphrase", "")):
        return _passphrase_form(circle, key, 403, _("That is not the circle's passphrase."))
    ratelimit.was_right(guess)
    join_circle(circle, key, circle_service.passphrase_proof(circle))
    return redirect(url_for("web.circle_home", circle_id=circle.public_id), 303)


# -- the circle's own pages ----------------------------------------------------------------


@bp.get("/circles/<circle_id>")
def circle_home(circle_id: str) -> Response:
    """The circle: start a game, its latest games, its history, how to invite others."""
    circle = load_circle(circle_id)
    page = history.list_games(circle.id, history.GameFilter(), 1, per_page=RECENT)
    body = render_template(
        "circles/home.html",
        circle=circle,
        games=page.games,
        more=page.has_next,
        link=circle_url(circle),
        api_token=circle_service.api_token(circle),
        welcome=request.args.get("welcome") == "1",
    )
    return _private(make_response(body))


@bp.get("/circles/<circle_id>/qr.svg")
def circle_qr(circle_id: str) -> Response:
    """The QR code of the circle link (for members, never cached)."""
    circle = load_circle(circle_id)
    return _private(Response(qr_image(circle_url(circle)), mimetype="image/svg+xml"))


def _member(circle_id: str, **_: object) -> None:
    load_circle(circle_id)


def _refuse_settings(message: str, circle_id: str) -> ResponseReturnValue:
    flash(message)
    return redirect(url_for("web.circle_home", circle_id=circle_id), 303)


def _settings_rejected(exc: Rejected, circle_id: str) -> ResponseReturnValue:
    return _refuse_settings(exc.message, circle_id)


@bp.post("/circles/<circle_id>/settings")
@idempotent(_refuse_settings, authorize=_member, scope="circle", rejected=_settings_rejected)
def circle_settings(circle_id: str) -> ResponseReturnValue:
    """Rename the circle, set or clear its passphrase, or make a new link."""
    circle = load_circle(circle_id)
    action = request.form.get("do", "")
    if action == "rename":
        circle_service.rename_circle(circle, request.form.get("name", ""))
        flash(_("The circle is called %(name)s now.", name=circle.name))
    elif action == "passphrase":
        circle_service.set_passphrase(circle, request.form.get("passphrase", ""))
        flash(
            _("The circle asks for its passphrase now.")
            if circle.passphrase_hash
            else _("The circle asks for no passphrase now.")
        )
    elif action == "new-link":
        circle_service.new_link(circle)
        flash(_("New link made: the old one no longer opens the circle."))
    else:
        abort(400)
    # This browser keeps its way in with the new link or passphrase.
    join_circle(circle, circle_service.circle_key(circle), circle_service.passphrase_proof(circle))
    return redirect(url_for("web.circle_home", circle_id=circle.public_id), 303)


@bp.post("/circles/<circle_id>/forget")
def forget(circle_id: str) -> BaseResponse:
    """This phone forgets the circle (it needs the link again to open it). A circle this
    phone never held is the same 404 as every other circle page."""
    if not holds_circle(circle_id):
        abort(404)
    forget_circle(circle_id)
    flash(_("This phone has forgotten the circle."))
    return redirect(url_for("web.home"), 303)
