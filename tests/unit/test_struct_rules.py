"""struct_rules: the fast matcher agrees with jsonschema on every rule the app declares, and a
rule using a keyword the matcher does not know is refused when it is written."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce_agent.agent.routes import FollowUpBody
from commerce_agent.commerce.routes.order_actions import RatingRequest, TipRequest
from commerce_agent.commerce.routes.orders import CreateOrderRequest
from commerce_agent.commerce.routes.webhooks import CreateWebhookRequest
from commerce_agent.commerce.shop.stores import PromotionPut
from commerce_agent.struct_rules import NOT_SPACE, Rule, matches

RULES = [rule for kind in (FollowUpBody, PromotionPut, RatingRequest, TipRequest,
                           CreateOrderRequest, CreateWebhookRequest) for rule in kind.rules]
FIELDS = ["amount", "percentage", "overall", "food", "message", "inputResponses", "orderType",
          "cartId", "items", "type", "value", "url"]
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 2), st.floats(allow_nan=False),
    st.sampled_from(["direct", "from_cart", "percentage", "fixed_amount", "0.5", "100", "0",
                     "101", "https://example.com/x", "http://localhost:8/", "ftp://x", ""]),
    st.text(max_size=8), st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
DOCUMENTS = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=6)


@settings(max_examples=400, deadline=None)
@given(document=DOCUMENTS)
def test_the_matcher_agrees_with_jsonschema(document: dict[str, Any]) -> None:
    for rule in RULES:
        expected = jsonschema.Draft202012Validator(rule.schema).is_valid(document)
        assert matches(rule.schema, document) == expected, (rule.schema, document)


def test_a_rule_with_an_unknown_keyword_is_refused() -> None:
    with pytest.raises(ValueError, match="uniqueItems"):
        Rule({"properties": {"events": {"uniqueItems": True}}}, lambda: ValueError())


def test_not_space_is_pythons_non_space_in_every_regex_dialect() -> None:
    """Explicit, so ECMA-262 (JSON Schema tools) and Python read it the same: exactly the
    characters str.isspace (and so str.strip) does not count as space."""
    pattern = re.compile(NOT_SPACE)
    assert [hex(code) for code in range(0x110000)
            if (pattern.fullmatch(chr(code)) is None) != chr(code).isspace()] == []
    assert "\\s" not in NOT_SPACE and "\\S" not in NOT_SPACE
