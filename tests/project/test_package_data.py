"""Files the packages read at run time that are not Python (the replay page's template) ship in the wheel.

setuptools copies only ``.py`` files of the listed packages unless ``[tool.setuptools.package-data]``
names the others, and an editable install would not notice: the file is found in the source tree.
So every non-Python file in a package folder must match a package-data pattern of its package.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_non_python_file_of_a_package_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {package: ROOT / config.get("package-dir", {}).get(package, package.replace(".", "/"))
               for package in config["packages"]}
    data = config.get("package-data", {})
    missing = []
    for package, folder in folders.items():
        for path in folder.iterdir():
            if path.is_file() and path.suffix not in (".py", ".pyc"):
                if not any(fnmatch.fnmatch(path.name, pattern) for pattern in data.get(package, [])):
                    missing.append(f"{package}: {path.name}")
    assert folders["treeopt.widgets"].joinpath("replay_template.html").exists()
    assert missing == [], f"add to [tool.setuptools.package-data] in pyproject.toml: {missing}"


def test_every_package_folder_is_a_listed_package():
    """A subpackage missing from ``packages`` works in an editable install and is absent from the wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "treeopt").rglob("__init__.py")}
    found |= {"treeopt.widgets"} if (ROOT / "widgets" / "__init__.py").exists() else set()
    assert sorted(found - set(config["packages"])) == []
