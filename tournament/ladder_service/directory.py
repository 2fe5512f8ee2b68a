"""The ladder's bots in memory: who a token belongs to, names, statuses, failures in a row.

The ladder's process is the only writer of the bots table, so it can answer from memory what
it would otherwise ask the database on every call (a Seek's token, GetBot, GetLadder's names):
a stranger's calls then never wait on the database, and the database is touched only to
change something (``writer.DatabaseWriter``), after which the record here is replaced.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tournament.ladder_service.registry import BotRecord
from tournament.ladder_service.tokens import token_hash


class BotDirectory:
    def __init__(self, bots: Iterable[BotRecord], token_hashes: Mapping[str, str]) -> None:
        """``token_hashes``: bot id -> the hash of its token (house bots have none)."""
        self._by_id: dict[str, BotRecord] = {bot.id: bot for bot in bots}
        self._by_hash: dict[str, str] = {h: bot_id for bot_id, h in token_hashes.items()}
        self._hash_of: dict[str, str] = dict(token_hashes)

    def get(self, bot_id: str) -> BotRecord | None:
        return self._by_id.get(bot_id)

    def by_token(self, token: str) -> BotRecord | None:
        bot_id = self._by_hash.get(token_hash(token))
        return self._by_id.get(bot_id) if bot_id is not None else None

    def put(self, bot: BotRecord) -> None:
        self._by_id[bot.id] = bot

    def set_token(self, bot_id: str, token: str) -> None:
        old = self._hash_of.pop(bot_id, None)
        if old is not None:
            self._by_hash.pop(old, None)
        new = token_hash(token)
        self._hash_of[bot_id] = new
        self._by_hash[new] = bot_id

    def all(self, game: str | None = None) -> list[BotRecord]:
        """By game, then name (as ``registry.list_bots``)."""
        found = [b for b in self._by_id.values() if game is None or b.game == game]
        return sorted(found, key=lambda b: (b.game, b.name))

    def names(self) -> dict[str, str]:
        return {bot_id: bot.name for bot_id, bot in self._by_id.items()}
