"""Languages: English, German, French, Spanish, Italian, Dutch and Polish (Flask-Babel), and
the engine's words in the reader's one.

The locale is the one the reader picked with the language switch (a cookie), else the
best match of the browser's ``Accept-Language``, else English. The rules engine stays free
of Flask and Babel: its errors carry a message id and their facts (``params``), and
:func:`rule_message` words them here; :func:`describe_rules` is the translated twin of
``RuleSet.describe()``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel import numbers
from babel.dates import format_skeleton
from flask import Flask, Response, g, has_request_context, request

# Flask-Babel ships no type information; the typed wrappers below are what the app uses.
from flask_babel import (  # type: ignore[import-untyped]
    LazyString,
    force_locale,
    get_locale,
    get_translations,
)
from flask_babel import gettext as _gettext
from flask_babel import lazy_gettext as _lazy_gettext
from flask_babel import ngettext as _ngettext
from flask_babel import pgettext as _pgettext

from scorekeeper.engine import (
    Bidding,
    DealerRule,
    EngineError,
    Plan,
    RuleSet,
    SuitNames,
    TieBreak,
)
from scorekeeper.engine.disputes import Note
from scorekeeper.extensions import babel
from scorekeeper.security import add_vary

# Each language in its own name, as the language switch lists them.
LANGUAGES = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "it": "Italiano",
    "nl": "Nederlands",
    "pl": "Polski",
}
DEFAULT_LOCALE = "en"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
MINUS = "\N{MINUS SIGN}"
NBSP = "\N{NO-BREAK SPACE}"


def gettext(text: str, **variables: object) -> str:
    """``text`` in the reader's language, with ``%(name)s`` placeholders filled in."""
    if not has_request_context():
        return str(_gettext(text, **variables))
    # The request's catalog, as templates use it: a game page words a few hundred texts
    # (its change log), and Flask-Babel looks the catalog up again for each.
    found = str(_page_catalog().ugettext(text))
    return found % variables if variables else found


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    """The singular or plural of a text for ``num`` (``%(num)s``) in the reader's language."""
    if not has_request_context():
        return str(_ngettext(singular, plural, num, **variables))
    variables.setdefault("num", num)
    return str(_page_catalog().ungettext(singular, plural, num)) % variables


def pgettext(context: str, text: str) -> str:
    """``text`` in the reader's language, where ``context`` tells a letter or short word
    from the same one meaning something else."""
    if not has_request_context():
        return str(_pgettext(context, text))
    return str(_page_catalog().upgettext(context, text))


def lazy_gettext(text: str, **variables: object) -> LazyString:
    """A text translated when it is shown (for module-level labels)."""
    return _lazy_gettext(text, **variables)


_ = gettext
_n = ngettext
_l = lazy_gettext


def day_text(when: datetime) -> str:
    """A day in short form in the reader's format, never broken over two lines:
    "21 Nov 2026", "21. Nov. 2026", "21 nov. 2026", "21 lis 2026"."""
    return format_skeleton("yMMMd", when, locale=_date_locale()).replace(" ", NBSP)


def date_text(when: datetime) -> str:
    """A date in the reader's format: "21 November 2026", "21. November 2026",
    "21 de noviembre de 2026", "21 listopada 2026"."""
    return format_skeleton("yMMMMd", when, locale=_date_locale())


def _date_locale() -> str:
    """The locale whose date formats the reader gets: the app's English is British
    ("colour", "21 Nov 2026"), every other language its own CLDR formats."""
    code = _locale()
    return "en_GB" if code == DEFAULT_LOCALE else code


def select_locale() -> str:
    """The reader's language: the switch's cookie, else the browser's, else English."""
    if not has_request_context():
        return DEFAULT_LOCALE
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LOCALE)


def shell_language() -> str:
    """The language of the command line, read as gettext does: the list in ``LANGUAGE``,
    else the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set
    ("de_DE.UTF-8" → "de"); English for any other language or none."""
    for part in os.environ.get("LANGUAGE", "").split(":"):
        if _language_of(part) in LANGUAGES:
            return _language_of(part)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            code = _language_of(value)
            return code if code in LANGUAGES else DEFAULT_LOCALE
    return DEFAULT_LOCALE


