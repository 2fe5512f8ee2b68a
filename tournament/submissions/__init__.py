"""Submitted bots: the folder an author uploads (its manifest, ``kassen-bot.toml``), and its
safe unpacking on the ladder's side. The sandbox that builds and runs a submission builds on
these; nothing here runs the author's code."""
