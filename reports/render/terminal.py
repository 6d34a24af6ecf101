"""Plain-text tables for the terminal: one player's rounds, or every player's totals.

The columns of a system rated beside the main one (those with a header) follow the fixed
ones, as on the pages.
"""

from __future__ import annotations

from typing import Any, TypeVar

from importer.model import Player
from rating.results import PlayerRating
from rating.systems.base import Column
from reports.render import fmt
from reports.render.columns import (
    NORMS,
    PLAYERS,
    ROUNDS,
    PlayerRow,
    RoundRow,
    by_name,
    not_checked,
    page_text,
    rounded_change,
)
from reports.render.needs_view import lists_lines, lists_view, needs_lines, needs_view
from reports.render.norm_view import (
    event_class_words,
    needs_words,
    regulations,
    shown_norms,
    unchecked_by_all,
)
from reports.render.view import (
    Report,
    computed,
    initial_workings,
    page_cells,
    page_headers,
    provisional,
    published_view,
    rated_with,
)

__all__ = ["render_norms", "render_players", "render_published", "render_rounds", "render_text",
           "terminal_notes"]

T = TypeVar("T")


_PLAYERS = by_name(PLAYERS)
_ROUNDS = by_name(ROUNDS)
"""The report's columns (:mod:`reports.render.columns`) by name: the terminal's headers, and the
values as the pages show them."""


def _head(column: Column[Any]) -> str:
    """A column's header in the terminal's narrow tables."""
    return column.short or column.header


def _text(column: Column[T], row: T) -> str:
    """A column's value for one row, as the pages and the terminal show it."""
    return page_text(column.form, column.page_value(row))


def _title(report: Report) -> list[str]:
    i = report.tournament.info
    r = report.rating
    system = r.rules if r.rules.startswith(r.label) else f"{r.label} {r.rules}"
    live = provisional(report)
    return [f"{i.name or 'Tournament'}: {system}, {r.rating_list.value}", rated_with(report),
            *([f"{live}: the changes count the finished games only"] if live else []), ""]


def _published_words(p: Player) -> str:
    """What the source publishes of a player whose games it does not show."""
    said = [f"{what} {value}" for what, value in (
        ("rated games", p.published_games),
        ("score", None if p.published_score is None else fmt.points(p.published_score)),
        ("expected", None if p.published_expected is None else fmt.change(p.published_expected)),
        ("change", None if p.rating_change is None else fmt.signed(p.rating_change)),
        ("performance", p.published_performance)) if value is not None]
    return ("No games shown, so no change computed; the source publishes " + ", ".join(said)
            if said else "No games shown: the change is unknown")