def _language_of(value: str) -> str:
    return value.split(".")[0].split("@")[0].split("_")[0].lower()


@contextmanager
def language(code: str) -> Iterator[None]:
    """Texts in ``code`` for a while, outside a request too (the command line)."""
    with force_locale(code):
        yield


def current_language() -> str:
    """The language code of the current request ("en", "de", "fr", …)."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LOCALE


def _page_catalog() -> Any:
    """The catalog of the language in effect, kept for the request (a forced language,
    as :func:`language` sets, has a locale of its own and so a catalog of its own)."""
    locale = get_locale()
    kept = g.get("_page_catalogs")
    if kept is None:
        kept = g._page_catalogs = {}
    catalog = kept.get(id(locale))
    if catalog is None:
        catalog = kept[id(locale)] = (locale, get_translations())
    return catalog[1]


def _page_gettext(text: str) -> str:
    return str(_page_catalog().ugettext(text))


def _page_ngettext(singular: str, plural: str, num: int) -> str:
    return str(_page_catalog().ungettext(singular, plural, num))


def init_app(app: Flask) -> None:
    """Bind Flask-Babel and give templates the language switch's data."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    babel.init_app(
        app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS)
    )

    @app.context_processor
    def languages() -> dict[str, object]:
        return {"languages": LANGUAGES, "current_language": current_language()}

    app.add_template_filter(number, "number")
    app.add_template_filter(day_text, "day")
    app.add_template_filter(percent, "percent")
    app.add_template_filter(decimal1, "decimal1")
    # {% trans %} blocks that span lines are one sentence: collapse the line breaks.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # Templates look their catalog up once per request and language, not once per text
    # (a games list asks for a hundred texts); Jinja formats and escapes as before.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _page_gettext,
        _page_ngettext,
        newstyle=True,
        pgettext=lambda c, s: _page_catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: _page_catalog().unpgettext(c, s, p, n),
    )

    @app.after_request
    def vary_on_language(response: Response) -> Response:
        # The same address answers in the reader's language: caches must keep them apart.
        if request.endpoint != "static":
            add_vary(response, "Accept-Language", "Cookie")
        return response


# -- numbers and dates ---------------------------------------------------------------------


def _locale() -> str:
    locale = get_locale()
    return str(locale) if locale is not None else DEFAULT_LOCALE


def number(value: int | float | None) -> str:
    """A number in the reader's format, negatives with a real minus sign (−10)."""
    if value is None:
        return ""
    if isinstance(value, int):
        # A whole number without a thousands separator is its Latin digits in every
        # locale (Babel's default numbering system): a game page shows a hundred scores,
        # and asking Babel took a sixth of its rendering.
        text = str(abs(value))
    else:
        # No thousands separator: a score pad reads "1090", as written on paper.
        text = numbers.format_decimal(abs(value), locale=_locale(), group_separator=False)
    return f"{MINUS}{text}" if value < 0 else text


def percent(value: float) -> str:
    """A share as a whole percentage in the reader's format: "67%", "67 %"."""
    return numbers.format_percent(value, locale=_locale())


def decimal1(value: float) -> str:
    """A number with one decimal in the reader's format, real minus sign: "−2.5", "−2,5"."""
    text = numbers.format_decimal(abs(value), "0.0", locale=_locale())
    return f"{MINUS}{text}" if value < 0 and text.strip("0.,") else text


def signed(value: int | None) -> str:
    """A score change with its sign: +30, −10, 0."""
    if value is None:
        return ""
    return f"+{number(value)}" if value > 0 else number(value)


def short_datetime(when: datetime) -> str:
    """Day, month and time in UTC in the reader's format ("Nov 21, 13:05 UTC")."""
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    locale = get_locale() or DEFAULT_LOCALE
    day = format_skeleton("MMMd", when, locale=locale)
    return f"{day} {when:%H:%M} UTC"


def listing(values: Sequence[object]) -> str:
    return ", ".join(number(v) if isinstance(v, int) else str(v) for v in values)


# -- the engine's errors -------------------------------------------------------------------


def player_name(seat: int) -> str:
    return gettext("Player %(number)s", number=seat + 1)


