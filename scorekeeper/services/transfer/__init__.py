"""Export and import: a game as JSON or CSV, the whole history as one JSON file, and the
import of such a file (restore, or moving to another server). One module per job:

- ``fileformat``: the file's layout (its docstring) and its format names and version;
- ``export``: a game's JSON and CSV, the history streamed a batch of games at a time
  (with the circle's ratings at its end), and the ratings as CSV;
- ``parsing``: a file checked through and through before anything is stored; a bad file
  is refused with a message naming the game, round or change;
- ``storing``: the checked games stored in one short transaction of bulk inserts, the
  games already here skipped.

One game's JSON download imports the same way; it carries no scorer secret, so such a
game is read-only on the server it moves to. A digital game imports as its score pad:
the table (hands, seat links) is not in the file, so it can be followed and printed, not
played on.
"""

from __future__ import annotations

from scorekeeper.services.transfer.export import (
    CSV_HEADER,
    game_csv,
    game_data,
    game_json,
    history_chunks,
    history_data,
    history_json,
    ratings_csv,
)
from scorekeeper.services.transfer.fileformat import FORMAT, GAME_FORMAT, VERSION
from scorekeeper.services.transfer.parsing import parse_history
from scorekeeper.services.transfer.storing import ImportResult, import_history

__all__ = [
    "CSV_HEADER",
    "FORMAT",
    "GAME_FORMAT",
    "VERSION",
    "ImportResult",
    "game_csv",
    "game_data",
    "game_json",
    "history_chunks",
    "history_data",
    "history_json",
    "import_history",
    "parse_history",
    "ratings_csv",
]
