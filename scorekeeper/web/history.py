"""A circle's history pages: its games list, players and their statistics, records,
export and import. Each needs the circle's link (held by this browser); to anyone else
they are the same 404 as a circle that does not exist.

Renames, merges and imports carry an idempotency key in their form: sent again (a double
tap, a resend after a timeout), they change nothing twice and answer as the first time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from flask import (
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import ratelimit
from scorekeeper.i18n import _, _l
from scorekeeper.idempotency import idempotent
from scorekeeper.models import Game
from scorekeeper.services import circles as circle_service
from scorekeeper.services import history, insights, ratings, roster, stats, transfer
from scorekeeper.services.errors import Rejected
from scorekeeper.web import bp
from scorekeeper.web.access import (
    is_htmx,
    is_member_of,
    is_scorer,
    load_circle,
    load_game,
    scored_ids,
    scores,
)

RULE_NAMES = {
    "none": _l("no dealer rule"),
    "plus_minus_one": _l("plus/minus one"),
    "canadian": _l("Canadian rule"),
    "full": _l("full game"),
    "short": _l("short game"),
    "unicoloured": _l("unicoloured"),
}
# The rule options in effect, as the games lists' badges (services.history.badges).
BADGE_NAMES = {
    "plus_minus_one": _l("±1"),
    "canadian": _l("Canadian"),
    "hidden": _l("Hidden bids"),
    "secret": _l("Secret bids"),
    "foresight": _l("Foresight round"),
    "saboteur": _l("Saboteur"),
    "no_full_bid": _l("No full bid"),
    "short": _l("Short game"),
    "unicoloured": _l("Unicoloured"),
    "scoring": _l("Own scoring"),
    "tie_break": _l("Tie-break by bids"),
    "french": _l("French suits"),
}
# Far past any real history; a larger page number is a request to refuse, not to run.
MAX_PAGE = 100_000
MAX_ID = 2**31 - 1
PUBLIC_ID_MAX = 64
# Where a delete or its undo leads back to: the circle's games list, or the home page.
BACK_TO = ("circle", "home")


def _page() -> int:
    raw = request.args.get("page", "1")
    if not raw.isdecimal() or len(raw) > 6 or not 0 < int(raw) <= MAX_PAGE:
        abort(404)
    return int(raw)


def _player_id(player_id: int) -> int:
    if not 0 < player_id <= MAX_ID:
        abort(404)
    return player_id


@bp.get("/games")
@bp.get("/players")
@bp.get("/records")
@bp.get("/export")
def old_history() -> BaseResponse:
    """The history lives in each circle now: the home page lists this phone's circles."""
    return redirect(url_for("web.home"), 303)


def game_lines_context(back: str) -> dict[str, Any]:
    """What templates/history/_game_line.html needs besides the line: the badges' words,
    the Play again endpoint (when the app has it) and where a delete leads back to."""
    again = next(
        (e for e in ("web.play_again", "games.play_again") if e in current_app.view_functions),
        None,
    )
    # The badges' words in the reader's language, looked up once per page.
    badge_names = {key: str(name) for key, name in BADGE_NAMES.items()}
    return {"badge_names": badge_names, "again_endpoint": again, "back": back}


def undo_line(allowed: bool | None = None) -> history.GameLine | None:
    """The game just deleted (``?deleted=<id>``) for the Undo notice, when it is still
    deleted and this browser may bring it back (``allowed``: decided by the page, else
    its scorer or a member of its circle)."""
    public_id = request.args.get("deleted", "")
    if not public_id or len(public_id) > PUBLIC_ID_MAX:
        return None
    line = history.deleted_line(public_id)
    if line is None:
        return None
    if allowed is None:
        allowed = is_scorer(public_id) or is_member_of(line.circle_id)
    return line if allowed else None


@bp.get("/circles/<circle_id>/games")
def games_list(circle_id: str) -> str:
    """The circle's games, newest first, paged and filtered."""
    circle = load_circle(circle_id)
    flt = history.GameFilter.from_args(request.args.to_dict())
    page = history.list_games(circle.id, flt, _page())
    undo = undo_line(allowed=True)
    return render_template(
        "history/games.html",
        circle=circle,
        page=page,
        flt=flt,
        args=flt.args(),
        shown_args={k: v for k, v in flt.args().items() if k != "empty"},
        players=history.player_choices(circle.id),
        rule_names=RULE_NAMES,
        dealer_rules=history.DEALER_RULES,
        round_plans=history.ROUND_PLANS,
        undo=undo if undo is not None and undo.circle_id == circle.id else None,
        scored=scored_ids(),
        **game_lines_context("circle"),
    )


# -- deleting a game, and the undo ----------------------------------------------------------


