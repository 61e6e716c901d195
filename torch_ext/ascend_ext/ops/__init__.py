"""The built-in ops, one module each (an op and its backward share one): the op's declaration with
``ascend_ext.library.op(...)``, the one source of its facts, and for a native op its typed wrappers and
Python vmap rules.

The build reads the same declarations without importing them (torch_ext/ascend_ext/op_facts.py,
cmake/builtin_ops.py) and generates from them the kernels' twin builds, the op package's kernel list and
ports, the schemas and the plan registry of the extension. This package finds its modules by listing its
folder: adding an op adds a module, with no list to edit.
"""
import importlib
import pkgutil
from typing import Dict, List

def modules() -> List[str]:
    """The op modules, by name: every public module of this package's folder(s), sorted."""
    return sorted({m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")})


def load() -> None:
    """Imports every op module (declaring its ops)."""
    for name in modules():
        importlib.import_module(f"{__name__}.{name}")


def exports() -> Dict[str, object]:
    """The public names of the op modules (each module's __all__), which the ascend_ext package exports."""
    load()
    out: Dict[str, object] = {}
    for name in modules():
        module = importlib.import_module(f"{__name__}.{name}")
        for public in module.__all__:
            out[public] = getattr(module, public)
    return out


def declarations() -> List[object]:
    """Every built-in op's declaration (ascend_ext.library.DeclaredOp or NativeOp), in module order."""
    load()
    from .. import library

    return library.builtin_ops()
