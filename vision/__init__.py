"""Dice reading: camera frames (numpy BGR arrays) in, dice readings out. OpenCV + numpy, no I/O.

Also holds the synthetic tray renderer that the simulated camera uses.
"""