def _refusal(status: int, title: str, detail: str) -> Response:
    """A refusal in words where the person is looking: with htmx a notice in the
    control's place, else a page with the way home."""
    if is_htmx():
        target = request.headers.get("HX-Target") or "notice"
        body = render_template("_notice.html", target=target, title=title, detail=detail)
    else:
        body = render_template("error.html", status=status, title=title, detail=detail)
    return make_response(body, status)


def _find(public_id: str) -> Game:
    """The game, deleted or not; 404 when there is none."""
    if len(public_id) > PUBLIC_ID_MAX:
        abort(404)
    return history.find_game(public_id)


def may_delete(game: Game | history.GameLine) -> bool:
    """Whether this browser may delete the game (and bring it back): its scorer, or
    someone holding the link of its circle."""
    scorer = scores(game) if isinstance(game, Game) else is_scorer(game.public_id)
    return scorer or is_member_of(game.circle_id)


def _require_table(game: Game) -> None:
    """Refuse (403, in words) a browser that neither scores the game nor holds its
    circle's link; nothing is changed."""
    if not may_delete(game):
        abort(
            _refusal(
                403,
                _("Only the table can delete this game"),
                _(
                    "A game is deleted by whoever keeps its score, or by someone in its "
                    "circle. This phone only follows it: nothing was deleted."
                ),
            )
        )


def _authorize_table(public_id: str, **view_args: object) -> None:
    _require_table(_find(public_id))


def _refuse_table(message: str, **view_args: object) -> Response:
    """The form's idempotency key sent with another request (422)."""
    return _refusal(422, _("Nothing was changed"), message)


def _back(game: Game, **args: str) -> str:
    """Where the delete or undo form was: the game's circle's games list (for a member),
    else the home page; with ``args`` in its query."""
    circle = circle_service.game_circle(game) if request.form.get("back") == "circle" else None
    if circle is not None and is_member_of(circle.id):
        target = url_for("web.games_list", circle_id=circle.public_id)
    else:
        target = url_for("web.home")
    return f"{target}?{urlencode(args)}" if args else target


def _not_deleted(exc: Rejected, **view_args: object) -> Response:
    return _refusal(exc.status, _("Nothing was deleted"), exc.message)


def _not_restored(exc: Rejected, **view_args: object) -> Response:
    return _refusal(exc.status, _("Nothing was brought back"), exc.message)


@bp.post("/games/<public_id>/delete")
@idempotent(_refuse_table, authorize=_authorize_table, rejected=_not_deleted)
def delete_game(public_id: str) -> BaseResponse:
    """Delete the game (it leaves the lists and statistics); the page it leads back to
    offers the Undo. Deleting it again changes nothing and answers the same."""
    game = _find(public_id)
    _require_table(game)
    history.delete_game(game)
    return redirect(_back(game, deleted=game.public_id), 303)


@bp.post("/games/<public_id>/restore")
@idempotent(_refuse_table, authorize=_authorize_table, rejected=_not_restored)
def restore_game(public_id: str) -> BaseResponse:
    """Undo a delete: the game is back in the lists and statistics, as it was."""
    game = _find(public_id)
    _require_table(game)
    restored = history.restore_game(game)
    if restored:
        flash(_("The game is back."))
    else:
        flash(_("This game is not deleted: nothing changed."))
    return redirect(_back(game), 303)


@bp.get("/circles/<circle_id>/players")
def players_list(circle_id: str) -> str:
    """The circle's players with games, wins, exact-bid rate and rating."""
    circle = load_circle(circle_id)
    return render_template(
        "history/players.html",
        circle=circle,
        players=stats.player_lines(circle.id),
        provisional_games=ratings.PROVISIONAL,
    )


def _player_page(
    circle_id: str, player_id: int, error: str | None = None, status: int = 200
) -> tuple[str, int]:
    circle = load_circle(circle_id)
    data = stats.player_stats(_player_id(player_id), circle.id)
    others = roster.merge_choices(circle.id, data.player.id)
    html = render_template(
        "history/player.html",
        circle=circle,
        s=data,
        more=insights.for_player(data),
        others=others,
        error=error,
    )
    return html, status


@bp.get("/circles/<circle_id>/players/<int:player_id>")
def player_page(circle_id: str, player_id: int) -> tuple[str, int]:
    """A player's rating, insights, statistics and head-to-head record."""
    return _player_page(circle_id, player_id)


def _refuse_on_player(message: str, circle_id: str, player_id: int) -> tuple[str, int]:
    """A request refused before it was looked at (a reused idempotency key), or by the
    roster: 422."""
    return _player_page(circle_id, player_id, message, 422)


def _player_rejected(exc: Rejected, circle_id: str, player_id: int) -> tuple[str, int]:
    return _refuse_on_player(exc.message, circle_id, player_id)


def _member(circle_id: str, **_: object) -> None:
    load_circle(circle_id)


