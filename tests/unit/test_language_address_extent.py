"""An address inside a sentence is exactly the address: what comes before it (the item, the
lead-in) and after it (a code, another request, courtesy) is no part of it."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from commerce_agent.agent.language.addresses import address_end
from commerce_agent.agent.language.delivery import read_delivery

ADDRESSES = (
    ("412 NE Alberta St, Portland, OR 97211", "US"),
    ("742 Evergreen Terrace, Springfield, IL 62704", "US"),
    ("350 5th Ave, Apt 21B, New York, NY 10118", "US"),
    ("1600 Pennsylvania Ave NW, Washington, DC 20500, USA", "US"),
    ("55 Queen Street West, Toronto, ON M5H 2M9, Canada", "CA"),
    ("800 Robson Street, Vancouver, BC V6Z 2E7", "CA"),
    ("12 Hackney Road, London E2 7NX, UK", "GB"),
    ("221B Baker Street, London NW1 6XE", "GB"),
    ("48 Princes Street, Edinburgh EH2 2YJ, Scotland", "GB"),
    ("15 Grafton Street, Dublin 2, D02 XY45, Ireland", "IE"),
    ("12 rue de Rivoli, 75001 Paris, France", "FR"),
    ("Keizersgracht 123, 1015 CJ Amsterdam, Netherlands", "NL"),
    ("1-1 Marunouchi, Chiyoda-ku, Tokyo 100-0005, Japan", "JP"),
)
LEAD_INS = ("ship it to", "please deliver it to", "send the mug to", "my address is",
            "delivered to", "and ship everything to")
BEFORE = ("", "buy the glaze mug,", "I'd like two dinner plates", "I'm after a cork yoga mat,")
AFTER = ("", ", and use code WELCOME10", " and I've got the NAMASTE10 code", ", thanks!",
         " please", ", go ahead and check out", ". I'll take two mugs.", " - a mug please",
         ", and also add a hanging planter", " so send it there", ", cheers")
JAPANESE = ("〒150-0041 東京都渋谷区神南1-2-3", "大阪府大阪市北区梅田3-1-1 〒530-0001",
            "〒604-8005 京都府京都市中京区恵比須町427")
JAPANESE_AFTER = ("に送ってください", "に送ってください。OCHA10を使います", "でお願いします",
                  "です。コードMIDORI500でお願いします", "へ届けてください。ありがとう")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ADDRESSES), st.sampled_from(LEAD_INS), st.sampled_from(BEFORE),
       st.sampled_from(AFTER))
def test_an_address_in_a_sentence_is_read_exactly(address: tuple[str, str], lead_in: str,
                                                   before: str, after: str) -> None:
    text, country = address
    message = f"{before} {lead_in} {text}{after}".strip()
    found = read_delivery(message)
    assert found.address == text
    assert found.country_code == country
    for word in ("WELCOME10", "NAMASTE10", "planter", "check out", "two mugs"):
        if word in after:
            assert word in found.rest  # the clause after the address is read on


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(ADDRESSES), st.sampled_from(AFTER))
def test_an_address_ends_where_its_parts_end(address: tuple[str, str], after: str) -> None:
    text = address[0]
    assert address_end(text + after) == len(text)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(JAPANESE), st.sampled_from(JAPANESE_AFTER),
       st.sampled_from(("", "八女玉露を2つ、", "送り先は")))
def test_a_japanese_address_keeps_its_postal_code(text: str, after: str, before: str) -> None:
    found = read_delivery(f"{before}{text}{after}")
    assert found.address == text
    assert found.country_code == "JP"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(("OCHA10の", "を使います", "please", "use", "WELCOME10", "the",
                                 "code", "2", "mugs", "and", "ship", "it", "ください", "コード",
                                 "NAMASTE10", "to", "thanks", "の", "3個")),
                min_size=1, max_size=8),
       st.sampled_from((" ", ", ")))
@example(["ship", "to", "OCHA10の"], " ")
@example(["ship", "it", "to", "WELCOME10"], " ")
@example(["ship", "to", "2", "mugs"], " ")  # a count, not "2 Mugs" the street
def test_words_without_address_parts_are_no_address(words: list[str], glue: str) -> None:
    assert read_delivery(glue.join(words)).address is None


def test_the_same_address_as_before_is_named_not_written() -> None:
    for message, rest in (
            ("buy a dinner plate and ship it to the same address as last time",
             "buy a dinner plate"),
            ("same address as before, check out please", "check out please"),
            ("Commandez une assiette plate, à la même adresse que la dernière fois",
             "Commandez une assiette plate"),
            ("八女玉露を前回と同じ住所に送ってください", "八女玉露を送ってください")):
        found = read_delivery(message)
        assert found.same_as_before and found.address is None
        assert found.rest == rest
    assert not read_delivery("same as last time please").same_as_before  # a reorder
