"""The OpenAPI 3.1 document: valid, served, and describing exactly the routes there are."""

import re

from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate as validate_spec
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from scorekeeper.engine import Bidding, DealerRule, Plan, RuleSet, SuitNames, TieBreak
from tests.api.support import DOC, validate


def test_document_is_valid_openapi_3_1() -> None:
    assert DOC["openapi"].startswith("3.1")
    validate_spec(DOC)  # raises on any error


def test_validator_would_catch_a_broken_document() -> None:
    broken = {**DOC, "paths": {"/x": {"get": {"responses": {"200": {}}}}}}
    try:
        validate_spec(broken)
    except OpenAPIValidationError:
        return
    raise AssertionError("a response without a description passed")


def test_document_is_served_as_json(client: FlaskClient) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == DOC


def _template(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


def test_every_route_is_documented_and_nothing_else(app: Flask) -> None:
    routes = {
        (_template(rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("api.")
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    documented = {
        (path, method)
        for path, item in DOC["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert routes == documented


def test_no_automatic_options(app: Flask) -> None:
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            assert "OPTIONS" not in (rule.methods or ()), rule


def test_path_parameters_are_declared() -> None:
    for path, item in DOC["paths"].items():
        declared = {
            DOC["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]]["name"]
            for p in item.get("parameters", [])
        }
        assert set(re.findall(r"\{([a-z_]+)\}", path)) == declared, path


def test_rule_keys_and_enums_are_the_engines() -> None:
    schemas = DOC["components"]["schemas"]
    defaults = RuleSet().to_dict()
    for name in ("Rules", "RulesInput"):
        props = schemas[name]["properties"]
        assert set(props) == set(defaults), name
        assert props["dealer_rule"]["enum"] == [r.value for r in DealerRule]
        assert props["bidding"]["enum"] == [b.value for b in Bidding]
        assert props["round_plan"]["enum"] == [p.value for p in Plan]
        assert props["tie_break"]["enum"] == [t.value for t in TieBreak]
        assert props["suit_names"]["enum"] == [s.value for s in SuitNames]
    assert schemas["Rules"]["required"] == list(defaults)
    assert schemas["RulesInput"]["required"] == []
    # The documented defaults are the book's (what a missing key becomes).
    inputs = schemas["RulesInput"]["properties"]
    for key, value in defaults.items():
        if key != "scoring":
            assert inputs[key]["default"] == value, key
    scoring = schemas["ScoringInput"]["properties"]
    assert {k: v["default"] for k, v in scoring.items()} == defaults["scoring"]
    validate(defaults, {"$ref": "#/components/schemas/Rules"})


def test_required_keys_are_properties() -> None:
    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                assert set(node["required"]) <= set(node["properties"])
                assert node["additionalProperties"] is False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(DOC["components"]["schemas"])


def test_each_operation_names_the_token_it_needs_and_its_errors() -> None:
    assert DOC["components"]["securitySchemes"]["scorerToken"] == {
        **DOC["components"]["securitySchemes"]["scorerToken"],
        "type": "http",
        "scheme": "bearer",
    }
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            if method in ("post", "put", "delete") and path != "/api/v1/games":
                assert op["security"] == [{"scorerToken": []}], (path, method)
                for status in ("401", "403", "404", "409", "422"):
                    assert status in op["responses"], (path, method, status)
            elif path == "/api/v1/games" and method == "post":
                # A circle token is optional: without one the game is a one-off game.
                assert op["security"] == [{}, {"circleToken": []}]
                assert "401" in op["responses"]
            elif path == "/api/v1/games" or path.startswith("/api/v1/circle"):
                assert op["security"] == [{"circleToken": []}], (path, method)
                assert "401" in op["responses"], (path, method)
            else:
                assert "security" not in op, (path, method)
