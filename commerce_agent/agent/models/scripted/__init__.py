"""The built-in `scripted` shopping model: a pipeline of small stages, no network.

- normalize: `commerce_agent.agent.language` (language, counts, measures, prices, addresses,
  dates), read here through `normalized`;
- slots: `words` (counts, sizes that are not counts, price limits and order, codes, order ids,
  addresses, several items in one message) and `choices` (variants, customizations, add-ons,
  time slots, and the pick);
- speech act: `speech` (question, instruction, confirmation, refusal; negated clauses cut);
- intent: `intents` (the intent of what is left, and questions about acting answered);
- state: `state` (what the conversation established, folded from its messages alone);
- policy: `policy` and its parts (`planner`, `browse`, `acquire`, `several`, `cart_edits`,
  `aftercare`, `answers`): the next tool call or the reply;
- phrasing: `messages` (sentences in en/fr/ja, the i18n catalogs), `phrasing`, `explain`
  (every tool error as a next step);
- `model`: the Model interface (streamed fragments, structured output).
"""

from commerce_agent.agent.models.scripted.model import ScriptedModel, fragments, plan

__all__ = ["ScriptedModel", "fragments", "plan", "words"]
