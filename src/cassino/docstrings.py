"""The docstrings of the compiled engine, put back from its sources as each compiled module loads.

mypyc keeps no docstring: a compiled function's or method's ``__doc__`` is its signature's text
only, a class's is empty, so ``help(cassino.State)`` said nothing. ``native`` therefore loads each
compiled module through ``DocumentedFinder``, which then copies every docstring from the module's
source, read as the interpreter's cached bytecode (``__pycache__``, about a millisecond for the
whole engine; the source is compiled once where no cache can be written).

A module's and a class's ``__doc__`` are plain attributes. A compiled function's, method's or
property's lives in a C structure of the extension (``PyMethodDef.ml_doc``, ``PyGetSetDef.doc``),
which has no Python setter: it is written through ``ctypes``, keeping the signature's text before
it, only on the builds whose layout is known (CPython 3.11 to 3.14 without free threading or debug
references, 64-bit), and only after each structure is checked to hold the name of the object it
belongs to. Anywhere else, or under ``python -OO`` (which drops docstrings on purpose), nothing is
done. This module is never compiled, and imports nothing of the engine.
"""

from __future__ import annotations

import ctypes
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Callable, Sequence
from types import CodeType, ModuleType

_HAS_DOCSTRING = 0x4000000
"""``CO_HAS_DOCSTRING`` (Python 3.14): the code's first constant is its docstring. Before 3.14
a function's first constant is its docstring or None."""
_FUNCTION_FLAGS = 0x3
"""``CO_OPTIMIZED | CO_NEWLOCALS``: a function's code; a class body's has neither."""
_SIGNATURE_END = "\n--\n\n"
"""What ends the signature's text at the start of a C function's docstring."""

_OBJECT_HEAD = 16
"""``PyObject_HEAD``: reference count and type, on a 64-bit build without debug references."""
_DESCR_COMMON = _OBJECT_HEAD + 3 * 8
"""``PyDescr_COMMON``: the head, then the owner type, the name and the qualified name."""
_DOC_FIELD = 24
"""Where the doc pointer sits in a ``PyMethodDef`` (name, function, flags) and in a ``PyGetSetDef``
(name, getter, setter)."""

_KEPT: list[ctypes.Array[ctypes.c_char]] = []
"""The texts handed to C: they must live as long as the process."""


def layout_known() -> bool:
    """Whether this interpreter's structures are laid out as the offsets above say."""
    return (
        sys.implementation.name == "cpython"
        and (3, 11) <= sys.version_info[:2] <= (3, 14)
        and ctypes.sizeof(ctypes.c_void_p) == 8
        and "free-threading" not in sys.version
        and not hasattr(sys, "gettotalrefcount")
        and sys.flags.optimize < 2
    )


def source_docstrings(code: CodeType) -> dict[str, str]:
    """Every docstring of a module's code by qualified name (``State.push``), ``""`` for the module's."""
    docs: dict[str, str] = {}
    names = code.co_names
    if "__doc__" in names and code.co_consts and isinstance(code.co_consts[0], str):
        docs[""] = code.co_consts[0]
    _walk(code, docs)
    return docs


def _walk(code: CodeType, docs: dict[str, str]) -> None:
    """The docstrings of the functions and classes whose code ``code`` holds, recursively."""
    for inner in code.co_consts:
        if not isinstance(inner, CodeType):
            continue
        consts = inner.co_consts
        if inner.co_name.startswith("<"):  # a comprehension or lambda: no docstring, whatever its first constant
            pass
        elif inner.co_flags & _FUNCTION_FLAGS == _FUNCTION_FLAGS:
            flagged = sys.version_info < (3, 14) or inner.co_flags & _HAS_DOCSTRING
            if flagged and consts and isinstance(consts[0], str):
                docs[inner.co_qualname] = consts[0]
        elif "__doc__" in inner.co_names:  # a class body: its qualified name, then its docstring
            doc = next((c for c in consts[1:] if isinstance(c, str)), None)
            if doc is not None:
                docs[inner.co_qualname] = doc
        _walk(inner, docs)


def _c_name_is(address: int, name: str) -> bool:
    """Whether the C structure at ``address`` begins with a pointer to the string ``name``."""
    pointer = ctypes.c_void_p.from_address(address).value
    return pointer is not None and ctypes.string_at(pointer) == name.encode("utf-8")


Write = tuple[int, bytes]
"""A doc to write: where its pointer goes, and the text (UTF-8, without NUL)."""


