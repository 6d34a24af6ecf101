"""Files written whole: a folder or file written aside and swapped in (never half-written), and CSV
text whose cells cannot run as spreadsheet formulas.
"""
