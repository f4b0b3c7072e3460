"""The service's pure arithmetic: clocks (`clock`) and tournaments (`tournaments`: pairings,
matchings, standings). No I/O, no storage, no asyncio: they import nothing of the service but
its model (`tests/test_layers.py` holds them to that), so the desk and the use cases above
build on them and they are tested alone."""
