"""The built-in `scripted` shopping model: a small intent-and-slot dialogue manager, no network.

- `words`: slots from the person's words (quantities, ordinals, prices, codes, addresses);
- `intents`: the intent of a message and the request (`Frame`) it starts or answers;
- `state`: what the conversation established, folded from its messages alone;
- `choices`: an item's variants, customizations, add-ons and time slots, and the pick;
- `planner`, `policy` and its parts (`browse`, `acquire`, `cart_edits`, `aftercare`): the next
  tool call or the reply;
- `phrasing`: the agent's questions and every tool error as a plain next step;
- `model`: the Model interface (streamed fragments, structured output).
"""

from commerce_agent.agent.models.scripted.model import ScriptedModel, fragments, plan

__all__ = ["ScriptedModel", "fragments", "plan", "words"]
