"""Frozen dataclasses whose methods are made when the class is first used, not when it is defined.

``dataclasses.dataclass`` writes and compiles each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as it defines the class: ~1 ms a class, 36 ms of the
window's start for the forty records of ``stores/records/`` alone, most of which no start-up ever uses
(upgrades, space reports, files, usage…). :func:`deferred` defines the class as written and leaves that
work to its first use: its first instance (``__init__``; a copy is made of an instance), or a look at
its fields (``dataclasses.fields``, ``is_dataclass``, ``__match_args__``). From then on it is the very
class ``@dataclass(frozen=True, …)`` would have made — the same object, nothing left of the stand-ins.
The window defines the rest in idle moments (:func:`define_some`), so no later click pays for it.

Not for ``slots=True`` (that makes a new class: the name would be bound to the old one) nor for a class
with an ``__init__`` or ``__new__`` of its own; nor for instances made without ``__init__`` (unpickled
into a fresh process: nothing in the application pickles its records).
"""

from __future__ import annotations

import copy
import dataclasses
import threading

_lock = threading.RLock()  # a worker's first instance and the GUI thread's idle definitions may meet
_waiting: dict[type, dict] = {}  # class -> its dataclass options, in the order they were written
_STANDS_IN = ("__init__", "__dataclass_fields__", "__dataclass_params__", "__match_args__")


class _Fields:
    """Stands for a dataclass attribute of its class until that class is defined: reading it defines it."""

    def __init__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    def __get__(self, instance, cls=None):
        define(self.owner)
        return getattr(self.owner, self.name)


def deferred(cls: type | None = None, /, **options):
    """``@dataclass(frozen=True, **options)``, its methods made on the class's first use (module doc)."""

    def wrap(klass: type) -> type:
        if options.get("slots") or "__init__" in klass.__dict__ or "__new__" in klass.__dict__:
            raise TypeError(f"{klass.__name__}: not for a deferred dataclass (see deferred_dataclass)")

        def __init__(self, *args, **kwargs):  # noqa: N807 - the first instance defines the class
            define(klass)
            type(self).__init__(self, *args, **kwargs)  # the one just made

        klass.__init__ = __init__
        for name in _STANDS_IN[1:]:
            setattr(klass, name, _Fields(klass, name))
        _waiting[klass] = {"frozen": True, **options}  # (last: only a class ready to be defined waits)
        return klass

    return wrap if cls is None else wrap(cls)


def define(cls: type) -> None:
    """Make ``cls``'s dataclass methods now, if they are still to come (its bases' first).

    Its ``__init__`` is the last thing replaced, in one step: another thread making an instance meanwhile
    meets the stand-in, which waits for this definition — never a class with no ``__init__`` for a moment
    (``dataclass`` does not replace an ``__init__`` the class has, so the class is made without one and its
    ``__init__`` is made by the same ``dataclass`` on a twin of the class, as written)."""
    with _lock:
        options = _waiting.pop(cls, None)
        if options is None:
            return
        for base in cls.__mro__[1:]:
            define(base)
        annotations = cls.__dict__.get("__annotations__", {})
        written = {name: value for name, value in cls.__dict__.items() if name in annotations}  # the defaults
        for name in _STANDS_IN[1:]:
            delattr(cls, name)
        # (a __post_init__ goes with them: the __init__ made on the twin calls it, as dataclass's would)
        hook = {"__post_init__": cls.__dict__["__post_init__"]} if "__post_init__" in cls.__dict__ else {}
        twin = type(cls.__name__, cls.__bases__, {**written, **hook, "__annotations__": annotations,
                                                   "__module__": cls.__module__, "__qualname__": cls.__qualname__})
        # (the twin makes only what its __init__ needs: a frozen class's fields are set past its __setattr__)
        twin = dataclasses.dataclass(twin, **{**options, "repr": False, "eq": False, "match_args": False})
        dataclasses.dataclass(cls, **{**options, "init": False})
        params = copy.copy(cls.__dataclass_params__)
        params.init = True  # as written
        cls.__dataclass_params__ = params
        if cls.__doc__ == f"{cls.__name__}(*args, **kwargs)":  # (no docstring: the one dataclass writes)
            cls.__doc__ = twin.__doc__
        cls.__init__ = twin.__init__  # (no reference to the twin inside: it sets the fields on ``self``)


def define_some(count: int) -> bool:
    """Define up to ``count`` of the classes still waiting, oldest first; True when none is left."""
    with _lock:
        for cls in list(_waiting)[:count]:
            define(cls)
        return not _waiting


def waiting() -> list[type]:
    with _lock:
        return list(_waiting)
