"""Runners over the Game object: everything that plays many games of any game.

``api`` (simulate, aggregate, load results), ``tournament``, ``ladder``, ``sweep``,
``tune``, ``dask_backend``, and the run folders on disk (the ``runs`` package). They import the core and reach a game only through
``core.contract.get_game``; nothing here imports the command line.
"""
