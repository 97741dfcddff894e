"""Rashomon sets: every tree whose objective is within a bound of the best."""
from treeopt.rashomon.counting import rashomon_count, rashomon_table

__all__ = ["rashomon_count", "rashomon_table"]
