"""Defined names in formulas: a name's text compiled once per sheet (its relative
references offsets from A1), a name whose value is the same from every cell computed
once, LET's and LAMBDA's names, a LAMBDA name calling itself, and names that read
themselves through other names (:class:`CircularName`). :mod:`.compile` hands each
name it meets to :func:`compile_name`."""

from __future__ import annotations

from typing import Any

from . import lambdas
from .closures import Closure, memoised
from .parse import FormulaSyntaxError, RefSpec
from .values import XlErr

__all__ = ["CircularName", "MAX_NAME_DEPTH", "compile_name", "unique"]

# Names whose text names a name, and so on: far past what a workbook does, short of what
# compiling them one inside the other holds on the stack (600 MB at 200,000)
MAX_NAME_DEPTH = 10_000


class CircularName(FormulaSyntaxError):
    """A name whose text reads itself through other names (``A`` is ``=B+1``, ``B`` is
    ``=A+1``): a circular reference of every formula reading it, as a cycle of cells is,
    whether or not the formula goes on to read it (Excel finds cycles from what formulas
    refer to). ``names`` is the loop, its first name again at its end."""

    def __init__(self, names: list[str]):
        super().__init__("circular reference: " + " → ".join(f"name {n}" for n in names))
        self.names = names


def unique(specs: list[RefSpec]) -> list[RefSpec]:
    """The references read, each once, in the order first read."""
    return list(dict.fromkeys(specs))


def compile_name(compiler: Any, name: str) -> Closure:
    """The closure of ``name`` as written in a formula ``compiler`` compiles (a
    :class:`.compile._Compiler`, typed ``Any`` as an import back would make a cycle
    of modules): its reads, volatility and LAMBDA value added to the compiler's."""
    upper = name.upper()
    if upper in compiler.local:
        return compiler.local[upper]
    if upper in compiler.recursive:  # a LAMBDA name calling itself
        box = compiler.recursive[upper]
        return lambda h: box[0](h)
    text = compiler.book.name_text(name, compiler.here[0])
    if text is None and upper in compiler.book.tables:
        return compiler.table(name + "[]")
    if text is None:
        error = XlErr("#NAME?", f"unknown name {name}")
        return lambda h: error
    if upper in compiler.names_seen:
        chain = list(compiler.names_seen)
        raise CircularName([compiler.names_seen[n] for n in chain[chain.index(upper):]] + [name])
    if len(compiler.names_seen) >= MAX_NAME_DEPTH:  # each level costs stack to compile
        error = XlErr("#VALUE!", f"names nested more than {MAX_NAME_DEPTH:,} deep (at {name})")
        return lambda h: error
    memo = (compiler.here[0], upper, bool(compiler.array_depth))
    found = compiler.book.compiled_names.get(memo)
    if isinstance(found, CircularName):  # met before: every reader of the name is in it
        raise found
    if found is None:
        # compiled once per sheet; relative references in a name are offsets from A1
        # the names being compiled and the LAMBDA names among them: shared down the
        # chain and taken back after, as copies at each level would cost its square
        recursive, seen = compiler.recursive, compiler.names_seen
        own: list[Closure] | None = [] if lambdas.lambda_text(text) else None
        if own is not None:
            recursive[upper] = own
        seen[upper] = name
        try:
            inner = type(compiler)(compiler.book, (compiler.here[0], 1, 1),
                                   bool(compiler.array_depth), seen, recursive=recursive)
            fn = inner.compile(text.lstrip("=") if text.startswith("=") else text)
        except CircularName as cycle:  # remembered, so each reader does not compile it again
            compiler.book.compiled_names[memo] = cycle
            raise
        finally:
            seen.pop(upper, None)
            if own is not None:
                del recursive[upper]
        if own is not None:
            own.append(fn)
        reads = unique(inner.reads)
        if all(all(spec.fixed) for spec in reads) and not inner.volatile:
            fn = memoised(fn)
        found = compiler.book.compiled_names[memo] = (fn, reads, inner.volatile)
    fn, reads, volatile = found
    compiler.volatile |= volatile
    compiler.lambdas |= lambdas.lambda_text(text)
    compiler.reads.extend(reads)  # offsets from A1 are offsets from the reading cell
    return fn
