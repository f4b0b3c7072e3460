"""The Discord front end: slash commands, buttons and chat moves, translated into calls of
`twixt.service.TwixtService` and its replies sent back as messages.

`twixt.discord.app.run()` starts the bot (`twixt run`). This is the only package that imports
discord.py; the service and everything below it never see a Discord type.
"""
