"""Which servers (guilds) a process looks after when the bot runs as several shards.

Discord gives each guild to one shard: `(guild_id >> 22) % shard_count`. A process that runs
shards `ids` of `count` handles the clocks of those guilds' games and no others (it has no
cache of the other guilds, and their channels' turns arrive at another process). The same
rule is written once here in Python and once as SQL, so storage can filter due games by it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """Shards `ids` of `count` (0 ≤ id < count, no id twice)."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"a shard count is 1 or more, not {self.count}")
        if not self.ids:
            raise ValueError("at least one shard id is needed")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"a shard id is given twice in {list(self.ids)}")
        wrong = [i for i in self.ids if not 0 <= i < self.count]
        if wrong:
            raise ValueError(f"shard ids are 0 to {self.count - 1} for a shard count of "
                             f"{self.count}, not {wrong[0]}")

    @classmethod
    def all_of(cls, count: int) -> Shards:
        return cls(count, tuple(range(count)))

    def shard_of(self, guild_id: int) -> int:
        """The shard Discord gives a guild to."""
        return (guild_id >> 22) % self.count

    def holds(self, guild_id: int) -> bool:
        """Whether this process looks after the guild."""
        return self.shard_of(guild_id) in self.ids

    @property
    def everything(self) -> bool:
        """Every shard in one process: no filter needed."""
        return len(self.ids) == self.count

    def sql(self, column: str = "guild_id") -> str:
        """A condition on `column` with the same meaning as `holds` (literal integers only, so
        it needs no parameters and reads the same in SQLite and PostgreSQL)."""
        if self.everything:
            return "1 = 1"
        ids = ", ".join(str(int(i)) for i in self.ids)
        return f"(({column} >> 22) % {int(self.count)}) IN ({ids})"
