"""The Discord front end: slash commands, buttons and chat moves, translated into calls of
`twixt.service.TwixtService` and its replies sent back as messages.

`twixt.discord.app.TwixtBot` is the client; the process's composition root
(`twixt.app.bot`, `twixt run`) opens the storage, hands the client how to open its service,
and serves the web board beside it. This is the only package that imports discord.py; the
service and everything below it never see a Discord type.
"""