@bp.post("/circles/<circle_id>/players/<int:player_id>/rename")
@idempotent(_refuse_on_player, authorize=_member, scope="players", rejected=_player_rejected)
def player_rename(circle_id: str, player_id: int) -> BaseResponse | tuple[str, int]:
    """Give the player a new name."""
    circle = load_circle(circle_id)
    player = roster.rename_player(circle.id, _player_id(player_id), request.form.get("name", ""))
    flash(_("Renamed to %(name)s.", name=player.name))
    return redirect(url_for("web.player_page", circle_id=circle_id, player_id=player_id), 303)


@bp.post("/circles/<circle_id>/players/<int:player_id>/merge")
@idempotent(_refuse_on_player, authorize=_member, scope="players", rejected=_player_rejected)
def player_merge(circle_id: str, player_id: int) -> BaseResponse | tuple[str, int]:
    """Merge another name into this player (their games move here)."""
    circle = load_circle(circle_id)
    other = request.form.get("other", "")
    # Digits only, and no more than an id has: a longer number is refused unread.
    digits = other.isascii() and other.isdecimal() and len(other) <= len(str(MAX_ID))
    chosen = int(other) if digits else 0
    if not 0 < chosen <= MAX_ID:
        return _player_page(
            circle_id, player_id, _("Choose the name to merge into this player."), 422
        )
    player = roster.merge_players(circle.id, _player_id(player_id), chosen)
    flash(_("Merged: all those games are now %(name)s's.", name=player.name))
    return redirect(url_for("web.player_page", circle_id=circle_id, player_id=player_id), 303)


@bp.get("/circles/<circle_id>/records")
def records_page(circle_id: str) -> str:
    """The best of the circle's games, and its highest ratings."""
    circle = load_circle(circle_id)
    return render_template(
        "history/records.html",
        circle=circle,
        records=stats.records(circle.id),
        leaders=ratings.leaders(circle.id),
        provisional_games=ratings.PROVISIONAL,
    )


@bp.get("/circles/<circle_id>/export")
def transfer_page(circle_id: str) -> str:
    """Export & import: the backup download and the restore form."""
    return render_template("history/transfer.html", circle=load_circle(circle_id), error=None)


def _download(body: str, mimetype: str, filename: str) -> Response:
    """A file to save (one game's JSON or CSV)."""
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.get("/circles/<circle_id>/export/history.json")
def history_download(circle_id: str) -> Response:
    """The circle's whole history as one JSON file."""
    circle = load_circle(circle_id)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    # Streamed a few hundred games at a time: the cost of the first byte stays that of
    # one batch, however long the history.
    response = Response(
        transfer.history_chunks(circle.id, reveal_open_bids=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="scorekeeper-history-{stamp}.json"'},
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/circles/<circle_id>/export/ratings.csv")
def ratings_download(circle_id: str) -> Response:
    """The circle's ratings as a spreadsheet (CSV)."""
    circle = load_circle(circle_id)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    response = _download(
        transfer.ratings_csv(circle.id), "text/csv", f"scorekeeper-ratings-{stamp}.csv"
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _refuse_import(message: str, circle_id: str, status: int = 422) -> tuple[str, int]:
    circle = load_circle(circle_id)
    return render_template("history/transfer.html", circle=circle, error=message), status


def _import_rejected(exc: Rejected, circle_id: str) -> tuple[str, int]:
    return _refuse_import(exc.message, circle_id, exc.status)


@bp.post("/circles/<circle_id>/import")
@idempotent(_refuse_import, authorize=_member, scope="import", rejected=_import_rejected)
def history_upload(circle_id: str) -> BaseResponse | tuple[str, int]:
    """Restore games from an uploaded history file into the circle; a bad file stores
    nothing."""
    circle = load_circle(circle_id)
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _refuse_import(_("Choose a file to import."), circle_id)
    ratelimit.check("import")
    result = transfer.import_history(upload.read(), circle.id)
    ratelimit.count("import")  # after: checking the file writes nothing, holds no lock
    flash(str(result))
    return redirect(url_for("web.games_list", circle_id=circle_id), 303)


@bp.get("/games/<public_id>/export.json")
def game_export_json(public_id: str) -> Response:
    """One game as JSON (for whoever holds its view link; the name of its circle only for
    its scorer and the circle's people)."""
    game = load_game(public_id)
    follower = not (scores(game) or is_member_of(game.circle_id))
    body = transfer.game_json(game, follower=follower)
    return _download(body, "application/json", f"wizard-{public_id}.json")


@bp.get("/games/<public_id>/export.csv")
def game_export_csv(public_id: str) -> Response:
    """One game's rounds as CSV."""
    body = transfer.game_csv(load_game(public_id))
    return _download(body, "text/csv", f"wizard-{public_id}.csv")
