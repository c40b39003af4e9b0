"""The history file's format, as export writes it and import reads it.

The history file::

    {"format": "scorekeeper-history", "version": 1, "games": [GAME, ...],
     "ratings": [{"player", "rating", "margin", "games", "provisional", "mu", "sigma"}]}

``ratings`` (a circle's export only) says how its players stood when it was written; an
import reads the games alone and rates them again.

and a GAME (also what a single game's JSON download holds, under ``"game"``)::

    {"public_id", "mode", "created_at", "updated_at", "finished_at", "scorer_token_hash",
     "players": [names in seat order], "first_dealer", "rules": {...},
     "rounds": [{"number", "cards", "dealer", "trump", "complete",
                 "bids", "tricks", "scores", "totals",
                 "adjustments": [{"seat", "points", "reason"}] (only when given)}],
     "changes": [{"at", "round_number", "action", "message", "facts", "summary", "data"}]}

A change's ``message`` and ``facts`` say what it says (worded in the reader's language);
files written before they existed carry only the English ``summary``, which is shown then.
One game's JSON download is ``{"format": "scorekeeper-game", "version": 1, "game": GAME}``.
"""

FORMAT = "scorekeeper-history"
GAME_FORMAT = "scorekeeper-game"
VERSION = 1
