"""The only package that touches devices: cameras, buttons and displays, each behind a Protocol."""
