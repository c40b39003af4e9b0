"""History pages: the games list, players and their statistics, records, export and import.

Renames, merges and imports carry an idempotency key in their form: sent again (a double
tap, a resend after a timeout), they change nothing twice and answer as the first time.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Response, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.i18n import _, _l
from scorekeeper.idempotency import idempotent
from scorekeeper.services import games as game_service
from scorekeeper.services import history, roster, stats, transfer
from scorekeeper.services.errors import NotFound, Rejected
from scorekeeper.web import bp

RULE_NAMES = {
    "none": _l("no dealer rule"),
    "plus_minus_one": _l("plus/minus one"),
    "canadian": _l("Canadian rule"),
    "full": _l("full game"),
    "short": _l("short game"),
    "unicoloured": _l("unicoloured"),
}


def _page() -> int:
    raw = request.args.get("page", "1")
    return int(raw) if raw.isdecimal() and int(raw) > 0 else 1


@bp.get("/games")
def games_list() -> str:
    """Every game, newest first, paged and filtered."""
    flt = history.GameFilter.from_args(request.args.to_dict())
    page = history.list_games(flt, _page())
    return render_template(
        "history/games.html",
        page=page,
        flt=flt,
        args=flt.args(),
        players=history.player_choices(),
        rule_names=RULE_NAMES,
        dealer_rules=history.DEALER_RULES,
        round_plans=history.ROUND_PLANS,
    )


@bp.get("/players")
def players_list() -> str:
    """Every player with games, wins and exact-bid rate."""
    return render_template("history/players.html", players=stats.player_lines())


def _player_page(player_id: int, error: str | None = None, status: int = 200) -> tuple[str, int]:
    try:
        data = stats.player_stats(player_id)
    except NotFound:
        abort(404)
    others = [(pid, name) for pid, name in history.player_choices() if pid != player_id]
    html = render_template("history/player.html", s=data, others=others, error=error)
    return html, status


@bp.get("/players/<int:player_id>")
def player_page(player_id: int) -> tuple[str, int]:
    """A player's statistics and head-to-head record."""
    return _player_page(player_id)


def _refuse_on_player(message: str, player_id: int) -> tuple[str, int]:
    """A request refused before it was looked at (a reused idempotency key): 422."""
    return _player_page(player_id, message, 422)


@bp.post("/players/<int:player_id>/rename")
@idempotent(_refuse_on_player, scope="players")
def player_rename(player_id: int) -> BaseResponse | tuple[str, int]:
    """Give the player a new name."""
    try:
        player = roster.rename_player(player_id, request.form.get("name", ""))
    except NotFound:
        abort(404)
    except Rejected as exc:
        return _player_page(player_id, exc.message, 422)
    flash(_("Renamed to %(name)s.", name=player.name))
    return redirect(url_for("web.player_page", player_id=player_id), 303)


@bp.post("/players/<int:player_id>/merge")
@idempotent(_refuse_on_player, scope="players")
def player_merge(player_id: int) -> BaseResponse | tuple[str, int]:
    """Merge another name into this player (their games move here)."""
    other = request.form.get("other", "")
    if not other.isdecimal():
        return _player_page(player_id, _("Choose the name to merge into this player."), 422)
    try:
        player = roster.merge_players(player_id, int(other))
    except NotFound:
        abort(404)
    except Rejected as exc:
        return _player_page(player_id, exc.message, 422)
    flash(_("Merged: all those games are now %(name)s's.", name=player.name))
    return redirect(url_for("web.player_page", player_id=player_id), 303)


@bp.get("/records")
def records_page() -> str:
    """The best of all games."""
    return render_template("history/records.html", records=stats.records())


@bp.get("/export")
def transfer_page() -> str:
    """Export & import: the backup download and the restore form."""
    return render_template("history/transfer.html", error=None)


def _download(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.get("/export/history.json")
def history_download() -> Response:
    """The whole history as one JSON file."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    body = transfer.history_json(reveal_open_bids=False)
    return _download(body, "application/json", f"scorekeeper-history-{stamp}.json")


def _refuse_import(message: str) -> tuple[str, int]:
    return render_template("history/transfer.html", error=message), 422


@bp.post("/import")
@idempotent(_refuse_import, scope="import")
def history_upload() -> BaseResponse | tuple[str, int]:
    """Restore games from an uploaded history file; a bad file stores nothing."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return render_template("history/transfer.html", error=_("Choose a file to import.")), 422
    try:
        result = transfer.import_history(upload.read())
    except Rejected as exc:
        return render_template("history/transfer.html", error=exc.message), 422
    flash(str(result))
    return redirect(url_for("web.games_list"), 303)


def _game(public_id: str) -> game_service.Game:
    try:
        return game_service.get_game(public_id)
    except NotFound:
        abort(404)


@bp.get("/games/<public_id>/export.json")
def game_export_json(public_id: str) -> Response:
    """One game as JSON."""
    body = transfer.game_json(_game(public_id))
    return _download(body, "application/json", f"wizard-{public_id}.json")


@bp.get("/games/<public_id>/export.csv")
def game_export_csv(public_id: str) -> Response:
    """One game's rounds as CSV."""
    body = transfer.game_csv(_game(public_id))
    return _download(body, "text/csv", f"wizard-{public_id}.csv")
