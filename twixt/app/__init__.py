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
    """
    gc.freeze()
    gc.enable()
