"""Score pad games: create, load, record and correct rounds, one module per use case.

- ``loading``: set a game up, load it (one statement), look games up;
- ``sheets``: a game read through the engine (rule set, score sheet, the round to enter);
- ``writing``: the steps every write shares;
- ``rounds``: whole rounds (the API, the correction form): record, correct, delete;
- ``adjustments``: bonuses and penalties;
- ``entry``: the open round tap by tap on the score pad;
- ``undo``: putting back a take-back, reopening the round the last tap scored (Undo
  itself, ``undo_move``, one step back down the round's stack of moves, is in ``entry``);
- ``again``: the next game at the same table.

Every command checks the whole change with the engine before anything is written, then
writes the rounds, recomputes every score and total from the engine's sheet, logs the
change and flushes; whoever owns the transaction commits it (``scorekeeper/transaction.py``)
or rolls it back: a rejection leaves the stored game exactly as it was.
"""

from __future__ import annotations

from scorekeeper.services.games.adjustments import add_adjustment, remove_adjustment
from scorekeeper.services.games.again import (
    NextGameStarted,
    mark_next_game,
    next_game_of,
    play_again,
)
from scorekeeper.services.games.entry import (
    clear_tricks_from,
    confirm_round,
    only_one_missed,
    rest_as_bid,
    set_bid,
    set_draft_trump,
    set_tricks,
    take_back,
    undo_move,
)
from scorekeeper.services.games.loading import (
    DEFAULT_CIRCLE_MAX_GAMES,
    check_room,
    circle_of,
    create_game,
    get_game,
    is_deleted,
    last_rules,
    list_games,
    new_scorer_token,
    parse_rules,
    scoring_states,
    token_hash,
    token_matches,
    version_of,
)
from scorekeeper.services.games.rounds import (
    delete_last_round,
    record_played,
    record_round,
    update_round,
)
from scorekeeper.services.games.sheets import (
    draft_of,
    entries_of,
    names_of,
    rules_of,
    sheet_of,
)
from scorekeeper.services.games.undo import put_back, reopen_round, reopenable
from scorekeeper.services.games.writing import parse_trump

__all__ = [
    "DEFAULT_CIRCLE_MAX_GAMES",
    "NextGameStarted",
    "check_room",
    "add_adjustment",
    "circle_of",
    "clear_tricks_from",
    "confirm_round",
    "create_game",
    "delete_last_round",
    "draft_of",
    "entries_of",
    "get_game",
    "is_deleted",
    "last_rules",
    "list_games",
    "mark_next_game",
    "names_of",
    "new_scorer_token",
    "next_game_of",
    "only_one_missed",
    "parse_rules",
    "parse_trump",
    "play_again",
    "put_back",
    "record_played",
    "record_round",
    "reopen_round",
    "reopenable",
    "remove_adjustment",
    "rest_as_bid",
    "rules_of",
    "scoring_states",
    "set_bid",
    "set_draft_trump",
    "set_tricks",
    "sheet_of",
    "token_hash",
    "token_matches",
    "take_back",
    "undo_move",
    "update_round",
    "version_of",
]
