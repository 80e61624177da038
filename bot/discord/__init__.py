"""The Discord front end: a thin discord.py client over the croupier service.

Nothing here decides a rule or holds a game: messages, slash commands and buttons become
:class:`bot.service.croupier.Incoming` lines for the service, and its :class:`bot.replies.Reply`
becomes an embed with buttons. ``runner.run_bot`` starts it; docs/discord.md explains the setup.
"""
