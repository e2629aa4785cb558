"""The web scoreboard: the table's state, live, on every phone on the network, control with a
pairing code, and the finished games to download.

`device.web.server` serves it (aiohttp, in a thread of its own with its own event loop);
`device.web.bridge` is the only place the table's thread and the web's meet. The modules other
than `server` do not import aiohttp, so `dicekeeper history --csv` stays light.
"""