def _who(params: dict[str, object]) -> str:
    seat = params.get("seat")
    name = params.get("name")
    who = str(name) if name else player_name(seat if isinstance(seat, int) else 0)
    return gettext("%(name)s (dealer)", name=who) if params.get("dealer") else who


def suit_word(colour: str) -> str:
    """A suit colour's name in the reader's language."""
    words = {
        "yellow": lazy_gettext("yellow"),
        "red": lazy_gettext("red"),
        "green": lazy_gettext("green"),
        "blue": lazy_gettext("blue"),
    }
    return str(words.get(colour, colour))


def suit_mark(colour: str) -> str:
    """A suit colour's mark, so it is never shown by colour alone: the start of its name
    in the reader's language, long enough that no two suits (nor the dealer's mark)
    share it ("Y" for yellow; "Ge" Gelb and "Gr" Grün)."""
    marks = {
        "yellow": pgettext("the yellow suit's mark", "Y"),
        "red": pgettext("the red suit's mark", "R"),
        "green": pgettext("the green suit's mark", "G"),
        "blue": pgettext("the blue suit's mark", "B"),
    }
    return marks.get(colour, colour)


def _seat_name(seat: object, names: Sequence[str] | None) -> str:
    if not isinstance(seat, int):
        return str(seat)
    return names[seat] if names is not None and 0 <= seat < len(names) else player_name(seat)


def rule_message(exc: BaseException, names: Sequence[str] | None = None) -> str:
    """An engine error in the reader's language, chosen by its message id and worded from
    its facts (never from its English text); ``names`` (seat order) name the seats the
    engine numbers ("It is Ben's turn to bid" for "Player 2").

    In English this is the engine's own message, word for word, but for a seat it names.
    Anything else, and an id with no words here, keeps its own text.
    """
    if not isinstance(exc, EngineError):
        return str(exc)
    p = exc.params
    # The engine numbers seats; a caller that knows the names has the words name them.
    named = names is not None and isinstance(p.get("seat"), int) and not p.get("name")
    if named:
        p = {**p, "name": _seat_name(p["seat"], names)}
    if exc.message_id == "turn_to_bid":
        return gettext("It is %(name)s's turn to bid.", name=_seat_name(p.get("seat"), names))
    if exc.message_id == "turn_to_play":
        return gettext("It is %(name)s's turn to play.", name=_seat_name(p.get("seat"), names))
    if current_language() == DEFAULT_LOCALE and not named:
        return str(exc)
    words = _ENGINE_WORDS.get(exc.message_id)
    return str(exc) if words is None else words(p)


def _bids_equal_tricks(p: dict[str, Any]) -> str:
    rule = (
        gettext("plus/minus one")
        if p["dealer_rule"] == DealerRule.PLUS_MINUS_ONE.value
        else gettext("Canadian rule: the dealer is in the lead")
    )
    return ngettext(
        "%(who)s can't bid %(bid)s: the bids would add up to the %(num)s trick "
        "(%(rule)s). Allowed: %(allowed)s.",
        "%(who)s can't bid %(bid)s: the bids would add up to the %(num)s tricks "
        "(%(rule)s). Allowed: %(allowed)s.",
        p["cards"],
        who=_who(p),
        bid=p["bid"],
        rule=rule,
        allowed=listing(p["allowed"]),
    )


def _wrong_phase(p: dict[str, Any]) -> str:
    why = {
        "deal": lazy_gettext("the next round has to be dealt first"),
        "choose_trump": lazy_gettext("the dealer is choosing trump"),
        "bidding": lazy_gettext("the players are bidding"),
        "playing": lazy_gettext("the cards are being played"),
        "game_over": lazy_gettext("the game is over"),
    }.get(p["phase"], p["phase"])
    if p["doing"] == "deal":
        return gettext("You can't deal now: %(why)s.", why=str(why))
    if p["doing"] == "choose trump":
        return gettext("You can't choose trump now: %(why)s.", why=str(why))
    if p["doing"] == "bid":
        return gettext("You can't bid now: %(why)s.", why=str(why))
    return gettext("You can't play a card now: %(why)s.", why=str(why))


