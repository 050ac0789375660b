"""Ctrl-C that cannot be lost.

Python raises KeyboardInterrupt wherever the main thread happens to be; raised
inside a callback (a module lock's weakref callback while a worker thread
imports, a finaliser) it is printed as "Exception ignored" and dropped, and a
long run would go on. The command line's SIGINT handler also sets ``REQUESTED``,
and the runner's waits poll it (``wait``), so the interruption arrives anyway.
"""
import threading
from concurrent.futures import TimeoutError as FutureTimeout

REQUESTED = threading.Event()
POLL = 0.25     # seconds between checks while waiting for a chunk


def wait(future):
    """``future.result()``, raising KeyboardInterrupt once REQUESTED is set."""
    while True:
        if REQUESTED.is_set():
            raise KeyboardInterrupt
        try:
            return future.result(timeout=POLL)
        except FutureTimeout:
            continue
