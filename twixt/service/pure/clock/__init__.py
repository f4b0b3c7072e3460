"""Time arithmetic of the correspondence clocks, below the service's desk: time controls,
pauses (vacations, weekends off), the banks derived from the stored log, what a clock says,
and the dispatcher's wake-up alarm.

Pure or nearly so: these modules read what they are given (a stored game, its stints, the
players' vacations) and import nothing of the service above `twixt.service.model`, so the
desk and every use case can build on them (`tests/test_layers.py` guards it).
"""
