"""dicekeeper tests."""