_SCORING_FIELDS = {
    "exact_bonus": lazy_gettext("The exact bid bonus"),
    "per_trick": lazy_gettext("The points per trick"),
    "per_miss": lazy_gettext("The minus per trick off"),
}

# The engine's messages by id, each worded from the error's facts (``params``).
_ENGINE_WORDS: dict[str, Callable[[dict[str, Any]], str]] = {
    "adjustment_seat": lambda p: gettext("Choose one of the %(num)s players.", num=p["players"]),
    "adjustment_points": lambda p: gettext(
        "A bonus or penalty is a whole number of points from −%(most)s to %(most)s, not 0.",
        most=p["most"],
    ),
    "adjustment_reason": lambda p: gettext(
        "The reason is a line of at most %(most)s characters.", most=p["most"]
    ),
    "adjustment_reason_characters": lambda p: gettext(
        "The reason can't contain invisible or control characters."
    ),
    "adjustments_many": lambda p: gettext(
        "A round has at most %(most)s bonuses and penalties.", most=p["most"]
    ),
    "dealer_does_not_bid": lambda p: gettext(
        "%(who)s does not bid: under Wizard Saboteur the dealer has no bid.", who=_who(p)
    ),
    "bid_out_of_range": lambda p: ngettext(
        "%(who)s can't bid %(bid)s: bids go from 0 to %(top)s in a round of %(num)s card.",
        "%(who)s can't bid %(bid)s: bids go from 0 to %(top)s in a round of %(num)s cards.",
        p["cards"],
        who=_who(p),
        bid=p["bid"],
        top=p["top"],
    ),
    "bid_not_a_number": lambda p: gettext(
        "%(who)s's bid must be a whole number from 0 to %(top)s.", who=_who(p), top=p["top"]
    ),
    "full_bid": lambda p: gettext(
        "%(who)s can't bid %(bid)s: no full bid, so the most is %(top)s.",
        who=_who(p),
        bid=p["bid"],
        top=p["top"],
    ),
    "bids_equal_tricks": _bids_equal_tricks,
    "wrong_bid_count": lambda p: gettext(
        "There must be one bid per player (%(players)s), not %(count)s.",
        players=p["players"],
        count=p["count"],
    ),
    "wrong_trick_count": lambda p: gettext(
        "There must be one trick count per player (%(players)s), not %(count)s.",
        players=p["players"],
        count=p["count"],
    ),
    "tricks_out_of_range": lambda p: gettext(
        "Tricks taken must be whole numbers from 0 to %(cards)s, not %(value)s.",
        cards=p["cards"],
        value=repr(p["value"]),
    ),
    "tricks_do_not_add_up": lambda p: ngettext(
        "The tricks add up to %(total)s, but %(num)s trick was played this round.",
        "The tricks add up to %(total)s, but %(num)s tricks were played this round.",
        p["cards"],
        total=p["total"],
    ),
    "no_trump_round": lambda p: (
        gettext("The unicoloured game has no trump.")
        if p.get("unicoloured")
        else gettext("The last round deals every card, so there is no trump.")
    ),
    "bids_missing": lambda p: gettext("Every bid must be in before the tricks."),
    # A round entered tap by tap (engine.RoundDraft).
    "no_seat": lambda p: gettext("There is no such player at this table."),
    "tricks_started": lambda p: gettext(
        "The tricks are being entered: clear them before changing a bid."
    ),
    "deals_and_does_not_bid": lambda p: gettext(
        "%(name)s deals and does not bid under Wizard Saboteur.", name=_who(p)
    ),
    "bids_first": lambda p: gettext("%(name)s bids first.", name=_who(p)),
    "tricks_from_zero": lambda p: gettext("Tricks taken go from 0 to %(cards)s.", cards=p["cards"]),
    "tricks_left": lambda p: ngettext(
        "%(name)s can't have taken %(value)s: only %(num)s of the %(cards)s tricks is left.",
        "%(name)s can't have taken %(value)s: only %(num)s of the %(cards)s tricks are left.",
        p["left"],
        name=_who(p),
        value=p["value"],
        cards=p["cards"],
    ),
    "last_count_is_left": lambda p: gettext(
        "The tricks must add up to %(cards)s: %(name)s took %(left)s.",
        cards=p["cards"],
        name=_who(p),
        left=p["left"],
    ),
    "enter_bids_first": lambda p: gettext("Enter every bid before the tricks."),
    "rest_does_not_add_up": lambda p: gettext(
        "Their bids don't add up with the tricks entered: enter each count."
    ),
    "secret_bids_each_count": lambda p: gettext(
        "The bids are secret until the round is scored: enter each count."
    ),
    "count_already_in": lambda p: gettext("%(name)s's count is already in.", name=_who(p)),
    "no_bid_to_go_by": lambda p: gettext(
        "%(name)s deals and does not bid under Wizard Saboteur: enter each count.", name=_who(p)
    ),
    "others_bid_too_many": lambda p: ngettext(
        "%(name)s can't be the only one who missed: the others' bids come to %(bids)s, "
        "and only %(num)s trick is left.",
        "%(name)s can't be the only one who missed: the others' bids come to %(bids)s, "
        "and only %(num)s tricks are left.",
        p["left"],
        name=_who(p),
        bids=p["bids"],
    ),
    "made_it_too": lambda p: gettext(
        "If the others made their bids, %(name)s made theirs too.", name=_who(p)
    ),
    "tricks_missing": lambda p: gettext("Enter every player's tricks first."),
    "nothing_to_take_back": lambda p: gettext("There is nothing to take back."),
    "nothing_to_put_back": lambda p: gettext("There is nothing to put back."),
    "cannot_reopen": lambda p: gettext(
        "That round can't be reopened any more: correct it on the pad instead."
    ),
    "must_follow": lambda p: gettext(
        "You must follow %(suit)s: you have %(suit)s in your hand.", suit=suit_word(p["suit"])
    ),
    "not_in_hand": lambda p: gettext("%(card)s is not in your hand.", card=p["card"]),
    "not_a_card": lambda p: gettext("%(value)s is not a card.", value=p["card"]),
    "already_bid": lambda p: gettext("You have already bid this round."),
    "dealer_chooses_trump": lambda p: gettext(
        "Only the dealer chooses trump when a Wizard is turned up."
    ),
    "saboteur_no_bid": lambda p: gettext("The dealer does not bid under Wizard Saboteur."),
    "bad_suit": lambda p: gettext("The dealer must choose one of the four suits."),
    "unknown_seat": lambda p: gettext("There is no seat %(seat)s at this table.", seat=p["seat"]),
    "wrong_phase": _wrong_phase,
    "bad_scoring": lambda p: gettext(
        "%(field)s must be a whole number from 0 to 1000.",
        field=str(_SCORING_FIELDS.get(p["field"], p["field"])),
    ),
    "bad_dealer_rule_round": lambda p: gettext(
        "The round the dealer rule starts from must be a whole number from 1 to 20."
    ),
    "unicoloured_players": lambda p: gettext("The unicoloured game is for 3 or 4 players only."),
    "bad_player_count": lambda p: gettext(
        "Wizard is played by 3 to 6 players, not %(players)s.", players=p["players"]
    ),
    "bad_rule_choice": lambda p: gettext(
        "The rule %(rule)s takes one of these values: %(choices)s.",
        rule=p["rule"],
        choices=p["choices"],
    ),
    "not_a_card_text": lambda p: gettext(
        "%(card)s is not a card: write a suit letter Y, R, G or B with 1 to 13 (like R13 "
        "or y1), W or Z for a Wizard, J or N for a Jester.",
        card=p["value"],
    ),
    "card_not_text": lambda p: gettext(
        "A card is written as text like 'R13', not %(card)s.", card=p["value"]
    ),
}


