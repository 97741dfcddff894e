"""The ``treeopt`` command line: ``demo``, ``fit``, ``ablation`` and ``frontier``.

:mod:`treeopt.cli.commands` holds the parser and ``demo``/``fit``; each other subcommand has its
own module (:mod:`treeopt.cli.ablation`, :mod:`treeopt.cli.frontier`), and
:mod:`treeopt.cli.tables` reads the input files for all of them.
"""

from .commands import COMMANDS, main

__all__ = ["main", "COMMANDS"]