def render_rounds(report: Report, start_no: int) -> str:
    """One player's round-by-round table with totals and next-round scenarios."""
    pr = report.rating.player(start_no)
    if pr is None:
        return ""
    p = report.player(start_no)
    head = f"{p.start_no}. {(p.title + ' ') if p.title else ''}{p.name}"
    rating = ("rating unknown" if not p.rating_known else "unrated" if pr.rating is None
              else f"{pr.rating}, K {pr.k} ({pr.k_source.value})")
    lines = [head + f" — {rating}", ""]
    beside = []
    for b in report.beside:
        own = b.rating.player(start_no)
        beside.append((b.system.round_columns,
                       {ln.round: ln for ln in own.rounds} if own is not None else {}))
    extra = [h for columns, _ in beside for h in page_headers(columns, short=True)]
    shown = [_ROUNDS[name] for name in ("points", "expected", "k", "change", "cumulative_change")]
    rows = [(_head(_ROUNDS["round"]), _head(_ROUNDS["opponent_name"]),
             _head(_ROUNDS["opponent_rating"]), *map(_head, shown),
             *(text for text, _ in extra), "Note")]
    for ln in pr.rounds:
        opponent = report.player(ln.opponent_no) if ln.opponent_no is not None else None
        row = RoundRow(start_no, ln, opponent)
        cells = [c.text for columns, own_lines in beside
                 for c in page_cells(columns, own_lines.get(ln.round))]
        rows.append((_text(_ROUNDS["round"], row), _text(_ROUNDS["opponent_name"], row),
                     "" if ln.opponent_rating is None
                     else f"{ln.opponent_rating}{'*' if ln.capped else ''}",
                     *(_text(c, row) for c in shown), *cells,
                     "" if ln.rated else f"not rated: {ln.reason}"))
    note = 8 + len(extra)
    if pr.rounds:  # a ranking page alone shows none: no empty table
        lines += fmt.text_table(rows, left={1, note} | {8 + i for i, (_, numeric)
                                                        in enumerate(extra) if not numeric})
        lines.append("")
    if not p.rating_known:
        lines.append("No rated games: with the rating unknown, no game is rated")
    elif pr.rating is None:
        lines.append("No rated games: without a rating, no game changes one")
    elif not computed(pr):  # a ranking page alone: its figures are the source's, never 0
        lines.append(_published_words(p))
    else:
        lines.append(f"Rated games {pr.rated_games}, score {fmt.points(pr.score)}, expected "
                     f"{fmt.change(pr.expected)}")
        lines.append(f"Change {fmt.signed(pr.change)} → {fmt.signed(rounded_change(pr))} → "
                     f"new rating {pr.new_rating}")
    lines += _beside_lines(report, start_no)
    if pr.performance is not None:
        lines.append(f"Performance {pr.performance}")
    if pr.initial is not None:
        lines.append(f"First rating {pr.initial.value}" if pr.initial.published
                     else f"No first rating yet: {pr.initial.reason}")
        lines += [f"  {what}: {how}" for what, how in initial_workings(pr.initial)]
    for s in pr.scenarios:
        opp = report.player(s.opponent_no).name
        if not s.rated or pr.rating is None:
            lines.append(f"Round {s.round} v {opp}: not rated ({s.reason}), the change stays "
                         f"{fmt.signed(pr.change)}")
            continue
        outcomes = ", ".join(
            f"{word} {fmt.signed(change)} → {'no rating' if new is None else new}"
            for word, change, new in (("win", s.win, s.new_if_win),
                                      ("draw", s.draw, s.new_if_draw),
                                      ("loss", s.loss, s.new_if_loss)))
        assumed = " assumed" if pr.k_source.value == "default" else ""
        lines.append(f"Round {s.round} v {opp} ({s.opponent_rating}), K {s.k}{assumed}: "
                     f"{outcomes}")
    needs = needs_view(report, start_no)
    if needs is not None:
        lines += needs_lines(needs)
    lists = lists_view(report, start_no)
    if lists is not None:
        lines += lists_lines(lists)
    return "\n".join(lines)


def _beside_lines(report: Report, start_no: int) -> list[str]:
    """A player's figures under each system rated beside the main one."""
    out = []
    for b in report.beside:
        pr = b.rating.player(start_no)
        label = b.rating.label
        if pr is None or pr.rating is None:
            out.append(f"{label}: none")
            continue
        new = ("" if pr.new_rating is None
               else f" → {fmt.signed(rounded_change(pr))} → new {label} {pr.new_rating}")
        out.append(f"{label} {pr.rating}, K {pr.k}: change {fmt.signed(pr.change)}{new}")
    return out


def render_players(report: Report) -> str:
    """Every shown player's totals."""
    extra = [h for b in report.beside for h in page_headers(b.system.player_columns, short=True)]
    first = [_PLAYERS[name] for name in ("start_no", "name", "rating", "k", "points",
                                         "rated_games", "score", "expected")]
    change, new, perf = _PLAYERS["change"], _PLAYERS["new_rating"], _PLAYERS["performance"]
    rows = [(*map(_head, first), _head(change), _head(new), _head(perf),
             *(text for text, _ in extra))]
    for pr in report.shown:
        p = report.player(pr.start_no)
        row = PlayerRow(pr, p)
        cells = [c.text for b in report.beside
                 for c in page_cells(b.system.player_columns, b.rating.player(pr.start_no))]
        ours = computed(pr)  # a ranking page alone shows no game: its change is the source's
        figures = [_text(c, row) if ours or c.name in _ALWAYS else "" for c in first]
        if not ours:
            shown = (f"{fmt.signed(p.rating_change)} published" if p.rating_change is not None
                     else "unknown")
            rows.append((*figures, shown if pr.rating is not None else "", "",
                         _text(perf, row), *cells))
            continue
        rows.append((*figures,
                     (f"{_text(change, row)} → {_text(_PLAYERS['rounded_change'], row)}"
                      if pr.rating is not None else ""),
                     _new_cell(pr), _text(perf, row), *cells))
    left = {1} | {11 + i for i, (_, numeric) in enumerate(extra) if not numeric}
    return "\n".join(fmt.text_table(rows, left=left))


