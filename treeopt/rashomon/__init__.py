"""Rashomon sets: every tree whose objective is within a bound of the best."""
from treeopt.rashomon.counting import rashomon_count
from treeopt.rashomon.rashomon_set import RashomonSet, rashomon_set
from treeopt.rashomon.stepwise import RashomonSearch

__all__ = ["RashomonSearch", "RashomonSet", "rashomon_count", "rashomon_set"]
