"""Public names loaded on first use (PEP 562), for a package's ``__init__``: so
``import cargo_sim`` and the commands that only print import no kernel, numba,
pandas or scipy (docs/performance.md, "Start-up")."""
import importlib


def lazy_names(package: str, names: dict):
    """``(__getattr__, __dir__)`` for ``package`` whose public ``names`` map to
    ``(module, attribute)``, the module relative to ``package``; an attribute of
    None names the module itself. A loaded name is kept in the package's globals,
    so later lookups skip ``__getattr__``."""
    import sys

    def __getattr__(name):
        try:
            module, attr = names[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        mod = importlib.import_module(module, package)
        value = mod if attr is None else getattr(mod, attr)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__


def _home(obj, module: str):
    return importlib.import_module(module, type(obj).__module__.rpartition(".")[0])


def lazy_member(module: str, name: str | None = None):
    """A read-only property of a game object: ``name`` of ``module`` (relative to the
    object's package; None: the module itself), imported on first use (a game's kernels
    load only when used)."""
    def get(self):
        mod = _home(self, module)
        return mod if name is None else getattr(mod, name)
    return property(get, doc=f"{module}.{name or ''} (imported on first use)")


def lazy_function(module: str, name: str):
    """A method of a game object that calls ``name`` of ``module`` (relative to the
    object's package; a function or a class) with the method's arguments, the module
    imported on first call: ``table_template = lazy_function(".simulate", "table_template")``."""
    def method(self, *args, **kwargs):
        return getattr(_home(self, module), name)(*args, **kwargs)
    method.__name__ = name
    method.__doc__ = f"{module}.{name} (imported on first call)"
    return method


class MovedModules:
    """A meta-path finder for modules that moved: ``import old.name`` (and
    ``from old import name``) gives the module now at its new path, the same
    object, imported on first use; its own ``__spec__`` is kept. Installed once by
    the package's ``__init__`` with ``{old dotted name: new dotted name}``."""

    def __init__(self, moved: dict):
        self.moved = dict(moved)

    def find_spec(self, fullname, path=None, target=None):
        new = self.moved.get(fullname)
        if new is None:
            return None
        from importlib.machinery import ModuleSpec
        return ModuleSpec(fullname, self, origin=new)

    def create_module(self, spec):
        module = importlib.import_module(self.moved[spec.name])
        spec.loader_state = module.__spec__
        return module

    def exec_module(self, module):
        # the import system has just set __spec__ (and nothing else already set) to the
        # old name's: the module keeps its own
        module.__spec__ = module.__spec__.loader_state

    @classmethod
    def install(cls, moved: dict) -> None:
        import sys
        if not any(isinstance(f, cls) and f.moved == moved for f in sys.meta_path):
            sys.meta_path.append(cls(moved))