_ALWAYS = frozenset({"start_no", "name", "rating", "k", "points"})
"""The columns a player's row shows even when the source shows none of their games."""


def _new_cell(pr: PlayerRating) -> str:
    """The new rating; for a player without one, a first rating ('1604 first') or the games
    it still needs ('3 of 5')."""
    if pr.new_rating is not None:
        return str(pr.new_rating)
    i = pr.initial
    if i is None:
        return ""
    if i.published:
        return f"{i.value} first"
    return f"{i.games} of {i.min_games}" if i.games < i.min_games else ""


def render_published(report: Report) -> list[str]:
    """Our figures against the source's published ones: a summary line per figure, each
    disagreement with both figures, and how each figure is computed."""
    view = published_view(report)
    if view is None:
        return []
    lines = [""]
    for f in view.figures:
        lines.append(f"{f.summary}.")
        lines += [f"  {row}" for row in f.disagreements]
        lines.append(f"  ({f.method})")
    lines += [f"note: {n}" for n in view.notes]
    return lines


K_HINT = "; give --k, or --ratings-list for the list's K"
_ITEMS = 10
"""Players listed under a note in the terminal; the pages list them all."""


def terminal_notes(report: Report) -> list[str]:
    """The report's notes as terminal lines ('note: …', then one line per player concerned),
    with the option that changes an assumed K (terminals only)."""
    lines = []
    for n in report.notes:
        text = n.text
        base = text.removesuffix(".")
        if report.k_note and base == report.k_note.removesuffix("."):  # the hint in the sentence
            text = base + K_HINT + text[len(base):]
        lines.append(f"note: {text}")
        lines += fmt.first_few(n.items, _ITEMS, indent="  ")
    return lines


def render_text(report: Report) -> str:
    """What ``fiderate report`` prints without --out: the focus player, else everyone."""
    body = (render_rounds(report, report.focus) if report.focus is not None
            else render_players(report))
    notes = terminal_notes(report)
    return "\n".join([*_title(report), body, *render_published(report),
                      *([""] if notes else []), *notes])


_NORM_HEADS = {"start_no": "No", "name": "Name", "norm": "Norm", "result": "Result",
               "rounds": "Rounds", "games": "Games", "application_games": "Appl.",
               "score": "Score", "ra": "Ra", "performance": "Rp"}
"""The columns of norms.csv the terminal's table shows, with its headers."""


def render_norms(report: Report) -> str:
    """What ``fiderate report --norms-only`` prints: the norms achieved, possible or not
    decidable, each with what is missing, then what no source shows."""
    i = report.tournament.info
    given = event_class_words(report)
    lines = [f"{i.name or 'Tournament'}: title norms ({regulations(report)}"
             + (f", {given}" if given else "") + ")", ""]
    checks = shown_norms(report)
    if not checks:
        lines.append("No title norm achieved or possible.")
        return "\n".join(lines)
    columns = [c for c in NORMS if c.name in _NORM_HEADS]
    rows = [(*(_NORM_HEADS[c.name] for c in columns), "Ra floor")]
    for check in checks:
        rows.append((*(page_text(c.form, c.value(check)) for c in columns),
                     "raised" if check.ra_floor_raised else ""))
    lines += fmt.text_table(rows, left={1, 2, 3, 4, len(rows[0]) - 1})
    lines.append("")
    common = unchecked_by_all(checks)
    for check in checks:
        said = [w for w in (needs_words(report, check), check.exemption and
                            f"exempt from the federation conditions: {check.exemption}") if w]
        said += check.reasons
        said += [f"not checked: {w}" for w in not_checked(check) if w not in common]
        if said:
            lines.append(f"{check.start_no} {check.name}, {check.norm.value}: {'; '.join(said)}")
    lines += [f"not checked: {w}" for w in common]
    return "\n".join(lines)
