"""``fiderate serve``: the web pages and JSON API over the same library as the command line.

* :mod:`reports.web.app`: the application (routes, security headers, error pages);
* :mod:`reports.web.pages` and :mod:`reports.web.api`: the HTML pages and the JSON API;
* :mod:`reports.web.service`: the one polite chess-results session shared by every user,
  concurrent requests for one tournament fetched once, and the reports kept in memory;
* :mod:`reports.web.uploads`: uploaded files, within size limits, in a private folder;
* :mod:`reports.web.jobs` and :mod:`reports.web.work`: reading and rating in a separate
  process, stopped when it runs over its time limit;
* :mod:`reports.web.kept`: a kept report, rendered page by page with the report's templates.

Only Starlette is imported when the server starts; the library loads on first use.
"""
