"""Command line: ``flask --app scorekeeper export FILE`` and ``import FILE`` (backups by cron),
``circles`` (the server's circles and their links, for its owner)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import BinaryIO, ParamSpec, TypeVar

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper import i18n, transaction
from scorekeeper.i18n import _
from scorekeeper.models import Circle
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from scorekeeper.services import stats, transfer
from scorekeeper.services.errors import NotFound, Rejected

P = ParamSpec("P")
T = TypeVar("T")


def in_shell_language(command: Callable[P, T]) -> Callable[P, T]:
    """Run ``command`` in the shell's language (``LANG=de_DE.UTF-8``: German)."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        with i18n.language(i18n.shell_language()):
            return command(*args, **kwargs)

    return wrapper


def _circle_option(public_id: str | None) -> Circle | None:
    if public_id is None:
        return None
    try:
        return circle_service.get_circle(public_id)
    except NotFound as exc:
        raise click.BadParameter(exc.message, param_hint="--circle") from None


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--circle", "circle_id", help="Only this circle's games (its id).")
@with_appcontext
@in_shell_language
def export_command(file: str, circle_id: str | None) -> None:
    """Write the whole history (every game of every circle, and the one-off games) or one
    circle's as one JSON file; "-" writes to stdout."""
    circle = _circle_option(circle_id)
    chunks = transfer.history_chunks(circle.id if circle else None, reveal_open_bids=True)
    if file == "-":
        for chunk in chunks:
            click.echo(chunk, nl=False)
        return
    # Write beside the target and rename: a crash never leaves half a backup behind.
    target = Path(file)
    fd, tmp = tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for chunk in chunks:
                f.write(chunk)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    click.echo(_("Exported to %(file)s.", file=file), err=True)


@click.command("import")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--circle",
    "circle_id",
    help="The circle the games go into (its id; see `flask circles`). Without it: the "
    "server's only circle, or a new one when there is none.",
)
@with_appcontext
@in_shell_language
def import_command(file: BinaryIO, circle_id: str | None) -> None:
    """Restore games from a history file into a circle. Nothing is stored when the file
    is bad."""
    circle = _circle_option(circle_id)
    if circle is None:
        existing = circle_service.all_circles()
        if len(existing) > 1:
            raise click.UsageError(
                _("This server has several circles: name one with --circle (see `flask circles`).")
            )
        if existing:
            circle = existing[0][0]
        else:
            # A transaction of its own: the import's may be rolled back and tried again.
            with transaction.atomic():
                circle = circle_service.create_circle(_("Our games"))
    try:
        with transaction.atomic():
            result = transfer.import_history(file.read(), circle.id)
    except Rejected as exc:
        click.echo(_("Import refused, nothing stored: %(reason)s", reason=exc.message), err=True)
        raise SystemExit(1) from None
    click.echo(str(result), err=True)


@click.command("rebuild-stats")
@with_appcontext
@in_shell_language
def rebuild_stats_command() -> None:
    """Recompute the statistics' summaries from every stored round (after an upgrade)."""
    with transaction.atomic():
        counted = stats.rebuild(game_service.sheet_of)
    click.echo(_("Statistics rebuilt from %(count)s games.", count=counted), err=True)


@click.command("circles")
@click.option("--url", default="", help="The server's address, e.g. https://scores.example.org")
@click.option("--new", "new_name", help="Make a circle of this name first.")
@with_appcontext
@in_shell_language
def circles_command(url: str, new_name: str | None) -> None:
    """List the circles with their number of games and their links (the links are
    secrets: whoever holds one opens the circle)."""
    if new_name is not None:
        try:
            with transaction.atomic():
                circle_service.create_circle(new_name)
        except Rejected as exc:
            raise click.BadParameter(exc.message, param_hint="--new") from None
    base = url.rstrip("/")
    rows = circle_service.all_circles()
    if not rows:
        click.echo(_("No circles yet."), err=True)
    for circle, games in rows:
        link = f"{base}/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        click.echo(f"{circle.public_id}\t{games}\t{circle.name}\t{link}")


def init_app(app: Flask) -> None:
    app.cli.add_command(circles_command)
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(rebuild_stats_command)
