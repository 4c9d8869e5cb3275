"""Questions read by their frame (commerce_agent/agent/models/scripted/speech.py): a hedged
opening, an interrogative inside the sentence, asking to be told or about a past act, a
question under a condition said without a comma. Each is asked, never done; a request in the
same frame ("any chance you could add two?") stays a request."""

from __future__ import annotations

import pytest

from commerce_agent.agent.models.scripted.intents import understand
from commerce_agent.agent.models.scripted.speech import read_act


@pytest.mark.parametrize("text", [
    "any chance the speckled oat mug is still in stock",
    "do you happen to know when hearth & kiln opens",
    "is it possible to pause my subscription",
    "c'est possible de se faire livrer au Canada",
    "le mug classique existe en quelles couleurs",
    "vous fermez à quelle heure",
    "c'est quoi les dimensions du tapis de yoga",
    "remind me what i put in my basket",
    "what did i add to my cart",
    "qu'est-ce que j'ai mis dans mon panier",
    "カートに何を入れたか教えて",
    "if i add another plate is shipping still 8.50",
    "vous savez si ma commande a été expédiée ?",
])
def test_a_question_by_its_frame_is_asked(text: str) -> None:
    assert read_act(text).kind == "question"
    assert understand(text)[0] not in ("add", "buy", "quantity", "cancel", "return")


@pytest.mark.parametrize("text", [
    "any chance you could add two plates",
    "if there is one in blue add it",
    "if the blue is in stock I'll take two",
    "add the mug to my cart",
])
def test_a_request_in_a_question_frame_stays_a_request(text: str) -> None:
    assert understand(text)[0] in ("add", "buy")


@pytest.mark.parametrize("text", ["remind me what i put in my basket", "how much is my cart",
                                  "did i put the mug in my cart?", "カートに入れたのは何ですか"])
def test_a_question_about_the_cart_shows_the_cart(text: str) -> None:
    assert understand(text)[0] == "cart"
