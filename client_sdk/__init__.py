"""The Python SDK for bot authors: connect to a referee, receive decisions, answer them.

The bundled bots reuse the in-process policies of ``games.policies`` (random, greedy).
"""
