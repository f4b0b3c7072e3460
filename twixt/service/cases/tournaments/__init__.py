"""Tournaments and leagues (players type `tournament`): the use cases.

`organising` answers the players' tournament commands and the tick; `rounds` pairs a
tournament's rounds, opens each game in a thread of its own and scores it; `crosstables`
draws the standings. The mathematics they use (pairings, matchings, standings) is pure and
lives in `twixt.service.pure.tournaments`; the options that make a tournament are read with
the other command words, in `twixt.service.commands.tournament_options`.
"""
