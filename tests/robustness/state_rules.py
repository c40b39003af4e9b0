"""The 422 codes that no API document can foresee, for the schemathesis runs
(``test_schemathesis.py``, ``bench/schema_hooks.py``): a request the document allows may be
refused with one of these, and with no other 4xx but for its token."""

# Rules of the stored game (its players, its round, the bids in), of a key used before,
# and names that are the same but for case or white space (the pad's comparison).
STATE_CODES = frozenset(
    {
        "idempotency_key_reused",
        "bad_bids",
        "bad_tricks",
        "wrong_count",
        "bid_out_of_range",
        "tricks_out_of_range",
        "tricks_do_not_add_up",
        "bids_equal_tricks",
        "bids_missing",
        "tricks_missing",
        "full_bid",
        "dealer_does_not_bid",
        "no_trump_round",
        "bad_trump",
        "game_over",
        "round_open",
        "not_last_round",
        "round_complete",  # tricks taken back (null) from a round that is not the last
        "adjustment_seat",
        "adjustments_many",
        "bad_seat",
        "unknown_seat",
        "same_player",
        "bad_players",  # only names equal but for case or white space: counts are stated
    }
)
