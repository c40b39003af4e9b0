"""Command line: ``flask --app scorekeeper export FILE`` and ``import FILE`` (backups by cron)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper.services import stats, transfer
from scorekeeper.services.errors import Rejected


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@with_appcontext
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
    click.echo(f"Exported to {file}.", err=True)


@click.command("import")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(file: BinaryIO) -> None:
    """Restore games from a history file. Nothing is stored when the file is bad."""
    try:
        result = transfer.import_history(file.read())
    except Rejected as exc:
        click.echo(f"Import refused, nothing stored: {exc.message}", err=True)
        raise SystemExit(1) from None
    click.echo(str(result), err=True)


@click.command("rebuild-stats")
@with_appcontext
def rebuild_stats_command() -> None:
    """Recompute the statistics' summaries from every stored round (after an upgrade)."""
    click.echo(f"Statistics rebuilt from {stats.rebuild()} games.", err=True)


def init_app(app: Flask) -> None:
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(rebuild_stats_command)
