"""Chart drawing: SVGs of a game's race and round scores, a season's leaders night by night and
a player's monthly averages, each from plain data through its own `Figure()`.

No database and no Flask here: callers pass names, round labels, scores and already
translated text. matplotlib is imported on the first chart (it costs ~0.7 s), never at app
import, and only through `matplotlib.figure.Figure` (pyplot keeps figures alive in a server).
The bytes are deterministic for the same input, so they can be cached and compared.
"""

from __future__ import annotations

import html
import io
import math
import re
import textwrap
import threading
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

# Names in scripts DejaVu lacks (Devanagari...) are measured with a fallback glyph; as text in
# the SVG the browser still draws them with its own fonts. Ignored for the whole process:
# warnings.catch_warnings around one drawing is not thread-safe (a server draws two charts at
# once, and one thread's exit put back filters the other still needed).
GLYPH_MISSING = r"Glyph \d+ .*missing from font"
warnings.filterwarnings("ignore", message=GLYPH_MISSING, category=UserWarning)

# Charts are drawn for a phone: a page shows them 326 CSS px wide at 360 px, so a figure 4.2 in
# (302 pt) wide is scaled by ~1.08 and 11.5 pt text shows at ~12.4 px (at 6.4 in and 9 pt it
# was ~6 px). Wider screens cap the picture's width (static/css/app.css), and print scales it.
WIDTH = 4.2  # inches
# Text sizes in points: the smallest (ticks, legend, panel scales) still reads at 12 CSS px.
SMALL = 11.5
NORMAL = 12
TITLE = 13
# Bumped whenever the look changes (sizes, colours, layout): it is part of every chart's cache
# file name, so a phone never gets a file drawn in the old style.
STYLE = 4
# Okabe-Ito colours (told apart with the common colour blindnesses) and Tol's wine: 8 players
# get 8 colours; beyond that the line style shifts, so no two of 14 share colour and style.
# Every player also has a marker of their own: the lines read in grey print.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#882255")
LINESTYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p", "d", "8")
# Fixed once for the process (rc_context is not thread-safe); this module is the only user.
RC: dict[RcKeyType, Any] = {
    # Text stays text: smaller files, searchable, and the browser's fonts cover every script.
    "svg.fonttype": "none",
    # Without a fixed salt, clip-path ids are random and the bytes change on every render.
    "svg.hashsalt": "scorekeeper",
    "font.family": "sans-serif",
    # Measured with the bundled DejaVu; the SVG then says "DejaVu Sans, sans-serif" (short).
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": NORMAL,
    "xtick.labelsize": SMALL,
    "ytick.labelsize": SMALL,
    "legend.fontsize": SMALL,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": TITLE,
    "axes.titleweight": "bold",
}
METADATA = {"Date": None, "Creator": None}

_setup_lock = threading.Lock()
_ready = False


def _matplotlib() -> None:
    """Import matplotlib and apply RC, once per process."""
    global _ready
    with _setup_lock:
        if not _ready:
            import matplotlib

            matplotlib.rcParams.update(RC)
            _ready = True