def dispute_note(note: Note) -> str:
    """A note of the trick resolver (``engine.disputes``) in the reader's language; in
    English the engine's own text, word for word."""
    if current_language() == DEFAULT_LOCALE:
        return note.text
    p = note.params
    if note.code == "one_in_deck":
        card = gettext("%(suit)s %(rank)s", suit=suit_word(str(p.get("suit"))), rank=p.get("rank"))
        return gettext("Impossible: there is only one %(card)s in the deck.", card=card)
    if note.code == "deck_has_only" and p.get("kind") == "wizard":
        return gettext("Impossible: the deck has only %(limit)s Wizards.", limit=p.get("limit"))
    if note.code == "deck_has_only" and p.get("kind") == "jester":
        return gettext("Impossible: the deck has only %(limit)s Jesters.", limit=p.get("limit"))
    if note.code == "legal_if_void":
        return gettext(
            "Only legal if player %(number)s had no %(suit)s: they had to follow %(suit)s.",
            number=p.get("player"),
            suit=suit_word(str(p.get("suit"))),
        )
    return note.text


# -- rule sets in words --------------------------------------------------------------------


def describe_rules(rules: RuleSet) -> list[str]:
    """The rule set in the reader's words, one line per rule that differs from the book
    (or "Standard rules"); the translated twin of ``RuleSet.describe()``."""
    lines: list[str] = []
    if rules.round_plan is Plan.SHORT:
        lines.append(gettext("Short game: 10 rounds"))
    elif rules.round_plan is Plan.UNICOLOURED:
        lines.append(gettext("Unicoloured: each player plays one colour, highest number wins"))
    if rules.dealer_rule is not DealerRule.NONE:
        held = (
            gettext("the last bidder is held to it")
            if rules.saboteur
            else gettext("the dealer is held to it")
        )
        start = rules.dealer_rule_from_round
        if rules.dealer_rule is DealerRule.PLUS_MINUS_ONE:
            if start > 1:
                line = gettext(
                    "Plus/minus one from round %(round)s: bids may not add up to the cards "
                    "in the round (%(held)s)",
                    round=start,
                    held=held,
                )
            else:
                line = gettext(
                    "Plus/minus one: bids may not add up to the cards in the round (%(held)s)",
                    held=held,
                )
        elif start > 1:
            line = gettext(
                "Canadian rule from round %(round)s: when the dealer leads outright, bids may "
                "not add up to the cards in the round (%(held)s)",
                round=start,
                held=held,
            )
        else:
            line = gettext(
                "Canadian rule: when the dealer leads outright, bids may not add up to the "
                "cards in the round (%(held)s)",
                held=held,
            )
        lines.append(line)
    if rules.no_full_bid:
        lines.append(gettext("No full bid: nobody may bid all their cards (1 with a single card)"))
    if rules.bidding is Bidding.HIDDEN:
        lines.append(gettext("Hidden bids: everyone bids at once, shown before play"))
    elif rules.bidding is Bidding.SECRET:
        lines.append(gettext("Secret bids: shown only after the round is played"))
    if rules.saboteur:
        lines.append(
            gettext(
                "Wizard Saboteur: the dealer does not bid and scores %(points)s every round",
                points=rules.scoring.exact_bonus,
            )
        )
    if rules.foresight:
        lines.append(gettext("Foresight round: in round 1 you see every card but your own"))
    if not rules.scoring.is_standard:
        s = rules.scoring
        lines.append(
            gettext(
                "Scoring: %(bonus)s for an exact bid + %(per_trick)s per trick, "
                "−%(per_miss)s per trick off",
                bonus=s.exact_bonus,
                per_trick=s.per_trick,
                per_miss=s.per_miss,
            )
        )
    if rules.tie_break is TieBreak.BID_TOTAL:
        lines.append(gettext("Ties broken by the higher total of bids"))
    if rules.suit_names is SuitNames.FRENCH:
        lines.append(gettext("French suit names: hearts, diamonds, clubs, spades"))
    return lines or [gettext("Standard rules")]


