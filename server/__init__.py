"""The referee: match lifecycle, clocks, seat tickets, transports, spectators, replays.

Built on ``games`` (the rules) and ``proto/kassen/v1`` (the wire contract).
"""
