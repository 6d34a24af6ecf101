"""One view of a report (``view.py``, its columns in ``columns.py``) and its renderings: HTML pages
(one set of Jinja2 templates for the files and the server), the terminal, CSV, JSON, the import
summary, the norms' words, numbers formatted once (``fmt.py``).
"""
