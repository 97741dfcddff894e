"""ARCHITECTURE.md agrees with the tree: every path it names exists, and every module is named."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
NAMED = set(re.findall(r"`((?:treeopt|widgets|tests|benchmarks)/[\w/.]*)`", TEXT))


def test_every_path_the_map_names_exists():
    missing = sorted(path for path in NAMED if not (ROOT / path.rstrip("/")).exists())
    assert not missing, f"ARCHITECTURE.md names paths that do not exist: {missing}"


def test_every_module_of_the_package_is_on_the_map():
    modules = sorted(str(p.relative_to(ROOT)) for folder in ("treeopt", "widgets")
                     for p in (ROOT / folder).rglob("*.py") if p.name != "__init__.py")
    unnamed = [m for m in modules if m not in NAMED]
    assert not unnamed, f"modules missing from ARCHITECTURE.md's map: {unnamed}"


def test_every_package_has_a_heading():
    packages = sorted(str(p.parent.relative_to(ROOT)) for folder in ("treeopt", "widgets")
                      for p in (ROOT / folder).rglob("__init__.py"))
    assert not [p for p in packages if f"`{p}/`" not in TEXT]
