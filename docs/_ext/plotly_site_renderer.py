"""IPython start-up file for the kernels that execute the notebooks of the documentation site.

``offline_pages`` copies this file into the start-up folder of an IPython profile used only by the
docs build. It makes plotly figures display as HTML that draws with the ``Plotly`` object of the
page (the site loads plotly.js from its own ``_static`` folder), instead of plotly's notebook
renderers, which inline the whole library in every page or load it, and MathJax, from a CDN.
"""

import plotly.io as pio
from plotly.io.base_renderers import MimetypeRenderer


class SiteRenderer(MimetypeRenderer):
    """A figure as a ``<div>`` and the ``Plotly.newPlot`` call that fills it, without plotly.js."""

    def to_mimebundle(self, fig_dict):
        html = pio.to_html(fig_dict, include_plotlyjs=False, include_mathjax=False, full_html=False)
        return {"text/html": html}


pio.renderers["treeopt_site"] = SiteRenderer()
pio.renderers.default = "treeopt_site"
