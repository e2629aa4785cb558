"""The rules engine: dice, scoring, rule sets, turns, games, players and strategies.

Pure Python, standard library only, no I/O; randomness only through an injected ``random.Random``.
"""
