"""The desk every use case shares: storage and the clock, a lock per channel, the cache of
live games, committing a turn, the games' live versions and the bounded waits for the next
(`changes`), the engine's worker processes and the engine player's seats.

It imports no use case and no command word: the use cases (`twixt.service.cases`) sit above it.
"""
