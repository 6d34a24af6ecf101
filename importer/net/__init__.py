"""Fetching, kept apart from parsing: the one polite HTTP session (timeouts, retries, a minimum
delay per host, the cache, only chess-results and FIDE hosts), the addresses it may ask, whose
turn it is to ask a host, and the walk over a tournament's chess-results pages.
"""