def doc_write(obj: object, doc: str) -> Write | None:
    """Where and what to write to give a compiled function, method or property its docstring
    (the signature's text first, as CPython reads it); None when ``obj`` is of no kind known here,
    or its structure does not hold its name (a layout other than the one expected)."""
    kind = type(obj)
    if isinstance(obj, staticmethod):
        return doc_write(obj.__func__, doc)
    if kind is types.BuiltinFunctionType:
        offset = _OBJECT_HEAD
    elif kind in (types.MethodDescriptorType, types.ClassMethodDescriptorType, types.GetSetDescriptorType):
        offset = _DESCR_COMMON
    else:
        return None
    struct = ctypes.c_void_p.from_address(id(obj) + offset).value
    name = getattr(obj, "__name__", "")
    if not struct or not _c_name_is(struct, name):
        return None
    signature = getattr(obj, "__text_signature__", None)
    head = f"{name}{signature}{_SIGNATURE_END}" if signature else ""
    return struct + _DOC_FIELD, (head + doc).replace("\0", " ").encode("utf-8")


def write_docs(writes: list[Write]) -> None:
    """Point each doc field at its text, all texts in one buffer kept for the life of the process."""
    if not writes:
        return
    blob = b"".join(text + b"\0" for _, text in writes)
    buffer = ctypes.create_string_buffer(blob, len(blob))
    _KEPT.append(buffer)
    at = ctypes.addressof(buffer)
    for field, text in writes:
        ctypes.c_void_p.from_address(field).value = at
        at += len(text) + 1


def restore(module: ModuleType, code: CodeType) -> int:
    """Put back the docstrings of ``module`` (compiled from ``code``) where they are missing; the
    number put back."""
    docs = source_docstrings(code)
    done = 0
    if not module.__doc__ and "" in docs:
        module.__doc__ = docs[""]
        done += 1
    writes: list[Write] = []
    for obj in list(vars(module).values()):
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        qualname = getattr(obj, "__qualname__", "")
        if isinstance(obj, type):
            done += _restore_class(obj, qualname, docs, writes)
        elif qualname in docs and not obj.__doc__:
            write = doc_write(obj, docs[qualname])
            if write is not None:
                writes.append(write)
            else:
                done += _set_attribute_doc(obj, docs[qualname], writes)
    write_docs(writes)
    return done + len(writes)


def _set_attribute_doc(obj: object, doc: str, writes: list[Write]) -> bool:
    """Give a wrapper of a compiled function (``functools.cache``'s) its docstring, and the function
    it wraps too; False when it takes none."""
    write = doc_write(getattr(obj, "__wrapped__", None), doc)
    if write is not None:
        writes.append(write)
    try:
        setattr(obj, "__doc__", doc)  # noqa: B010 (an object of any kind: mypy knows no __doc__ setter)
    except (AttributeError, TypeError):
        return False
    return True


def _restore_class(cls: type, qualname: str, docs: dict[str, str], writes: list[Write]) -> int:
    """The docstring of a class (a compiled named tuple has the generated one), now; those of its
    methods and properties, into ``writes``; the number of the first."""
    done = 0
    if qualname in docs and cls.__doc__ != docs[qualname]:
        try:
            cls.__doc__ = docs[qualname]
            done += 1
        except (AttributeError, TypeError):  # a type that takes no attribute
            pass
    for name, member in list(vars(cls).items()):
        doc = docs.get(f"{qualname}.{name}")
        if doc is None:
            continue
        inner = member.__func__ if isinstance(member, staticmethod) else member
        if not getattr(inner, "__doc__", None):
            write = doc_write(member, doc)
            if write is not None:
                writes.append(write)
    return done


class DocumentedFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules ``names`` (full names) as the path finder does, and loads each
    with ``DocumentedLoader``, which restores the docstrings, from the sources ``source_of`` names,
    of that module and of every other compiled one loaded with it: a compiled module's imports of
    another of its build load that one directly, without asking any finder."""

    def __init__(self, names: Sequence[str], source_of: Callable[[str], str]) -> None:
        self.names = frozenset(names)
        self.source_of = source_of
        self.documented: set[str] = set()

    def document_loaded(self) -> None:
        """Restore the docstrings of every compiled module loaded and not yet documented."""
        for name in sorted(self.names - self.documented):
            module = sys.modules.get(name)
            if module is None:
                continue
            self.documented.add(name)
            source = self.source_of(name)
            try:
                code = importlib.machinery.SourceFileLoader(name, source).get_code(name)
            except (OSError, SyntaxError, ImportError):  # no source beside the build: nothing to copy
                continue
            if code is not None:
                restore(module, code)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and type(spec.loader) is importlib.machinery.ExtensionFileLoader:
            spec.loader = DocumentedLoader(fullname, spec.loader.path, self)
        return spec


class DocumentedLoader(importlib.machinery.ExtensionFileLoader):
    """Loads a compiled module, then has ``finder`` restore the docstrings of what it loaded."""

    def __init__(self, name: str, path: str, finder: DocumentedFinder) -> None:
        super().__init__(name, path)
        self.finder = finder

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        self.finder.document_loaded()
