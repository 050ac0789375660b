"""Old module paths kept for one release, with a DeprecationWarning.

``cargo_sim.cargo_noir.X`` moved to ``cargo_sim.games.cargo_noir.X``. The old name gives the
*same* module object (never a second copy: a copy would hold a second bot registry and
recompile its kernels).
"""
import importlib
import importlib.abc
import importlib.util
import sys
import warnings

MOVED = {"cargo_sim.cargo_noir": "cargo_sim.games.cargo_noir"}


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finder that answers an old module name with the module at its new place."""

    def __init__(self):
        self.specs = {}

    def find_spec(self, name, path=None, target=None):
        for old, new in MOVED.items():
            if name == old or name.startswith(old + "."):
                module = importlib.import_module(new + name[len(old):])
                return importlib.util.spec_from_loader(
                    name, self, is_package=hasattr(module, "__path__"))
        return None

    def create_module(self, spec):
        for old, new in MOVED.items():
            if spec.name == old or spec.name.startswith(old + "."):
                target = new + spec.name[len(old):]
                warnings.warn(f"{spec.name} moved to {target}", DeprecationWarning, stacklevel=2)
                module = importlib.import_module(target)
                self.specs[spec.name] = module.__spec__
                return module
        raise ImportError(spec.name)

    def exec_module(self, module):
        # already executed under its new name; the import system has just replaced its
        # __spec__ with the alias's, which would break importlib.resources: put it back
        module.__spec__ = self.specs.pop(module.__spec__.name)


def install() -> None:
    if not any(isinstance(f, MovedModules) for f in sys.meta_path):
        sys.meta_path.insert(0, MovedModules())
