"""Command line: ``flask --app scorekeeper export FILE`` and ``import FILE`` (backups by cron)."""

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

from scorekeeper import i18n
from scorekeeper.i18n import _
from scorekeeper.services import stats, transfer
from scorekeeper.services.errors import Rejected

P = ParamSpec("P")
T = TypeVar("T")


def in_shell_language(command: Callable[P, T]) -> Callable[P, T]:
    """Run ``command`` in the shell's language (``LANG=de_DE.UTF-8``: German)."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        with i18n.language(i18n.shell_language()):
            return command(*args, **kwargs)

    return wrapper


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@with_appcontext
@in_shell_language
def export_command(file: str) -> None:
    """Write the whole history (every game) as one JSON file; "-" writes to stdout."""
    text = transfer.history_json()
    if file == "-":
        click.echo(text, nl=False)
        return
    # Write beside the target and rename: a crash never leaves half a backup behind.
    target = Path(file)
    fd, tmp = tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    click.echo(_("Exported to %(file)s.", file=file), err=True)


@click.command("import")
@click.argument("file", type=click.File("rb"))
@with_appcontext
@in_shell_language
def import_command(file: BinaryIO) -> None:
    """Restore games from a history file. Nothing is stored when the file is bad."""
    try:
        result = transfer.import_history(file.read())
    except Rejected as exc:
        click.echo(_("Import refused, nothing stored: %(reason)s", reason=exc.message), err=True)
        raise SystemExit(1) from None
    click.echo(str(result), err=True)


@click.command("rebuild-stats")
@with_appcontext
@in_shell_language
def rebuild_stats_command() -> None:
    """Recompute the statistics' summaries from every stored round (after an upgrade)."""
    click.echo(_("Statistics rebuilt from %(count)s games.", count=stats.rebuild()), err=True)


def init_app(app: Flask) -> None:
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(rebuild_stats_command)
