"""The game page (the Scorepad of Truth), its live updates, and recording rounds on it.

Every change is a POST: with htmx it answers the entry panel plus the parts of the page
that changed (out of band); without JavaScript it redirects back to the page. A rule
broken answers 422 with the same fragments and the reason; nothing is stored then.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import i18n, limits, live, transaction
from scorekeeper.idempotency import idempotent
from scorekeeper.models import Game
from scorekeeper.services import circles as circle_service
from scorekeeper.services import digital as digital_service
from scorekeeper.services import games as game_service
from scorekeeper.services import pagecache
from scorekeeper.services import pages as page_service
from scorekeeper.services.errors import Rejected
from scorekeeper.services.padview import offline_plan, pad_view, trump_options
from scorekeeper.web import bp, cached, picture, takeback
from scorekeeper.web.access import (
    grant_scorer,
    is_htmx,
    is_member_of,
    is_scorer,
    load_game,
    member_circles,
    member_circles_held,
    qr_image,
    require_scorer,
    scorer_token,
    scores,
)

# -- rendering ------------------------------------------------------------------------------


def _context(game: Game, **extra: Any) -> dict[str, Any]:
    pad = pad_view(game)
    scorer = scores(game)
    member = is_member_of(game.circle_id)
    # The scorer's page leaves its Log and More tabs out, loaded when opened (game_part);
    # asked for whole (``all=1``, the tabs' links without JavaScript), it has them.
    lazy = scorer and not is_htmx() and request.args.get("all") != "1"
    view_url = url_for("web.game", public_id=game.public_id, _external=True)
    context: dict[str, Any] = {
        "game": game,
        "pad": pad,
        "scorer": scorer,
        # A member of the game's circle sees the circle and may take over scoring.
        "circle": circle_service.game_circle(game) if member else None,
        "one_off": game.circle_id is None,
        "welcome": request.args.get("welcome") == "1" and scorer,
        # Only a scorer's page sends anything back: a follower's has no CSRF token, so
        # the page cache can keep it whole (scorekeeper/web/cached.py).
        "csrf_header": scorer,
        # "Undo" right after a tap scored a round: that round, open again.
        "reopen": _reopen_offer(game) if scorer else None,
        # A finished game's next game (Play again), where its phones are led.
        "next_game": game_service.next_game_of(game) if pad.finished else None,
        "trumps": trump_options(pad.rules),
        # A digital game's bots are marked as such on its pad.
        "bots": digital_service.bot_seats(game),
        "view_url": view_url,
        # The game's picture for the group chat saves under this name (web/picture.py).
        "picture_name": picture.file_names(game)[0],
        # (place, seat, total): equal totals share a place (R17), unless the tie-break
        # decided the win.
        "places": pad.places,
        "message": None,
        "editing": None,
        "deleting": None,
        "lazy": lazy,
    }
    # A scorer holds a live token (a take-over makes the old one no scorer's).
    token = scorer_token(game.public_id) if scorer else None
    if token:
        score_url = url_for(
            "web.claim_scorer", public_id=game.public_id, token=token, _external=True
        )
        context.update(score_url=score_url)
    if "log" not in extra:  # a tap's answer leaves the log out: it is not in it
        context["log"] = None if lazy else page_service.change_log(game)
    context.update(extra)
    return context


def _reopen_offer(game: Game) -> int | None:
    """The round "Undo" may open again. The last round's only in the answer to the tap
    that scored it (:func:`_act` flashes its number): once the final standings were
    shown, they come back without it, however long after; the pad corrects the round."""
    number = game_service.reopenable(game)
    if number is None or game.finished_at is None:
        return number
    offered = ("reopen", str(number)) in get_flashed_messages(with_categories=True)
    return number if offered else None


def _page(template: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """The full page, or for htmx the fragment(s) the page includes (Vary: HX-Request)."""
    body = render_template(fragment if is_htmx() else template, **context)
    response = make_response(body, status)
    response.vary.add("HX-Request")
    if context.get("score_url") and context["score_url"] in body:
        # The answer shows the scorer link: no cache anywhere may keep it.
        response.headers["Cache-Control"] = "private, no-store"
    return response


def _game_response(game: Game, status: int = 200, **extra: Any) -> Response:
    return _page("games/game.html", "games/_update.html", status, **_context(game, **extra))


def _back_to_game(game: Game) -> BaseResponse:
    return redirect(url_for("web.game", public_id=game.public_id), 303)


def _act(
    public_id: str,
    change: Callable[[Game], object],
    done: str | None = None,
    draft: bool = False,
) -> ResponseReturnValue:
    """Run one change of a game as its scorer and answer with what changed.

    A refusal answers with the message and the game as stored (status 422, or 409 when
    someone else changed it first: :func:`_rejected`); a round that isn't there answers
    404. A ``draft`` change (a bid or tricks of the open round) only changes the entry
    panel and the open round's row of the pad: when the page said which version it
    showed (so the change proves it was current), the answer is just those two
    (games/_tap.html). A change that returns a round number scored that round: the whole
    game goes back.
    """
    game = load_game(public_id)
    require_scorer(game)
    scored = change(game)
    if done:
        flash(done)
    if scored is not None and game.finished_at is not None:
        flash(str(scored), "reopen")  # the last round: Undo with this answer only
    if not is_htmx():
        return _back_to_game(game)
    if draft and scored is None and _version() is not None:
        return _page("games/game.html", "games/_tap.html", **_context(game, log=None))
    response = _game_response(game)
    if scored is not None and is_htmx():
        # A round is scored: the page shows its top, the new standings (over the pad, or
        # in a line over the round on a phone held upright) and the next round's panel,
        # wherever the scorer had scrolled to.
        response.headers["HX-Reswap"] = "outerHTML show:window:top"
    return response


def _refuse(message: str, public_id: str, **_: object) -> Response:
    """A request refused before it was looked at (a reused idempotency key): 422."""
    return _game_response(load_game(public_id), 422, message=message)


def _rejected(exc: Rejected, public_id: str, **_: object) -> Response:
    """A change refused (422, or 409 when someone else changed the game first): the
    message, with the game as stored."""
    return _game_response(load_game(public_id), exc.status, message=exc.message)


def _writes(rejected: Callable[..., ResponseReturnValue]) -> Callable[..., Any]:
    """A change of a game by its scorer, answered on refusal by ``rejected``.

    Every change carries an idempotency key: app.js sends one per tap as a header, and
    each rendered form holds one for phones without JavaScript. A retry answers as the
    first request did and records nothing twice.
    """
    return idempotent(
        _refuse,
        authorize=lambda public_id, **_: require_scorer(load_game(public_id)),
        rejected=rejected,
        checked=True,  # every change ends in finish(): checked against the game's version
    )


write = _writes(_rejected)


@bp.app_template_global("idempotency_key")
def new_idempotency_key() -> str:
    """A fresh key for a form that changes something."""
    return secrets.token_urlsafe(16)


def _form_int(name: str, blank: object = "") -> Any:
    """A number from the form; anything else (``--1``, 5,000 digits) goes on as text for
    the service to refuse (``blank`` stands for an empty field: a V6 dealer's missing bid
    in a correction)."""
    value = request.form.get(name, "").strip()
    number = limits.whole_number(value)
    if number is not None:
        return number
    return blank if value in ("", "–") else value


def _version() -> int | None:
    """The game version the page was showing: a change made meanwhile is a 409."""
    return request.form.get("v", type=int)


# -- viewing --------------------------------------------------------------------------------


def _kept(public_id: str, kind: str, version: int | None = None) -> Response:
    """The game page (``kind`` "page") or its update fragment ("update") from the page
    cache: rendered once per game version for all who see it the same way (``version``:
    the game's, when just read)."""
    scorer = is_scorer(public_id)
    token = scorer_token(public_id) if scorer else None
    role = ("scorer+link" if token else "scorer") if scorer else "viewer"
    if _member_of_game(public_id):
        role += "+member"
    template = "games/game.html" if kind == "page" else "games/_update.html"
    if token:
        # A page with the scorer link is never kept (the database holds the scorer's
        # secret only as a hash): rendered each time.
        game = load_game(public_id)
        return _page(template, template, **_context(game))

    def render(overrides: dict[str, object]) -> tuple[str, Game]:
        game = load_game(public_id)
        return render_template(template, **_context(game, **overrides)), game

    return cached.page(
        public_id, kind, role, render, new_idempotency_key, secret=token, version=version
    )


def _member_of_game(public_id: str) -> bool:
    """Whether this browser holds the link of the game's circle (no query without one)."""
    if not member_circles_held():
        return False
    return is_member_of(game_service.circle_of(public_id))


@bp.get("/games/<public_id>", endpoint="game")
def show_game(public_id: str) -> Response:
    """The game page: entry panel (scorer) or status, the pad, rules, change log, sharing."""
    if not is_htmx() and not request.query_string and cached.usable():
        response = _kept(public_id, "page")
    else:
        response = _page("games/game.html", "games/_update.html", **_context(load_game(public_id)))
    if not is_htmx() and is_scorer(public_id):
        # The service worker keeps the scorer's own page on this phone, to open it again
        # without a connection (static/js/sw.js); nobody else's page is kept.
        response.headers["X-Offline-Copy"] = "keep"
    return response


def _deleted_for_followers() -> Response:
    """A following phone's answer once the game is deleted: the entry panel says so, and
    the status 286 tells the page to stop following (static/js/live.js)."""
    html = render_template(
        "_notice.html",
        target="entry",
        title=i18n._("This game was deleted"),
        detail=i18n._(
            "Its scorer or someone in its circle deleted it. If it is brought back, "
            "reload the page."
        ),
    )
    response = make_response(html, 286)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<public_id>/live")
def game_live(public_id: str) -> ResponseReturnValue:
    """Asked by a following page when its live channel says the game moved on (or every
    5 s without the channel): 204 while the game is at version ``v``, else what changed."""
    state = pagecache.current_state(public_id)  # the version and deletion, one lookup
    if state is None:
        abort(404)
    version, deleted = state
    if request.args.get("v", type=int) == version:
        response = make_response("", 204)
        response.headers["Cache-Control"] = "no-store"
        return response
    if not is_htmx():
        return _back_to_game(load_game(public_id))
    if deleted:
        return _deleted_for_followers()
    if cached.usable():
        response = _kept(public_id, "update", version)
    else:
        response = _game_response(load_game(public_id))
    response.headers.setdefault("Cache-Control", "no-store")  # or "private, no-store"
    return response


@bp.get("/games/<public_id>/events")
def game_events(public_id: str) -> Response:
    """The live channel (server-sent events): the game's version now and at each change;
    ``v`` is the version the page shows."""
    seen = limits.whole_number(request.args.get("v"))
    if seen is None or seen < 0:
        abort(400)  # the page always says which version it shows
    version = game_service.version_of(public_id)
    if version is None:
        abort(404)
    return live.stream(current_app, request.environ, public_id, version)


@bp.get("/games/<public_id>/qr.svg")
def view_qr(public_id: str) -> Response:
    """The QR code of the view link, loaded only when "Follow on another phone" opens."""
    game = load_game(public_id)
    image = qr_image(url_for("web.game", public_id=game.public_id, _external=True))
    response = Response(image, mimetype="image/svg+xml")
    # The browser may keep it (its URL names the game); a shared cache must not: the code
    # encodes the host and forwarded prefix it was asked at, which its URL does not show.
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/games/<public_id>/score-qr.svg")
def score_qr(public_id: str) -> Response:
    """The QR code of the scorer link, for the browser that holds it (never cached)."""
    game = load_game(public_id)
    require_scorer(game)
    token = scorer_token(game.public_id)
    if token is None:
        abort(404)
    url = url_for("web.claim_scorer", public_id=game.public_id, token=token, _external=True)
    response = Response(qr_image(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/games/<public_id>/plan.json")
def game_plan(public_id: str) -> Response:
    """Every round of the game as the engine's data, for the scorer's page to go on
    entering rounds without a connection (static/js/offline.js)."""
    game = load_game(public_id)
    require_scorer(game)
    data = offline_plan(game)
    data["urls"] = {
        action: url_for(f"web.{endpoint}", public_id=game.public_id)
        for action, endpoint in (
            ("bid", "enter_bid"),
            ("tricks", "enter_tricks"),
            ("rest", "rest_as_bid"),
            ("missed", "only_one_missed"),
        )
    }
    response = jsonify(data)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


# The parts of the scorer's page loaded when their tab first opens (app.js).
_PARTS = {"log": "games/_log.html", "more": "games/_more.html"}


@bp.get("/games/<public_id>/log", defaults={"part": "log"})
@bp.get("/games/<public_id>/more", defaults={"part": "more"})
def game_part(public_id: str, part: str) -> ResponseReturnValue:
    """The Log or More tab's part of the game page; without htmx, the whole page at it."""
    game = load_game(public_id)
    if not is_htmx():
        target = url_for("web.game", public_id=game.public_id, all=1, _anchor=f"{part}-view")
        return redirect(target, 303)
    extra: dict[str, Any] = {} if part == "log" else {"log": None}  # More shows no log
    return _page(_PARTS[part], _PARTS[part], **_context(game, **extra))


@bp.get("/games/<public_id>/panel")
def entry_panel(public_id: str) -> Response:
    """The entry panel again (e.g. after cancelling a correction)."""
    return _game_response(load_game(public_id))


@bp.get("/games/<public_id>/score/<token>")
def claim_scorer(public_id: str, token: str) -> ResponseReturnValue:
    """The scorer link: this browser may change the game from now on."""
    game = load_game(public_id)
    if not game_service.token_matches(game, token):
        body = render_template(
            "error.html",
            status=403,
            title=i18n._("This scorer link doesn't work"),
            detail=i18n._(
                "The link is not this game's scorer link. Ask the scorer to share it "
                "again, or follow the game read-only."
            ),
            back=url_for("web.game", public_id=public_id),
        )
        return make_response(body, 403)
    grant_scorer(game.public_id, token)
    return _back_to_game(game)


# -- recording a round, tap by tap ----------------------------------------------------------


@bp.post("/games/<public_id>/trump")
@write
def set_trump(public_id: str) -> ResponseReturnValue:
    """Record (or clear) the open round's trump."""
    trump = request.form.get("trump", "")
    # The trump shows on the pad's row of the open round too: the whole answer.
    return _act(public_id, lambda g: game_service.set_draft_trump(g, trump, _version()))


@bp.post("/games/<public_id>/bid")
@write
def enter_bid(public_id: str) -> ResponseReturnValue:
    """One player's bid."""
    # The form is read once the scorer is known: a stranger gets 403 whatever they sent.
    return _act(
        public_id,
        lambda g: game_service.set_bid(g, _form_int("seat"), _form_int("bid"), _version()),
        draft=True,
    )


@bp.post("/games/<public_id>/tricks")
@write
def enter_tricks(public_id: str) -> ResponseReturnValue:
    """One player's tricks, in any order; forced counts fill themselves in, and the
    round is scored once every count is in."""
    return _act(
        public_id,
        lambda g: game_service.set_tricks(g, _form_int("seat"), _form_int("tricks"), _version()),
        draft=True,
    )


@bp.post("/games/<public_id>/tricks/rest")
@write
def rest_as_bid(public_id: str) -> ResponseReturnValue:
    """Everyone whose count is missing took what they bid: filled in, round scored."""
    return _act(public_id, lambda g: game_service.rest_as_bid(g, _version()), draft=True)


@bp.post("/games/<public_id>/tricks/missed")
@write
def only_one_missed(public_id: str) -> ResponseReturnValue:
    """One player alone missed their bid: the rest as bid, theirs what is left."""
    return _act(
        public_id,
        lambda g: game_service.only_one_missed(g, _form_int("seat"), _version()),
        draft=True,
    )


@bp.post("/games/<public_id>/reopen")
@write
def reopen(public_id: str) -> ResponseReturnValue:
    """Undo the tap that scored a round: the round is open again without that count."""
    return _act(public_id, lambda g: game_service.reopen_round(g, _form_int("round"), _version()))


@bp.post("/games/<public_id>/clear")
@write
def clear_entry(public_id: str) -> ResponseReturnValue:
    """Take back a bid ("bid:2") or a trick count ("tricks:0"), that one alone, or with
    "undo" one step back down the round's moves; the answer offers to put it back
    ("Undo")."""
    return _act(public_id, _take_back, draft=True)


def _take_back(game: Game) -> None:
    clear = request.form.get("clear", "")
    if clear == "undo":
        taken = game_service.undo_move(game, _version())
    else:
        kind, _, arg = clear.partition(":")
        number = limits.whole_number(arg)
        seat: Any = arg if number is None else number
        taken = game_service.take_back(game, kind, seat, _version())
    if not taken.values:
        return
    name = game_service.names_of(game)[min(taken.values)]  # one player's entry
    if taken.kind == "bid":
        text = i18n._("%(name)s's bid is taken back.", name=name)
    else:
        text = i18n._("%(name)s's tricks are taken back.", name=name)
    token = takeback.seal(
        game.public_id, takeback.TakenBack(taken.kind, taken.values, game.version)
    )
    # Shown once with the answer (or the page a phone without JavaScript goes back to):
    # the note, and the seal its "Undo" sends back.
    flash(text, "take-back")
    flash(token, "take-back-seal")


@bp.post("/games/<public_id>/put-back")
@write
def put_back(public_id: str) -> ResponseReturnValue:
    """Undo a take-back: what it took back goes back where it was, checked again."""
    return _act(public_id, _put_back, draft=True)


def _put_back(game: Game) -> int | None:
    taken = takeback.unseal(request.form.get("taken", ""), game.public_id)
    if taken is None:
        raise Rejected(i18n._("There is nothing to put back."), "nothing_to_put_back")
    return game_service.put_back(game, taken.kind, taken.values, taken.version)


@bp.post("/games/<public_id>/confirm")
@write
def confirm(public_id: str) -> ResponseReturnValue:
    """Score a round whose counts are all in (one reopened by an older page)."""
    return _act(public_id, lambda g: game_service.confirm_round(g, _version()))


# -- correcting and deleting rounds ---------------------------------------------------------


def _completed_round(game: Game, number: int) -> int:
    """Only rounds already scored are corrected with the form; the open one is changed
    on the panel (its bids may still be hidden or secret)."""
    rnd = next((r for r in game.rounds if r.number == number), None)
    if rnd is None or not rnd.complete:
        abort(404)
    return number


def _edit_response(game: Game, number: int, status: int = 200, **extra: Any) -> Response:
    pad = pad_view(game)
    context = {
        **_context(game),
        "editing": pad.rows[number - 1],
        "is_last": number == len(game.rounds),
        **extra,
    }
    return _page("games/game.html", "games/_update.html", status, **context)


@bp.get("/games/<public_id>/rounds/<int:number>/edit")
def edit_round(public_id: str, number: int) -> Response:
    """The correction form of a scored round."""
    game = load_game(public_id)
    require_scorer(game)
    return _edit_response(game, _completed_round(game, number))


def _correction_sent(game: Game) -> dict[str, Any]:
    """The correction form's bids, tricks and trump as sent."""
    n = game.player_count
    return {
        "bids": [_form_int(f"bid{s}", blank=None) for s in range(n)],
        "tricks": [_form_int(f"tricks{s}") for s in range(n)],
        "trump": request.form.get("trump", ""),
    }


def _correction_rejected(exc: Rejected, public_id: str, number: int) -> Response:
    """The correction form again as it was sent, with the reason."""
    game = load_game(public_id)
    sent = _correction_sent(game)
    return _edit_response(game, number, exc.status, message=exc.message, sent=sent)


@bp.post("/games/<public_id>/rounds/<int:number>")
@_writes(_correction_rejected)
def correct_round(public_id: str, number: int) -> ResponseReturnValue:
    """Correct a scored round: the rule set checks it with the totals before it (P2)."""
    game = load_game(public_id)
    require_scorer(game)
    _completed_round(game, number)
    version = game.version
    game_service.update_round(game, number, **_correction_sent(game), version=_version())
    changed = game.version != version
    flash(
        i18n._("Round %(number)s corrected.", number=number)
        if changed
        else i18n._("Round %(number)s: nothing changed.", number=number)
    )
    if not is_htmx():
        return _back_to_game(game)
    return _game_response(game)


def _points() -> object:
    """The points of a bonus or penalty: the number typed (a minus sign read too), made a
    penalty or a bonus by the button pressed; anything else goes on for the engine to
    refuse."""
    raw = request.form.get("points", "").strip().replace("−", "-")
    number = limits.whole_number(raw.removeprefix("-").removeprefix("+"))
    if number is None:
        return raw
    sign = request.form.get("sign", "")
    if sign == "penalty":
        return -number
    if sign == "bonus":
        return number
    return -number if raw.startswith("-") else number


def _adjust(public_id: str, number: int, change: Callable[[Game], str]) -> ResponseReturnValue:
    """A bonus or penalty given or taken back: the page goes back to the round being
    entered (or the final standings), with the note ``change`` returns and the pad and
    standings as they now stand (refused: :func:`_adjust_rejected`, on the correction
    panel)."""
    game = load_game(public_id)
    require_scorer(game)
    _completed_round(game, number)
    flash(change(game), "adjusted")
    if not is_htmx():
        return _back_to_game(game)
    return _game_response(game)


def _adjust_rejected(exc: Rejected, public_id: str, number: int, **_: object) -> Response:
    """A bonus or penalty refused: the correction panel says why, with the form as sent
    (nothing stored)."""
    sent = {"seat": request.form.get("seat", ""), "points": request.form.get("points", "")}
    sent["reason"] = request.form.get("reason", "")
    return _edit_response(
        load_game(public_id), number, exc.status, message=exc.message, adjust_sent=sent
    )


def _adjustment_facts(game: Game, number: int, given: dict[str, Any]) -> dict[str, object]:
    """What a note about a bonus or penalty names: the round, the points, the player."""
    name = game_service.names_of(game)[given["seat"]]
    return {"number": number, "points": i18n.signed(given["points"]), "name": name}


@bp.post("/games/<public_id>/rounds/<int:number>/adjust")
@_writes(_adjust_rejected)
def add_adjustment(public_id: str, number: int) -> ResponseReturnValue:
    """A one-off bonus or penalty for a player in a played round."""

    def give(game: Game) -> str:
        seat, reason = _form_int("seat"), request.form.get("reason", "")
        index = game_service.add_adjustment(game, number, seat, _points(), reason, _version())
        # The note's "Undo" takes this one back.
        undo = url_for("web.remove_adjustment", public_id=public_id, number=number, index=index)
        flash(undo, "adjusted-undo")
        played = next(r for r in game.rounds if r.number == number)
        given = (played.adjustments or [])[index]
        facts = _adjustment_facts(game, number, given)
        if given["reason"]:
            return i18n._(
                "Round %(number)s: %(points)s for %(name)s (%(reason)s).",
                **facts,
                reason=given["reason"],
            )
        return i18n._("Round %(number)s: %(points)s for %(name)s.", **facts)

    return _adjust(public_id, number, give)


@bp.post("/games/<public_id>/rounds/<int:number>/adjust/<int:index>/remove")
@_writes(_adjust_rejected)
def remove_adjustment(public_id: str, number: int, index: int) -> ResponseReturnValue:
    """Take a bonus or penalty back."""

    def take_back(game: Game) -> str:
        gone = game_service.remove_adjustment(game, number, index, _version())
        facts = _adjustment_facts(game, number, gone)
        return i18n._("Round %(number)s: %(points)s for %(name)s taken back.", **facts)

    return _adjust(public_id, number, take_back)


@bp.get("/games/<public_id>/rounds/<int:number>/delete")
def delete_round_confirm(public_id: str, number: int) -> Response:
    """Ask before deleting the last round."""
    game = load_game(public_id)
    require_scorer(game)
    if not game.rounds or game.rounds[-1].number != number:
        abort(404)
    return _page("games/game.html", "games/_update.html", **_context(game, deleting=number))


@bp.post("/games/<public_id>/rounds/<int:number>/delete")
@write
def delete_round(public_id: str, number: int) -> ResponseReturnValue:
    """Delete the last round (the change log keeps it)."""
    return _act(
        public_id,
        lambda g: game_service.delete_last_round(g, number, _version()),
        done=i18n._("Round %(number)s deleted.", number=number),
    )


# -- circles: taking over the scoring, moving a one-off game in ----------------------------


@bp.post("/games/<public_id>/take-over")
@transaction.write()
def take_over(public_id: str) -> ResponseReturnValue:
    """A member of the game's circle keeps score on this phone from now on (the old
    scorer link stops working; the change log says so)."""
    game = load_game(public_id)
    if not is_member_of(game.circle_id):
        abort(403)
    token = game_service.new_scorer_token(game)
    grant_scorer(game.public_id, token)
    flash(i18n._("You keep score of this game on this phone now."))
    return _back_to_game(game)


@bp.get("/games/<public_id>/move")
def move_form(public_id: str) -> str:
    """Choose the circle a one-off game joins (the scorer, among this phone's circles)."""
    game = load_game(public_id)
    require_scorer(game)
    if game.circle_id is not None:
        abort(404)
    return render_template(
        "games/move.html", game=game, names=game_service.names_of(game), circles=member_circles()
    )


def _move_refused(message: str, public_id: str, status: int = 422) -> Response:
    """The choice of circle again, with why the game was not moved (422, or the
    refusal's own status)."""
    game = load_game(public_id)
    body = render_template(
        "games/move.html",
        game=game,
        names=game_service.names_of(game),
        circles=member_circles(),
        message=message,
    )
    return make_response(body, status)


def _move_rejected(exc: Rejected, public_id: str) -> Response:
    return _move_refused(exc.message, public_id, exc.status)


@bp.post("/games/<public_id>/move")
@transaction.write(_move_rejected)
def move_game(public_id: str) -> ResponseReturnValue:
    """Move a one-off game into one of this phone's circles."""
    game = load_game(public_id)
    require_scorer(game)
    target = request.form.get("circle", "")
    circle = next((c for c in member_circles() if c.public_id == target), None)
    if circle is None:
        return _move_refused(i18n._("Choose one of your circles."), public_id)
    circle_service.move_game(game, circle)
    flash(i18n._("The game is in %(circle)s now.", circle=circle.name))
    return _back_to_game(game)
