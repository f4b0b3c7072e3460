"""The service's arithmetic: clocks (`clock`) and tournaments (`tournaments`: pairings,
matchings, standings). Of the service they import only its model and its errors
(`tests/test_layers.py` holds them to that), so the desk and the use cases above build on
them and they are tested alone. All of it is pure but two modules of the clock:
`clock.absence` reads the vacations a clock pauses for from the storage it is handed, and
`clock.wakeups` is the asyncio alarm that wakes the clocks' dispatcher."""
