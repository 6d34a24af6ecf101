"""The rating systems, one module each, all meeting one interface (``base.py``) and registered once
(``registry.py``): FIDE (``fide.py``, its rules by date in ``fide_rules.py``, its tables in
``fide_tables.py``, its time-control rules in ``time_controls.py``), generic Elo, and the
national systems DWZ, ECF and UKD; each rule written once, citing its article.
"""
