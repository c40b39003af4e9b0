"""The rule set as a setup form sends it, for both setup forms: the score pad's, which
shows every rule, and the digital table's, which shows fewer and names the round plan
``plan``. Each keeps its own markup; they share how the fields are read and turned into
a rule set."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from werkzeug.datastructures import MultiDict

from scorekeeper.engine import RuleSet

CHOICES = ("dealer_rule", "bidding", "round_plan", "tie_break", "suit_names")
SWITCHES = ("no_full_bid", "saboteur", "foresight")
SCORING = ("exact_bonus", "per_trick", "per_miss")
# The fields as typed, with the book's values as defaults.
DEFAULTS: dict[str, str] = {
    "dealer_rule": "none",
    "from_round": "1",
    "bidding": "open",
    "round_plan": "full",
    "tie_break": "shared",
    "suit_names": "colours",
    "exact_bonus": "20",
    "per_trick": "10",
    "per_miss": "10",
}
# A form's field names by rule: the score pad's form has every field, named as above.
EVERY_FIELD = {key: key for key in (*DEFAULTS, *SWITCHES)}


@dataclass
class RuleFields:
    """A setup form's rule fields as typed (text, so that a value the engine refuses
    comes back as it was typed), and the switches that are on."""

    values: dict[str, str] = field(default_factory=lambda: dict(DEFAULTS))
    switches: set[str] = field(default_factory=set)

    @classmethod
    def from_form(
        cls, form: MultiDict[str, str], names: Mapping[str, str] = EVERY_FIELD
    ) -> RuleFields:
        """The fields that ``names`` maps a rule to (by their name on the form); a rule
        the form doesn't show keeps the book's value, whatever is sent for it."""
        values = dict(DEFAULTS)
        for key, name in names.items():
            if key in DEFAULTS:
                values[key] = form.get(name, DEFAULTS[key]).strip()
        switches = {key for key in SWITCHES if key in names and form.get(names[key])}
        return cls(values, switches)

    def rules(self) -> dict[str, Any]:
        """The rule set as the API spells it; the engine checks every value."""
        rules: dict[str, Any] = {key: self.values[key] for key in CHOICES}
        if rules["dealer_rule"] != "none":
            rules["dealer_rule_from_round"] = whole(self.values["from_round"])
        for key in SWITCHES:
            rules[key] = key in self.switches
        rules["scoring"] = {key: whole(self.values[key]) for key in SCORING}
        return rules

    def use_rules(self, rules: RuleSet) -> None:
        """Set every rule field as ``rules`` has it (the inverse of :meth:`rules`)."""
        data = rules.to_dict()
        self.values = {key: str(data[key]) for key in CHOICES}
        self.values["from_round"] = str(data["dealer_rule_from_round"])
        self.values.update({key: str(data["scoring"][key]) for key in SCORING})
        self.switches = {key for key in SWITCHES if data[key]}


def whole(text: str) -> object:
    """A whole number typed in a field, or the text itself for the engine to refuse."""
    text = text.strip()
    return int(text) if re.fullmatch(r"[+-]?\d{1,9}", text) else text
