"""A rating officer's month: the players identified across events and months, the period's games
rated as one long table, the records of the result, the register that keeps lists and rated
months, and the run that walks them once in order.
"""
