"""Sphinx extension: resolve Python references that name a documented object indirectly.

Two kinds, both left unresolved by Sphinx, which looks a name up only relative to the current
module and class:

* a short name, ``:meth:`Tree.decision_path``` or ``:attr:`table```, where the object is clear
  from the text: resolved when exactly one documented object ends with it;
* a member inherited by the class whose docstring names it, ``:meth:`leaf_predictions```, or by
  the class it names, ``:meth:`GOSDT.offer_incumbent```: resolved to the first base class (in
  method resolution order) where it is documented;
* a name through a re-export, ``treeopt.guessing.lower_bound_guarantee``, of an object documented
  where it is defined (``treeopt.guessing.guarantees``): resolved by importing the name and
  looking up the object's own module and qualified name.

An ambiguous or unknown name stays a broken reference, which the build (``-n -W``) reports.
"""

from __future__ import annotations

import importlib

from sphinx.addnodes import pending_xref
from sphinx.util.nodes import make_refnode

#: The reference roles of the Python domain and the object types each may point to.
ROLE_TYPES = {
    "class": {"class", "exception"},
    "exc": {"class", "exception"},
    "func": {"function", "method", "staticmethod", "classmethod"},
    "meth": {"method", "staticmethod", "classmethod", "property", "function"},
    "attr": {"attribute", "property", "data"},
    "data": {"data", "attribute"},
    "obj": None,
    "mod": {"module"},
}


def candidates(objects: dict, target: str, types: set | None) -> list[str]:
    """Full names of the objects whose name is ``target`` or ends with ``.target``, of ``types``.

    Examples
    --------
    >>> class Entry:  # the Python domain's ObjectEntry has docname, node_id, objtype
    ...     def __init__(self, objtype): self.objtype = objtype
    >>> objects = {"pkg.tree.Tree.apply": Entry("method"), "pkg.Tree": Entry("class")}
    >>> candidates(objects, "Tree.apply", {"method"})
    ['pkg.tree.Tree.apply']
    >>> candidates(objects, "apply", {"class"})
    []
    """
    suffix = "." + target
    return sorted(name for name, entry in objects.items()
                  if (name == target or name.endswith(suffix)) and (types is None or entry.objtype in types))


def defined_name(target: str) -> str | None:
    """``module.qualname`` of the object ``target`` names, if it can be imported, else ``None``.

    Examples
    --------
    >>> defined_name("os.path.join") in ("posixpath.join", "ntpath.join")
    True
    >>> defined_name("no_such_module.thing") is None
    True
    """
    parts = target.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            obj = getattr(obj, attribute, None)
            if obj is None:
                return None
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        return f"{module}.{qualname}" if isinstance(module, str) and isinstance(qualname, str) else None
    return None


def inherited_names(module: str | None, cls: str | None, target: str) -> list[str]:
    """``base.target`` for every class in the method resolution order of ``module.cls``.

    Examples
    --------
    >>> inherited_names("collections", "OrderedDict", "keys")[:2]
    ['collections.OrderedDict.keys', 'builtins.dict.keys']
    >>> inherited_names(None, None, "keys")
    []
    """
    if not (module and cls):
        return []
    try:
        obj = importlib.import_module(module)
        for attribute in cls.split("."):
            obj = getattr(obj, attribute)
    except (ImportError, AttributeError):
        return []
    return [f"{base.__module__}.{base.__qualname__}.{target}" for base in getattr(obj, "__mro__", ())]


def _resolve(app, env, node: pending_xref, contnode):
    if node.get("refdomain") != "py" or node.get("reftype") not in ROLE_TYPES:
        return None
    target = node.get("reftarget", "").lstrip("~.")
    if not target:
        return None
    domain = env.get_domain("py")
    found = next(([name] for name in inherited_names(node.get("py:module"), node.get("py:class"), target)
                  if name in domain.objects), [])
    if not found:
        found = candidates(domain.objects, target, ROLE_TYPES[node["reftype"]])
        # The same object documented once and registered under its defining name too is one object.
        found = list({(domain.objects[name].docname, domain.objects[name].node_id): name for name in found}.values())
        # Documented twice (where it is defined and where it is exported): the docstring's own module wins.
        module = node.get("py:module") or ""
        if len(found) > 1 and module:
            found = [name for name in found if name.startswith(module + ".")] or found
    if not found and "." in target:
        # ``GOSDT.offer_incumbent``: a documented class, and the member from its bases.
        cls, member = target.rsplit(".", 1)
        for owner in candidates(domain.objects, cls, {"class"}):
            module, _, qualname = (defined_name(owner) or "").rpartition(".")
            found = next(([name] for name in inherited_names(module, qualname, member) if name in domain.objects), [])
            if found:
                break
    if not found and "." in target:
        defined = defined_name(target)
        found = [defined] if defined in domain.objects else []
    if not found and target.count(".") >= 2:
        # ``package.module.Class.member`` of a class documented under another name: ``Class.member``.
        short = ".".join(target.split(".")[-2:])
        found = candidates(domain.objects, short, ROLE_TYPES[node["reftype"]])
        found = list({(domain.objects[name].docname, domain.objects[name].node_id): name for name in found}.values())
    if len(found) != 1:
        return None
    entry = domain.objects[found[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, found[0])


def setup(app):
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