# -- the change log ----------------------------------------------------------------------------

# Each line of a game's change log is stored as a message id and its facts (names, round
# numbers, values as written then), and worded here when it is read.


def _trump_text(text: str) -> str:
    if text == "–":
        return text
    if text == "none":
        return gettext("no trump")
    if text.startswith("wizard:"):
        return gettext(
            "Wizard: dealer chose %(suit)s", suit=suit_word(text.removeprefix("wizard:"))
        )
    return suit_word(text)


def _adjustment(f: Mapping[str, Any], taken_back: bool = False) -> str:
    facts = {"name": f["name"], "points": signed(int(f["points"])), "number": f["number"]}
    if taken_back:
        return gettext("%(name)s: %(points)s in round %(number)s taken back", **facts)
    if f.get("reason"):
        return gettext(
            "%(name)s: %(points)s in round %(number)s (%(reason)s)", reason=f["reason"], **facts
        )
    return gettext("%(name)s: %(points)s in round %(number)s", **facts)


def _correction_part(p: Mapping[str, Any]) -> str:
    if p["part"] == "bid_changed":
        return gettext("%(name)s's bid changed", name=p["name"])
    if p["part"] == "bid":
        return gettext(
            "%(name)s's bid %(old)s → %(new)s", name=p["name"], old=p["old"], new=p["new"]
        )
    if p["part"] == "tricks":
        return gettext(
            "%(name)s's tricks %(old)s → %(new)s", name=p["name"], old=p["old"], new=p["new"]
        )
    return gettext("trump %(old)s → %(new)s", old=_trump_text(p["old"]), new=_trump_text(p["new"]))


