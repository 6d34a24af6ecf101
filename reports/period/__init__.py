"""A period's outputs: the month as the command line and the server rate it (``month.py``), its CSV
files and pages (``pages.py``), and a national period's files (``national.py``).
"""
