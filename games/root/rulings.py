"""Every point where the Japanese rules summary and the Law of Root are silent or were read one
way, decided once.

Shared rulings are RT*, the Marquise's RM* (``marquise.py``), the Eyrie's RE* (``eyrie.py``) and
the Woodland Alliance's RA* (``alliance.py``), the Vagabond's RV* (``vagabond.py``).
Each is named by a test (``tests/root/``), and ``docs/rulings/root.md`` lists them for people (a
test keeps the two in step). Data choices about maps, cards and tracks are in the docs too.
"""

from __future__ import annotations

from games.root.alliance import ALLIANCE_RULINGS
from games.root.eyrie import EYRIE_RULINGS
from games.root.marquise import MARQUISE_RULINGS
from games.root.vagabond import VAGABOND_RULINGS

CORE_RULINGS: dict[str, str] = {
    "RT1": "A two-player contest is two games whose VP are totalled (the Japanese rules summary: "
    "2回戦行い、合計得点で勝敗を決めます); game 2 is set up afresh (map suits, deck, hands) from the same random "
    "stream.",
    "RT2": "Game 1's factions are dealt to the seats at random from the seed, and the start player "
    "is drawn at random (Law 5.1 step 1); in game 2 the seats swap factions and the other seat "
    "starts, so each seat plays each faction and starts once.",
    "RT3": "Equal totals are broken by more games won, then by the faster win (fewer turns in the "
    "game won), then in favour of the seat that did not start game 1.",
    "RT4": "A contest stopped by the referee's decision limit is ranked by total VP so far (finished "
    "games plus the current one); ties go to the seat not taking the current turn, then the lower "
    "seat.",
    "RT5": "The game ends as soon as someone has 30 VP or more (Law 3.1). The VP of one battle's "
    "hits (removals both ways and the Despot's extra point, Law 4.3.4) are reached at once, "
    "whatever order the hits are chosen in: the game ends when all are dealt, and if several "
    "players are then at 30 or more, the player taking the turn wins (if not among them, the "
    "first of them in turn order, Law 1.1.3). VP scored one after another (Brutal Tactics' "
    "point before the hits, Stand and Deliver!) are not simultaneous: the first to 30 wins.",
    "RT6": "Determinization deals the other seats' hands and the deck again from the cards the seat "
    "cannot see, keeping hand sizes; cards a step in progress names (a played ambush, a card "
    "waiting for its Decree column) stay in their hand, and a deal is kept only if the seat's "
    "whole view and its own pending decision come out the same (the opponent's pending question "
    "can reveal a card); cards a seat glimpsed (Codebreakers, Stand and Deliver!) are not "
    "remembered by the engine, bots keep their own notes from the private events.",
    "RT7": "Effects usable at any point of a phase (Royal Claim and Stand and Deliver! 'in "
    "Birdsong', Tax Collector and Codebreakers 'once in Daylight') are offered in a window at "
    "the start of the phase, beside the faction's action choices in it (the Marquise's "
    "Daylight actions; the Eyrie's first card to add to the Decree, and each Decree card to "
    "resolve, then asked even with one card left), and in a last window at the end of the "
    "phase (after Birdsong only if the faction's Birdsong had a step of its own: the "
    "Marquise's wood placed without a choice changes nothing these effects see); never inside "
    "an action (Law 1.4.2). Command Warren ('at start of Daylight') and Cobbler ('at start of "
    "Evening') are offered at the start of their phase only. Each is used at most once per "
    "turn: Stand and Deliver!'s 'In Birdsong, you may take a random card' is read as one use, "
    "like the 'once' of the Daylight cards.",
    "RT8": "Better Burrow Bank's other player is the next seat clockwise (in two players: the "
    "opponent), so it asks no decision.",
    "RT9": "In battle, when both sides have an optional effect they could use after the roll, the "
    "attacker chooses which side uses its effects first (Law 4.3.3: 'If both want to use "
    "effects, the attacker chooses who uses them first'; decision battle.effects_first); that "
    "side uses its effects until it says done, then the other side. With an effect on one "
    "side only, that side is asked alone.",
    "RT10": "An attacker with Scouting Party is not affected by ambush cards, so the defender is not "
    "offered one.",
    "RT11": "Each of the two twelve-sided battle dice shows 0, 1, 2 or 3 with equal chance.",
    "RT12": "VP never go below 0 (a Humiliate with fewer VP than birds in the Decree stops at 0, "
    "and the points it could not take are not owed). The Law is silent on negative scores: it has "
    "no rule for them, and the score track it keeps them on starts at the '0' space where every "
    "marker begins (Law 5.1 step 2), with no space below; the Japanese rules summary is silent "
    "too. Humiliate (Law 7.7.1) is the only way the factions here lose VP.",
    "RT13": "Two ambush cards of the same suit, or two copies of a card, are one option: which copy "
    "is spent changes nothing.",
    "RT14": "Hits beyond the warriors remove buildings and tokens without asking when there is no "
    "choice (all go, or all are of one kind); otherwise the side taking the hits chooses one piece "
    "at a time.",
    "RT15": "Three players play the trio of the Japanese rules summary (3人：猫野候国＋鷲巣王朝＋森林連合) as one "
    "game, as the Law does (the two-game contest is the two-player rule of the Japanese rules "
    "summary); the factions are dealt to the seats at random from the seed unless the factions "
    "option names them in seat order (two players too), the start player is drawn at random, and "
    "the factions set up in the Law's order (Marquise, Eyrie, Alliance) whatever their seats.",
    "RT16": "A three-player game ranks its winner first (by 30 VP or by dominance), then the others "
    "by VP, a seat that activated a dominance card counting the VP it had then; equal VP go "
    "to the seat later in the turn order from the start player (it took no more turns). A "
    "three-player game stopped by the decision limit (RT4) is ranked the same way, with no "
    "winner.",
    "RT17": "Dominance cards are activated and taken ('during your Daylight', Law 3.3.1 and 3.3.4) "
    "wherever RT7 offers the 'once in Daylight' effects, whatever the faction: in the card "
    "windows at the start and at the end of Daylight and beside each Daylight action choice "
    "(Marquise actions, Eyrie Decree cards, Alliance Mobilize and Train), never inside an "
    "action; several cards may be taken, and a card taken may be activated at once.",
    "RT18": "The dominance victory is checked first thing at the start of the seat's Birdsong, "
    "before Better Burrow Bank and the Birdsong card window (the player taking the turn "
    "orders start-of-Birdsong effects, and winning at once makes the others moot).",
    "RT19": "Once a seat activates a dominance card it scores nothing more (no VP gained or lost, "
    "so it can never reach 30) and its VP stay shown as they were when it activated; the "
    "observation's dominance field says its marker is off the track.",
    "RT20": "Taking an available dominance card is one option naming both cards "
    "(take:<dominance>:<spent>): the spent card is any card in hand of the dominance card's "
    "suit (birds wild; only a bird card for the bird dominance), copies of a card being one "
    "option (RT13); a dominance card in hand may pay for another, which then becomes "
    "available.",
    "RT21": "Three players play the trio of the Japanese rules summary (Marquise, Eyrie, "
    "Alliance) unless the factions option names any three of the four factions (the Vagabond "
    "included); the default is the recommendation of the Japanese rules summary for three "
    "(3人：猫野候国＋鷲巣王朝＋森林連合), never drawn from the four. Four players play all four factions (the "
    "Japanese rules summary: 4人：…＋放浪部族) as one game. Either way the factions are dealt to the "
    "seats at random from the seed unless the option names them in seat order, the start player "
    "is drawn at random, and the factions set up in the Law's order (Law 5.1 step 7: Marquise, "
    "Eyrie, Alliance, Vagabond) whatever their seats: setup order is not turn order. A lineup "
    "with a faction whose rules are not in the engine is refused (InvalidConfig naming it).",
    "RT22": "Coalitions (Law 9.2.8 with 3.3; four or more players only): a faction whose rules say "
    "can_form_coalition (the Vagabond) never activates a dominance card for its own victory; "
    "instead, in the same Daylight windows as RT17 and with at least 10 VP (Law 3.3.1), it "
    "activates one to form a coalition with another player (one option "
    "coalition:<card>:<seat> per card and partner). The partner must have the fewest VP among "
    "the other players whose score marker is on the track: a seat that activated a dominance "
    "card (or is in a coalition) is neither a partner nor compared; on a tie each tied seat "
    "is an option (he chooses, the Law). He then scores no more (RT19), his card wins nothing "
    "by ruling, and the card stays in his play area for good; the observation shows the "
    "partner (coalition, -1 if none). With three players a Vagabond cannot activate dominance "
    "cards at all.",
    "RT23": "A coalition wins together: when the partner wins (30 VP or dominance) the Vagabond wins "
    "too. The Outcome ranks the partner first and the Vagabond second, then the others as "
    "RT16, and tiebreak['winners'] lists both (the winner alone otherwise); "
    "tiebreak['coalition'] gives each seat's partner (-1 if none). Whoever wins, and in a "
    "game stopped by the decision limit (RT16, four seats), a Vagabond in a coalition is "
    "ranked right after his partner. When they win, Outcome.shared holds the two: both seats "
    "get rank 1 in MatchOver (unless one of them failed), and ratings, head-to-head and the "
    "SPRT count them as sharing first place (a draw between them).",
    "RT24": "Coalition partners are not enemies (the Law's glossary: an enemy is 'any other "
    "player that you are not in a coalition with', Law 9.2.8): one test of enmity "
    "(players.is_enemy) serves every rule and bot that says enemy. A Vagabond in a coalition "
    "and his partner never battle each other (neither is a defender the other may choose, and "
    "a clearing with no other enemy is no clearing of battle: a Battle the Decree or an "
    "operation asks for cannot be taken there, RE10), he never Strikes the partner, and an "
    "effect removing all enemy pieces (a revolt, a favor card) spares the other's pieces, so "
    "the partner's revolt or favor damages none of his items (Full Removal, RV6) and his favor "
    "never makes the partner's faction Hostile. What the Law gives to 'another player' "
    "still holds between partners: Aid, Steal, Outrage, Martial Law, Stand and Deliver!, "
    "Codebreakers, and his relationship with the partner's faction (Hostile warriors still "
    "cost him an extra boot).",
    "RT25": "The deck is never empty while the discard pile holds cards (Law 2.1: 'If the deck is "
    "ever empty, shuffle the discard pile immediately to form a new deck'). The draw that takes "
    "the deck's last card shuffles the discard pile into a new deck at once, so cards discarded "
    "afterwards start a new discard pile. If the discard pile is empty then, the cards discarded "
    "next become the deck as soon as the step of play that discarded them is over (one choice, or "
    "one step the engine takes alone): the cards one step discards together (a purge, a lost "
    "base's supporters, an ambush and the card that foils it) are shuffled together, and no "
    "decision is asked before the shuffle, so Day Labor never finds a card there that the Law has "
    "already shuffled into the deck. Every shuffle draws from the game's seeded random stream.",
}

RULINGS: dict[str, str] = {
    **CORE_RULINGS,
    **MARQUISE_RULINGS,
    **EYRIE_RULINGS,
    **ALLIANCE_RULINGS,
    **VAGABOND_RULINGS,
}


def ruling(ruling_id: str) -> str:
    return RULINGS[ruling_id]
