"""The Elo calculator's inputs checked in words (``input.py``) and its calculation shown
(``view.py``), for the command line, the calculator page and the API alike.
"""