def style(index: int) -> dict[str, Any]:
    """Colour, line style and marker of the player in seat `index` (readable in grey print)."""
    return {
        "color": COLOURS[index % len(COLOURS)],
        "linestyle": LINESTYLES[(index + index // len(COLOURS)) % len(LINESTYLES)],
        "marker": MARKERS[index % len(MARKERS)],
    }


def _tick_step(count: int, room: int) -> int:
    """Label every n-th round so that at most `room` labels share an axis."""
    return max(1, math.ceil(count / room))


def _set_round_ticks(ax: Axes, rounds: Sequence[str], room: int) -> None:
    step = _tick_step(len(rounds), room)
    positions = list(range(0, len(rounds), step))
    ax.set_xticks(positions, labels=[rounds[i] for i in positions])
    ax.set_xlim(-0.6, max(len(rounds), 1) - 0.4)


def _set_day_ticks(ax: Axes, days: Sequence[str], room: int) -> None:
    """An axis of games named by their day: each day is labelled once, at its first game (three
    games of one evening are one date, not the same date three times), at most `room` labels."""
    firsts = [i for i, day in enumerate(days) if i == 0 or days[i - 1] != day]
    shown = firsts[:: _tick_step(len(firsts), room)]
    ax.set_xticks(shown, labels=[days[i] for i in shown])
    ax.set_xlim(-0.6, max(len(days), 1) - 0.4)


def _plain(text: str) -> str:
    """Text shown as typed: matplotlib would read a pair of $ signs as a formula."""
    return text.replace("$", r"\$")


def _short(name: str, limit: int) -> str:
    """A name cut to `limit` characters, so a long one cannot push the others off the chart."""
    return _plain(name if len(name) <= limit else name[: limit - 1].rstrip() + "\u2026")


def _title(text: str, width: float) -> tuple[str, float]:
    """The title, wrapped to the figure's width, and the extra room (inches) its lines need."""
    # DejaVu Sans Bold averages ~0.62 em a character.
    room = max(10, int((width - 0.2) * 72 / (TITLE * 0.62)))
    lines = textwrap.wrap(text, room) or [""]
    return "\n".join(lines[:2]), 0.24 * (min(len(lines), 2) - 1)


def _place(
    fig: Figure,
    *,
    left: float,
    right: float,
    top: float,
    bottom: float,
    rows: int = 1,
    columns: int = 1,
    row_gap: float = 0.0,
    column_gap: float = 0.0,
) -> None:
    """Fixed margins and gaps, in inches (constrained layout would double the render time)."""
    width, height = fig.get_size_inches()
    panel_w = (width - left - right - (columns - 1) * column_gap) / columns
    panel_h = (height - top - bottom - (rows - 1) * row_gap) / rows
    fig.subplots_adjust(
        left=left / width,
        right=1 - right / width,
        top=1 - top / height,
        bottom=bottom / height,
        wspace=column_gap / panel_w,
        hspace=row_gap / panel_h,
    )


# matplotlib's one style sheet: every element's default line joins and caps.
_SHEET = '<style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style>'
_DEFAULTS = (("stroke-linejoin", "round"), ("stroke-linecap", "butt"))
_DRAWN = re.compile(r"<(path|use|line|polyline|polygon|rect|circle|ellipse)\b([^>]*?)(/?)>")
_STYLE_ATTRIBUTE = re.compile(r'\sstyle="([^"]*)"')


def _attributes(style: str) -> str:
    """`fill: #fff; stroke-width: 0.8` as presentation attributes: ` fill="#fff" ...`."""
    pairs = (part.split(":", 1) for part in style.split(";") if ":" in part)
    return "".join(f" {name.strip()}={quoteattr(value.strip())}" for name, value in pairs)


def _presentational(svg: str) -> str:
    """The SVG with no CSS in it: each style="..." becomes presentation attributes (every
    property matplotlib writes is one), and the style sheet's defaults go on each drawn
    element that sets none, as the sheet did. So the chart's own Content-Security-Policy
    needs no 'unsafe-inline' (responses.SVG_POLICY) and the look is unchanged."""
    svg = _STYLE_ATTRIBUTE.sub(lambda m: _attributes(html.unescape(m[1])), svg.replace(_SHEET, ""))

    def drawn(match: re.Match[str]) -> str:
        attributes = match[2]
        for name, value in _DEFAULTS:
            if f" {name}=" not in attributes:
                attributes += f' {name}="{value}"'
        return f"<{match[1]}{attributes}{match[3]}>"

    return _DRAWN.sub(drawn, svg)


def _svg(fig: Figure, title: str) -> bytes:
    """The figure as SVG bytes, with a <title> for screen readers and the browser's tooltip."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata=METADATA)
    data = _presentational(buffer.getvalue().decode("utf-8")).encode("utf-8")
    start = data.find(b"<svg")
    end = data.find(b">", start) + 1
    label = b"\n <title>" + escape(title).encode("utf-8") + b"</title>"
    return data[:end] + label + data[end:]


def _lines_figure(
    count: int,
    columns: int,
    *,
    width: float,
    height: float,
    row: float,
    left: float,
    right: float,
    top: float,
) -> tuple[Figure, Axes]:
    """A figure of one Axes above a legend of `count` entries in `columns` columns (inches:
    `height` besides the legend, `row` per legend row)."""
    from matplotlib.figure import Figure

    legend_height = row * math.ceil(count / columns) + 0.08
    fig = Figure(figsize=(width, height + legend_height + top))
    ax = fig.add_subplot()
    _place(fig, left=left, right=right, top=top, bottom=0.66 + legend_height)
    return fig, ax


def _legend(
    fig: Figure, handles: Sequence[Any], labels: Sequence[str], columns: int, **more: Any
) -> None:
    """The legend centred under the Axes, without a frame."""
    fig.legend(
        handles,
        labels,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.02),
        ncols=columns,
        frameon=False,
        fontsize=SMALL,
        columnspacing=1.2,
        **more,
    )


def _finish(fig: Figure, ax: Axes, width: float, title: str, xlabel: str, ylabel: str) -> bytes:
    """Grid, title and axis labels of a one-Axes chart, then its SVG bytes."""
    ax.grid(axis="y", color="#cccccc", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_title(_plain(_title(title, width)[0]))
    ax.set_xlabel(_plain(xlabel))
    # Beside the figure's edge, not the tick labels, so wide figures cannot push it off.
    fig.text(0.04 / width, 0.5, _plain(ylabel), rotation=90, ha="left", va="center")
    return _svg(fig, title)


def race_chart(
    names: Sequence[str],
    rounds: Sequence[str],
    running_totals: Mapping[str, Sequence[int]],
    *,
    higher_wins: bool,
    title: str,
    xlabel: str,
    ylabel: str,
) -> bytes:
    """Running totals by round, one line per player, legend ordered leader first (SVG bytes).

    `rounds` labels every x position (the whole schedule may be longer than the rounds
    played); each player's totals cover the rounds played so far.
    """
    _matplotlib()
    from matplotlib.ticker import MaxNLocator

    columns = min(len(names), 2) or 1
    top = 0.36 + _title(title, WIDTH)[1]
    fig, ax = _lines_figure(
        len(names), columns, width=WIDTH, height=3.1, row=0.24, left=0.72, right=0.15, top=top
    )
    handles = []
    for index, name in enumerate(names):
        totals = list(running_totals.get(name, ()))
        (line,) = ax.plot(
            range(len(totals)), totals, linewidth=1.6, markersize=5, clip_on=False, **style(index)
        )
        handles.append(line)

    def final(index: int) -> int:
        totals = running_totals.get(names[index], ())
        return totals[-1] if totals else 0

    ranked = sorted(range(len(names)), key=lambda i: (-final(i) if higher_wins else final(i), i))
    # The legend fills column by column; reorder so that it reads by rows, leader first.
    order = [ranked[k] for c in range(columns) for k in range(c, len(ranked), columns)]
    limit = {1: 30}.get(columns, 13)
    _legend(
        fig,
        [handles[i] for i in order],
        [f"{_short(names[i], limit)} ({final(i)})" for i in order],
        columns,
        handlelength=2.4,
    )
    _set_round_ticks(ax, rounds, room=9)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    values = [total for name in names for total in running_totals.get(name, ())]
    low, high = min([0, *values]), max([10, *values])  # 10: a scale even before round 1
    ax.set_ylim(low, high + 0.04 * (high - low))
    return _finish(fig, ax, WIDTH, title, xlabel, ylabel)


def rounds_chart(
    names: Sequence[str],
    rounds: Sequence[str],
    round_scores: Mapping[str, Sequence[int]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
) -> bytes:
    """Each player's round scores as a small bar chart of their own, on one shared scale.

    Small multiples stay readable from 2 to 14 players where grouped bars would not; a round
    scored 0 (the player went out) gets a star on the baseline, since its bar is invisible.
    All panels are drawn on one hidden Axes: a real Axes per player costs ~45 ms each.
    """
    _matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    count = max(len(names), 1)
    columns = 1 if count == 1 else 2 if count <= 8 else 3
    rows = math.ceil(count / columns)
    slots = max(len(rounds), *(len(s) for s in round_scores.values()), 1)
    # Inches: margins around the panels, the gaps between them, and a panel's height.
    shown_title, extra = _title(title, WIDTH)
    left, right, top, bottom = 0.72, 0.1, 0.5 + extra, 0.62
    column_gap, row_gap, panel_h = 0.22, 0.42, 0.95
    plot_h = rows * panel_h + (rows - 1) * row_gap
    height = top + plot_h + bottom
    plot_w = WIDTH - left - right
    panel_w = (plot_w - (columns - 1) * column_gap) / columns
    slot = panel_w / slots
    fig = Figure(figsize=(WIDTH, height))
    ax = fig.add_axes((left / WIDTH, bottom / height, plot_w / WIDTH, plot_h / height))
    ax.set_axis_off()
    # Data coordinates are inches from the lower-left corner of the panels.
    ax.set_xlim(0, plot_w)
    ax.set_ylim(0, plot_h)

    scores_seen = [score for name in names for score in round_scores.get(name, ())]
    ticks = [
        int(t)
        for t in MaxNLocator(nbins=4, integer=True).tick_values(
            min([0, *scores_seen]), max([10, *scores_seen])
        )
    ]
    low, high = ticks[0], ticks[-1]

    def origin(index: int) -> tuple[float, float]:
        row, column = divmod(index, columns)
        return column * (panel_w + column_gap), (rows - 1 - row) * (panel_h + row_gap)

    def y_of(y0: float, score: float) -> float:
        return y0 + (score - low) * panel_h / (high - low)

    grid: list[tuple[float, float, float]] = []
    frame: list[tuple[float, float, float]] = []
    zero: list[tuple[float, float, float]] = []
    # A round label takes about two and a half characters' room.
    step = _tick_step(slots, max(2, int(panel_w * 72 / (SMALL * 1.6))))
    for index, name in enumerate(names):
        x0, y0 = origin(index)
        column = index % columns
        grid += [(y_of(y0, t), x0, x0 + panel_w) for t in ticks if t != 0]
        zero.append((y_of(y0, 0), x0, x0 + panel_w))
        frame.append((x0, y0, y0 + panel_h))
        scores = list(round_scores.get(name, ()))
        xs = [x0 + (i + 0.5) * slot for i in range(len(scores))]
        ax.vlines(
            xs,
            y_of(y0, 0),
            [y_of(y0, s) for s in scores],
            colors=style(index)["color"],
            linewidth=0.7 * slot * 72,
            capstyle="butt",
            clip_on=False,
        )
        went_out = [x for x, score in zip(xs, scores, strict=True) if score == 0]
        if went_out:
            ax.plot(
                went_out, [y_of(y0, 0)] * len(went_out), "k*", markersize=7, clip_on=False, zorder=3
            )
        ax.text(
            x0,
            y0 + panel_h + 0.05,
            _short(name, {1: 36, 2: 16}.get(columns, 10)),
            fontsize=NORMAL,
            fontweight="bold",
            va="bottom",
        )
        if column == 0:
            for t in ticks:
                ax.text(-0.06, y_of(y0, t), str(t), fontsize=SMALL, ha="right", va="center")
        if index + columns >= len(names):  # the lowest panel of its column
            for i in range(0, slots, step):
                label = rounds[i] if i < len(rounds) else str(i + 1)
                ax.text(
                    x0 + (i + 0.5) * slot, y0 - 0.06, label, fontsize=SMALL, ha="center", va="top"
                )
    if grid:
        at, start, end = zip(*grid, strict=True)
        ax.hlines(at, start, end, colors="#dddddd", linewidth=0.5, zorder=0.5)
    if names:
        at, start, end = zip(*zero, strict=True)
        ax.hlines(at, start, end, colors="#555555", linewidth=0.7, clip_on=False)
        at, start, end = zip(*frame, strict=True)
        ax.vlines(at, start, end, colors="#555555", linewidth=0.7, clip_on=False)
    fig.text(
        0.5,
        1 - 0.08 / height,
        _plain(shown_title),
        fontsize=TITLE,
        fontweight="bold",
        ha="center",
        va="top",
    )
    fig.text(0.5, 0.04 / height, _plain(xlabel), fontsize=NORMAL, ha="center", va="bottom")
    fig.text(
        0.04 / WIDTH, 0.5, _plain(ylabel), fontsize=NORMAL, rotation=90, ha="left", va="center"
    )
    return _svg(fig, title)


def player_chart(
    months: Sequence[str],
    averages: Sequence[float],
    running: Sequence[float],
    *,
    title: str,
    month_label: str,
    running_label: str,
    xlabel: str,
    ylabel: str,
) -> bytes:
    """One player's average score per round by month: a bar per month (that month's average)
    and a line of the running average since their first game (SVG bytes).

    `months` labels each bar; both series have one value per month, in order.
    """
    _matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    width = WIDTH
    extra = _title(title, width)[1]
    fig = Figure(figsize=(width, 3.2 + extra))
    ax = fig.add_subplot()
    _place(fig, left=0.62, right=0.15, top=0.36 + extra, bottom=0.95)
    xs = list(range(len(months)))
    bars = ax.bar(
        xs, list(averages), width=0.6, color="#9ecae1", edgecolor="#0072B2", linewidth=0.6
    )
    (line,) = ax.plot(
        xs, list(running), color="#D55E00", marker="o", markersize=5, linewidth=1.8, clip_on=False
    )
    _set_round_ticks(ax, [_short(m, 9) for m in months], room=4)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
    high = max([5.0, *averages, *running])
    ax.set_ylim(0, high * 1.08)
    _legend(fig, [bars, line], [_short(month_label, 20), _short(running_label, 20)], 2)
    return _finish(fig, ax, width, title, xlabel, ylabel)


def rating_chart(
    labels: Sequence[str],
    ratings: Sequence[int],
    *,
    newcomer: int,
    title: str,
    xlabel: str,
    ylabel: str,
) -> bytes:
    """One player's rating after each of their games, a line with a dashed level where every
    newcomer starts (SVG bytes). `labels` name the games (their dates), one per rating."""
    _matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    width = WIDTH
    extra = _title(title, width)[1]
    fig = Figure(figsize=(width, 3.0 + extra))
    ax = fig.add_subplot()
    _place(fig, left=0.72, right=0.15, top=0.36 + extra, bottom=0.75)
    xs = list(range(len(ratings)))
    few = len(xs) <= 30
    ax.axhline(newcomer, color="#777777", linewidth=0.9, linestyle="--")
    ax.plot(
        xs,
        list(ratings),
        color="#0072B2",
        marker="o" if few else None,
        markersize=4,
        linewidth=1.8,
        clip_on=False,
    )
    _set_day_ticks(ax, [_short(label, 9) for label in labels], room=3)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
    low, high = min([newcomer, *ratings]), max([newcomer, *ratings])
    pad = max(10.0, 0.08 * (high - low))
    ax.set_ylim(low - pad, high + pad)
    return _finish(fig, ax, width, title, xlabel, ylabel)


def season_chart(
    names: Sequence[str],
    nights: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    legend_values: Sequence[str],
    *,
    higher_is_better: bool,
    title: str,
    xlabel: str,
    ylabel: str,
) -> bytes:
    """A season's leaders after each club night (cumulative points or wins, or the running
    average per round), one line per player, legend in `names` order (SVG bytes).

    `series[name][i]` is the player's figure after night i (None before their first game: the
    line starts at their first night). Each player keeps a colour, a line style and a marker,
    so the chart reads in black-and-white print; `legend_values` are the final figures as text.
    """
    _matplotlib()
    from matplotlib.ticker import MaxNLocator

    width = WIDTH
    columns = min(len(names), 2) or 1
    top = 0.36 + _title(title, width)[1]
    fig, ax = _lines_figure(
        len(names), columns, width=width, height=2.9, row=0.24, left=0.62, right=0.15, top=top
    )
    handles = []
    for index, name in enumerate(names):
        points = [(x, y) for x, y in enumerate(series.get(name, ())) if y is not None]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        # Markers only where a line has few points: 50 nights of markers would be a smudge.
        few = len(nights) <= 16
        (line,) = ax.plot(
            xs,
            ys,
            linewidth=1.6,
            markersize=5 if few else 4,
            markevery=1 if few else max(1, len(nights) // 8),
            clip_on=False,
            **style(index),
        )
        handles.append(line)
    _legend(
        fig,
        handles,
        [
            f"{_short(name, 13 if columns == 2 else 30)} ({value})"
            for name, value in zip(names, legend_values, strict=True)
        ],
        columns,
        handlelength=3,
    )
    _set_round_ticks(ax, list(nights), room=4)
    if higher_is_better:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    values = [y for name in names for y in series.get(name, ()) if y is not None]
    low = min([0.0, *values])
    high = max([1.0, *values])
    ax.set_ylim(low, high + 0.04 * (high - low))
    return _finish(fig, ax, width, title, xlabel, ylabel)


# A race chart is a sparkline: no text, a line of places over the season's nights. Small
# enough to sit in a table row on a phone (~96 x 28 CSS px) and on the printed page.
SPARK_WIDTH = 1.3  # inches
SPARK_HEIGHT = 0.36


def race_sparkline(places: Sequence[int | None], nights: int, ranked: int, *, title: str) -> bytes:
    """One player's place after each of the season's `nights` (1st at the top, `ranked` at the
    bottom, the same scale for every player), a dot at the last; None: not ranked that night.
    A dotted line marks 1st place. No words: `title` (the player's name) is its <title>."""
    _matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(SPARK_WIDTH, SPARK_HEIGHT))
    ax = fig.add_axes((0.03, 0.12, 0.9, 0.76))
    ax.set_axis_off()
    bottom = max(ranked, 2)
    ax.set_ylim(bottom + 0.3, 0.7)
    ax.set_xlim(-0.3, max(nights - 1, 1) + 0.3)
    ax.axhline(1, color="#777777", linewidth=0.7, linestyle=(0, (1, 2)))
    points = [(x, y) for x, y in enumerate(places) if y is not None]
    if points:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        ax.plot(xs, ys, color=COLOURS[0], linewidth=1.4, solid_joinstyle="round")
        ax.plot(xs[-1:], ys[-1:], color=COLOURS[0], marker="o", markersize=3.2, clip_on=False)
    return _svg(fig, title)
