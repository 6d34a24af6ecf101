"""``fiderate serve``: the web pages and JSON API over the same library as the command line.

* :mod:`reports.web.app`: the application: routes, error pages;
* :mod:`reports.web.pages` and :mod:`reports.web.api`: the HTML pages and the JSON API;
* :mod:`reports.web.security`: the security headers and the Content-Security-Policy;
* :mod:`reports.web.keys`: report options and the keys in report URLs;
* :mod:`reports.web.problems`: every error as one line and an HTTP status;
* :mod:`reports.web.service`: the one polite chess-results session shared by every user,
  concurrent requests for one tournament fetched once, and the reports kept in memory
  within a budget of bytes;
* :mod:`reports.web.fair`: fair shares of chess-results: clients told apart, each one's
  budget of new tournaments, and their requests taking turns;
* :mod:`reports.web.uploads`: uploaded files, within size limits, in a private folder;
* :mod:`reports.web.jobs` and :mod:`reports.web.work`: reading and rating in worker
  processes (uploads, and the pages fetched for a link), stopped when a job runs over its
  time limit;
* :mod:`reports.web.kept`: a kept report, rendered page by page with the report's templates;
* :mod:`reports.web.compressed`: answers many users open, compressed once;
* :mod:`reports.web.server`, :mod:`reports.web.limits` and :mod:`reports.web.access`: the
  server around the application: the listening socket, uvicorn's protocol under limits (what
  a slow or greedy client may cost), the access log.

Only Starlette and uvicorn are imported when the server starts; the library loads on first
use, or in the background once the server answers.
"""
