"""What a plug-in bound or queue policy sees: a small read-only record of one partial tree.

A student writes one function of this record, and it runs in both searches that take plug-ins.

OSDT (Hu, *Optimal Sparse Decision Trees*, thesis 2019, chapter 3) searches over partial trees
``d = (d_un, d_split)``: the *fixed* leaves ``d_un`` stay leaves in every descendant, and every
*split* leaf ``d_split`` is split in every child. A lower bound on the objective of every
descendant of ``d`` prunes ``d`` when it reaches the incumbent's objective ``R^c``. The built-in
ones are written from this record's fields:

- Theorem 1 (hierarchical lower bound): ``fixed_loss + regularization * n_leaves``;
- Lemma 2 (one-step lookahead): every split leaf becomes at least two leaves, so
  ``fixed_loss + regularization * (n_leaves + n_split)``;
- Theorem 9 (equivalent points): rows with identical features cannot be separated, so every
  descendant also loses ``sum(split_equivalent_losses)`` under the split leaves.

GOSDT (Lin et al., *Generalized and Scalable Optimal Sparse Decision Trees*, ICML 2020, section
4) searches over *supports*: the rows that reach a node, whose best subtree it finds by dynamic
programming. It shows a plug-in each support as the partial tree :meth:`Subproblem.of_support`
builds: no fixed leaf and one split leaf, the support, so the bound is one on every subtree that
splits it. The support's optimum is the better of its leaf and its best split, so GOSDT raises
the support's lower bound to ``min(leaf objective, bound)``, never lowers it. Its ``incumbent``
is what the parent that created it can still use (the parent's target, ``min(ub, scope)``,
less one leaf for the sibling's subtree); at the root, its own upper bound. The same function
therefore means the same in both searches.

Examples
--------
>>> node = Subproblem(fixed_counts=((3, 0),), split_counts=((2, 4),), fixed_losses=(0.0,),
...                   split_losses=(0.2,), regularization=0.05, incumbent=0.3, depth=1, total=9.0,
...                   split_equivalent_losses=(0.1,))
>>> node.n_leaves, node.n_split, node.fixed_loss
(2, 1, 0.0)
>>> round(node.fixed_loss + node.regularization * (node.n_leaves + node.n_split), 12)
0.15
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Subproblem"]


@dataclass(frozen=True)
class Subproblem:
    """One partial tree, as a plug-in bound or queue policy receives it (OSDT's, or GOSDT's support).

    Everything is in objective units (a fraction of the training weight, like the objective),
    except the class counts, which are in rows (weights).

    Parameters
    ----------
    fixed_counts, split_counts : tuple of tuple of float
        Class counts of each fixed leaf (a leaf in every descendant) and of each split leaf
        (split in every descendant).
    fixed_losses, split_losses : tuple of float
        The loss of each of those leaves if it stayed a leaf predicting its best label (additive
        objectives: accuracy and its weighted forms).
    regularization : float
        λ, the cost of one leaf.
    incumbent : float
        What a tree grown from it must beat: in OSDT the objective of the best tree found so far
        (``R^c``); in GOSDT what the parent that created the support can still use. A bound at
        least this large prunes.
    depth : int
        The depth of the deepest leaf (a single leaf has depth 0). GOSDT shares a support between
        the paths that reach it: with a ``depth_budget`` those all have its depth, without one
        this is the depth of the first path that reached it.
    total : float
        The training weight (the number of rows when unweighted).
    split_equivalent_losses : tuple of float, default=()
        For each split leaf, the loss no subtree can remove: the minority of every group of its
        rows with identical features (Theorem 9; additive objectives).

    Attributes
    ----------
    n_leaves : int
        Leaves of the partial tree (fixed and split).
    n_split : int
        Split leaves.
    fixed_loss : float
        The loss of the fixed leaves: every descendant keeps it (Theorem 1).
    """

    fixed_counts: tuple
    split_counts: tuple
    fixed_losses: tuple
    split_losses: tuple
    regularization: float
    incumbent: float
    depth: int
    total: float
    split_equivalent_losses: tuple = ()

    @classmethod
    def of_support(cls, counts, loss: float, equivalent_loss: float, *, regularization: float,
                   incumbent: float, depth: int, total: float) -> "Subproblem":
        """The record of one support set, as GOSDT shows it: a single split leaf, nothing fixed.

        Parameters
        ----------
        counts : sequence of float
            The support's class counts (rows, or weights).
        loss, equivalent_loss : float
            The support's loss as a leaf, and the loss no subtree can remove (Theorem 9), in
            objective units.
        regularization, incumbent, total : float
        depth : int
            The depth of the support's node (0 at the root).

        Returns
        -------
        Subproblem

        Examples
        --------
        >>> node = Subproblem.of_support((4, 2), 0.2, 0.1, regularization=0.05, incumbent=0.25,
        ...                              depth=1, total=10.0)
        >>> node.n_leaves, node.n_split, node.fixed_loss, node.split_losses
        (1, 1, 0.0, (0.2,))
        """
        return cls(fixed_counts=(), split_counts=(tuple(float(n) for n in counts),), fixed_losses=(),
                   split_losses=(float(loss),), regularization=float(regularization), incumbent=float(incumbent),
                   depth=int(depth), total=float(total), split_equivalent_losses=(float(equivalent_loss),))

    @property
    def n_leaves(self) -> int:
        return len(self.fixed_counts) + len(self.split_counts)

    @property
    def n_split(self) -> int:
        return len(self.split_counts)

    @property
    def fixed_loss(self) -> float:
        return float(sum(self.fixed_losses))
