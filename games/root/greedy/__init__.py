"""A greedy Root player for the Marquise de Cat, the Eyrie Dynasties and the Woodland Alliance:
simple rules, no search.

It sees only what a remote bot sees: the decision and its seat's ``RootView`` (the map, the
public faction boards, its own hand, the steps in progress), plus the public card, map and track
data. Every decision is answered by scoring its options with a few readable rules:

- both factions craft whenever it scores and discard their least useful cards at the hand
  limit (``cards``), ambush an attacker and foil an ambush (``battle``);
- moves and battles are judged on a small copy of the map (``map_model``): a move by how much it
  improves a position score (``position``, ``moves``), a battle by its expected removals
  (``battle``);
- the Marquise builds whenever she can and spends her other actions where they gain most
  (``marquise``);
- the Alliance spreads sympathy where it is cheap and safe, revolts where it pays, trains
  officers and mobilizes spare cards, organizes in Evening (``alliance``); every faction gives
  its least useful card to Outrage;
- the Eyrie avoid turmoil: a card goes into the Decree only if the map can still carry every
  card of it (``decree``), and leaders are chosen by which Viziers the map can carry (``eyrie``).

``policy`` looks up the rules for each decision kind and breaks ties with its own seeded
generator, so the player is deterministic given its seed.
"""

from games.root.greedy.policy import GreedyPolicy

__all__ = ["GreedyPolicy"]
