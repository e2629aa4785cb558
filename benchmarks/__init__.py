"""Scripts that print figures (speed, accuracy, solver time, faults), and the fault kit and bad
image files they share with the tests; run them as ``.venv/bin/python benchmarks/NAME.py``."""
