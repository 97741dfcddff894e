"""Rashomon sets: every tree whose objective is within a bound of the best.

The set itself is :class:`RashomonSet`; :func:`treeopt.rashomon_set` (``treeopt/rashomon_sets.py``,
a front end) builds one from a table.
"""
from treeopt.rashomon.counting import rashomon_count
from treeopt.rashomon.rashomon_set import RashomonSet
from treeopt.rashomon.stepwise import RashomonSearch

__all__ = ["RashomonSearch", "RashomonSet", "rashomon_count"]
