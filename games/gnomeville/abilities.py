"""Gnome abilities: what an ability card does for the gnome that graduated with it.

A card names one effect of ``content.ABILITY_EFFECTS``. Passive effects apply whenever they can
(movement, forager, diagonal here; sword and hammer in ``Town.has_sword`` / ``has_hammer``;
bargain in ``buying.discount``). Once-per-round effects are offered as options where the card
says (redraw in ``build.second_chance``, stew in ``build.draw``, ballista, echo and sprint in
``move.step``) and spent with :func:`spend`; the refresh of phase 5 turns them back.

Only a gnome on the board holds a card (an exhausted gnome loses it), so every function here
looks at deployed gnomes only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.gnomeville.town import EMPTY, Town

if TYPE_CHECKING:
    from games.gnomeville.state import GnomevilleState


def effect_of(g: GnomevilleState, town: Town, gnome: int) -> str:
    """The effect of ``gnome``'s card ("" without one)."""
    card = town.ability[gnome]
    return "" if card == EMPTY else g.pack.abilities[card].effect


def total(g: GnomevilleState, town: Town, effect: str) -> int:
    """The summed amounts of a passive ``effect`` over the deployed gnomes (e.g. movement)."""
    out = 0
    abilities = g.pack.abilities
    for gnome, card in enumerate(town.ability):
        if card != EMPTY and town.gnome_at[gnome] != EMPTY:
            ability = abilities[card]
            if ability.effect == effect:
                out += ability.amount
    return out


def movement_bonus(g: GnomevilleState, town: Town) -> int:
    """Extra movement whenever the town gains movement: +1 per monument on the board (the
    seed's passive monument) plus every ``movement`` ability."""
    return town.tiles.count(7) + total(g, town, "movement")  # 7: Tile.MONUMENT


def sprint(g: GnomevilleState, town: Town, gnome: int) -> int:
    """The movement ``gnome``'s sprint card gains now (ruling G55): its amount, plus what every
    gain of movement adds (monuments and movement cards, :func:`movement_bonus`)."""
    return g.pack.abilities[town.ability[gnome]].amount + movement_bonus(g, town)


def forager(g: GnomevilleState, town: Town, gnome: int) -> int:
    """Extra mushrooms when ``gnome`` enters an empty space (or one it cleared: ruling G24)."""
    card = town.ability[gnome]
    if card == EMPTY:
        return 0
    ability = g.pack.abilities[card]
    return ability.amount if ability.effect == "forager" else 0


def diagonal(g: GnomevilleState, town: Town, gnome: int) -> bool:
    card = town.ability[gnome]
    return card != EMPTY and g.pack.abilities[card].effect == "diagonal"


def ready(g: GnomevilleState, town: Town, effect: str) -> list[int]:
    """Deployed gnomes whose once-per-round ``effect`` is not spent this round."""
    out: list[int] = []
    abilities = g.pack.abilities
    for gnome, card in enumerate(town.ability):
        if (
            card != EMPTY
            and not town.ability_used[gnome]
            and town.gnome_at[gnome] != EMPTY
            and abilities[card].effect == effect
        ):
            out.append(gnome)
    return out


def first_ready(g: GnomevilleState, town: Town, effect: str) -> int:
    """The lowest gnome whose once-per-round ``effect`` is ready, or EMPTY. Where a use does
    not depend on which gnome holds the card (stew, redraw), the lowest one spends it."""
    found = ready(g, town, effect)
    return found[0] if found else EMPTY


def spend(g: GnomevilleState, town: Town, gnome: int) -> None:
    """Turn ``gnome``'s once-per-round card over and say so."""
    town.ability_used[gnome] = True
    card = g.pack.abilities[town.ability[gnome]]
    g.emit(town.seat, "ability", seat=town.seat, gnome=gnome, ability=card.id, effect=card.effect)
