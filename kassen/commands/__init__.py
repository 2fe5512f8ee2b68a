"""One module per ``kassen`` subcommand."""
