"""Small pure-Python SVG charts: the static fallback of the plotly views.

A notebook saved with live widgets shows nothing on GitHub or nbviewer, and
plotly's static export needs a browser (kaleido). These functions write a
plain SVG line or bar chart with no dependency at all, so every view can put
an ``image/svg+xml`` picture in its ``_repr_mimebundle_`` and ``save()`` it.
"""

from __future__ import annotations

import math
from html import escape

__all__ = ["line_chart_svg", "bar_chart_svg"]

WIDTH, HEIGHT = 520, 320
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 30, 45


def _ticks(low: float, high: float, n: int = 5) -> list[float]:
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low]
    raw = (high - low) / n
    magnitude = 10 ** math.floor(math.log10(raw))
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw), default=raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def _label(value: float) -> str:
    return f"{value:.4g}"


def line_chart_svg(series: list, *, title: str = "", x_label: str = "", y_label: str = "",
                   fill_between: tuple | None = None, shade_x: tuple | None = None,
                   x_range: tuple | None = None, y_range: tuple | None = None,
                   width: int = WIDTH, height: int = HEIGHT) -> str:
    """An SVG line chart.

    Parameters
    ----------
    series : list of dict
        Each with ``x``, ``y`` (sequences), ``name``, optional ``color``,
        ``step`` (draw as a staircase, value held until the next x),
        ``markers`` (list of indices to mark with a dot) and ``dash``.
    title, x_label, y_label : str
    fill_between : (int, int), optional
        Shade the area between two step series (indices into ``series``),
        e.g. the optimality gap between lower and upper bound.
    shade_x : (float, float), optional
        Shade a vertical band, e.g. the partial-AUC region.
    x_range, y_range : (float, float), optional
        Fixed axis ranges (default: the data's).

    Returns
    -------
    str

    Examples
    --------
    >>> svg = line_chart_svg([{"x": [0, 1, 2], "y": [3, 2, 2], "name": "upper"}], title="t")
    >>> svg.startswith("<svg") and "upper" in svg and "<polyline" in svg
    True
    """
    xs = [float(v) for s in series for v in s["x"]]
    ys = [float(v) for s in series for v in s["y"]]
    x0, x1 = x_range if x_range else ((min(xs), max(xs)) if xs else (0.0, 1.0))
    y0, y1 = y_range if y_range else ((min(ys), max(ys)) if ys else (0.0, 1.0))
    if x1 <= x0:
        x1 = x0 + 1.0
    if y1 <= y0:
        pad = abs(y0) * 0.1 or 0.1
        y0, y1 = y0 - pad, y1 + pad
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM

    def px(x):
        return LEFT + (float(x) - x0) / (x1 - x0) * plot_w

    def py(y):
        return TOP + plot_h - (float(y) - y0) / (y1 - y0) * plot_h

    def path_points(s):
        pts = []
        x, y = list(s["x"]), list(s["y"])
        for i in range(len(x)):
            if s.get("step") and i > 0:
                pts.append((px(x[i]), py(y[i - 1])))
            pts.append((px(x[i]), py(y[i])))
        return pts

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="11">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>']
    if title:
        out.append(f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="13" '
                   f'font-weight="bold">{escape(title)}</text>')
    if shade_x is not None:
        a, b = px(max(shade_x[0], x0)), px(min(shade_x[1], x1))
        out.append(f'<rect x="{a:.1f}" y="{TOP}" width="{max(b - a, 0):.1f}" height="{plot_h}" '
                   'fill="#bcbd22" fill-opacity="0.15"/>')
    if fill_between is not None:
        low, high = (path_points(series[i]) for i in fill_between)
        if low and high:
            polygon = high + list(reversed(low))
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in polygon)
            out.append(f'<polygon points="{points}" fill="#1f77b4" fill-opacity="0.15" stroke="none"/>')
    for t in _ticks(y0, y1):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{py(t):.1f}" y2="{py(t):.1f}" '
                   'stroke="#eeeeee"/>')
        out.append(f'<text x="{LEFT - 4}" y="{py(t) + 4:.1f}" text-anchor="end">{_label(t)}</text>')
    for t in _ticks(x0, x1):
        out.append(f'<text x="{px(t):.1f}" y="{TOP + plot_h + 14}" text-anchor="middle">{_label(t)}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888888"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{height - 8}" text-anchor="middle">{escape(x_label)}</text>')
    out.append(f'<text x="14" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {TOP + plot_h / 2})">{escape(y_label)}</text>')
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"]
    for k, s in enumerate(series):
        color = s.get("color", palette[k % len(palette)])
        pts = path_points(s)
        dash = ' stroke-dasharray="5,4"' if s.get("dash") else ""
        if pts:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            out.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        for i in s.get("markers", []):
            out.append(f'<circle cx="{px(s["x"][i]):.1f}" cy="{py(s["y"][i]):.1f}" r="4" fill="{color}"/>')
        ly = TOP + 12 + 14 * k
        out.append(f'<line x1="{LEFT + 8}" x2="{LEFT + 26}" y1="{ly - 4}" y2="{ly - 4}" stroke="{color}" '
                   f'stroke-width="2"{dash}/>')
        out.append(f'<text x="{LEFT + 30}" y="{ly}">{escape(str(s.get("name", "")))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def bar_chart_svg(labels: list, values: list, *, title: str = "", width: int = WIDTH,
                  color: str = "#1f77b4") -> str:
    """A horizontal SVG bar chart.

    Examples
    --------
    >>> svg = bar_chart_svg(["lookahead", "hierarchical"], [3, 10], title="prunes")
    >>> svg.count("<rect") - 1, "lookahead" in svg
    (2, True)
    """
    row = 22
    label_w = max([len(str(v)) for v in labels] + [4]) * 6.5 + 10
    height = TOP + row * len(labels) + 20
    top = max([float(v) for v in values] + [1.0])
    bar_w = width - label_w - 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
           f'viewBox="0 0 {width} {height:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="11">',
           f'<rect x="0" y="0" width="{width}" height="{height:.0f}" fill="white"/>']
    if title:
        out.append(f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="13" '
                   f'font-weight="bold">{escape(title)}</text>')
    for i, (label, value) in enumerate(zip(labels, values)):
        y = TOP + i * row
        w = float(value) / top * bar_w
        out.append(f'<text x="{label_w - 6:.0f}" y="{y + 14}" text-anchor="end">{escape(str(label))}</text>')
        out.append(f'<rect x="{label_w:.0f}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" fill="{color}"/>')
        out.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 14}">{_label(float(value))}</text>')
    out.append("</svg>")
    return "\n".join(out)
