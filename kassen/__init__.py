"""Kassen (合戦): a gRPC game service and tournament runner for board-game bot competitions."""

__version__ = "0.1.0"
