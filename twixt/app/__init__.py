"""The process's composition root: the one place that opens the storage and puts a process
together — the service over it, with the port its front end lends, and the front ends beside
each other (the web board beside the Discord bot, their links and announcements).

- `bot`: `twixt run`, the Discord bot (and the web board beside it when asked);
- `web`: `twixt web`, the web board alone, and `twixt link`;
- `table`: `twixt play` and `twixt export`, the terminal table and records;
- `database`: `twixt check` and `twixt migrate`, the database itself.

The front ends import nothing of the storage, nor each other (`tests/test_layers.py`); the
command line (`twixt.cli`) reads its arguments and calls these.
"""

import gc

#: new objects (allocations less deallocations) between two collections of the youngest
#: generation once a process runs (`freeze_start_up`)
YOUNG_COLLECTION = 10_000


def hold_collection() -> None:
    """Hold Python's collector off while a process puts itself together (until
    `freeze_start_up`): start-up makes objects that stay (modules, their classes, the
    storage's pool), so the collections their making sets off find next to nothing to free
    (what little they would, `freeze_start_up` keeps, once); they were 16 ms of the 400 ms of
    CPU `twixt web` took to import itself."""
    gc.disable()


def freeze_start_up() -> None:
    """Take what start-up made (the imported modules, the engine's tables, the catalogues, the
    storage's pool) out of the garbage collector's sight, once a process is put together.

    Python's full collection, which it runs now and then as objects come and go, walks every
    object it tracks; over all of start-up's it stalled the event loop for 15-20 ms, and every
    turn under way waited it out: with a thousand games at once, one in a round of ten turns
    each made the p99 of a turn on PostgreSQL 1.4 to 2.3 times its p50 (`storage_bench.py`,
    docs/benchmarks.md). Frozen, start-up's objects stay for good (they would anyway), and a
    full collection walks only what was made since: 2-4 ms. The collector is on again from here
    (`hold_collection` may have held it off).

    From here the youngest generation is collected after `YOUNG_COLLECTION` new objects
    (allocations less deallocations), not Python's 700. A server's requests leave almost no
    cycles (the collections of a web move free nothing), yet at 700 each young collection
    still walked what the last moves left alive (their games' positions, in the cache of
    live games) and cost 3-4 ms under load: `twixt web` ran 28 of them and 2 older ones over
    1,000 moves, 117 ms in all, 6-7% of its CPU a move (`web_bench.py`, the collector's
    callbacks timed, load 7-8). At 10,000 the same 1,000 moves ran one or two, of 8-23 ms
    each, 9-41 ms in all: a pause a few times longer (a young collection at 700 took up to
    15 ms at that load), fifteen to thirty times rarer, which the moves' p99 to the
    opponent's page does not show.
    """
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
    gc.enable()