def _corrected(f: Mapping[str, Any]) -> str:
    if not f["parts"]:
        return gettext("Round %(number)s", number=f["number"])
    changes = "; ".join(_correction_part(p) for p in f["parts"])
    return gettext("Round %(number)s corrected: %(changes)s", number=f["number"], changes=changes)


_LOG_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "game_set_up": lambda f: gettext("Game set up"),
    "round_recorded": lambda f: gettext("Round %(number)s recorded", number=f["number"]),
    "round_deleted": lambda f: gettext("Round %(number)s deleted", number=f["number"]),
    "round_reopened": lambda f: gettext("Round %(number)s reopened", number=f["number"]),
    "round_corrected": _corrected,
    "bid_entered": lambda f: gettext(
        "Round %(number)s: %(name)s bid entered", number=f["number"], name=f["name"]
    ),
    "bid_cleared": lambda f: gettext(
        "Round %(number)s: %(name)s bid cleared", number=f["number"], name=f["name"]
    ),
    "trump_set": lambda f: gettext(
        "Round %(number)s: trump %(trump)s", number=f["number"], trump=_trump_text(f["trump"])
    ),
    "tricks_entered": lambda f: gettext(
        "Round %(number)s: %(name)s's tricks entered", number=f["number"], name=f["name"]
    ),
    "tricks_cleared": lambda f: gettext(
        "Round %(number)s: %(name)s's tricks cleared", number=f["number"], name=f["name"]
    ),
    "tricks_cleared_from": lambda f: gettext(
        "Round %(number)s: tricks from %(name)s on cleared", number=f["number"], name=f["name"]
    ),
    "rest_made_their_bids": lambda f: gettext(
        "Round %(number)s: the rest made their bids", number=f["number"]
    ),
    "only_missed": lambda f: gettext(
        "Round %(number)s: only %(name)s missed, the rest made their bids",
        number=f["number"],
        name=f["name"],
    ),
    "adjusted": _adjustment,
    "adjustment_removed": lambda f: _adjustment(f, taken_back=True),
    "scorer_taken_over": lambda f: gettext("Scoring taken over by a member of the circle"),
    "moved_into_circle": lambda f: gettext("Moved into a circle"),
    "game_deleted": lambda f: gettext("Game deleted"),
    "game_restored": lambda f: gettext("Game brought back"),
    "next_game": lambda f: gettext("Next game started"),
}
LOG_MESSAGES = frozenset(_LOG_WORDS)


def log_line(message: str | None, facts: object, stored: str) -> str:
    """A change log line in the reader's language, worded from its message id and facts;
    ``stored`` (the English of the time) for a line without an id, as an old file may
    hold, or with facts that don't fit its id."""
    words = _LOG_WORDS.get(message or "")
    if words is None or not isinstance(facts, dict):
        return stored
    try:
        return words(facts)
    except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError):
        return stored


def log_line_in_english(message: str, facts: Mapping[str, Any]) -> str:
    """The English words of a change log line: what its ``summary`` keeps."""
    with force_locale(DEFAULT_LOCALE):
        return _LOG_WORDS[message](facts)
