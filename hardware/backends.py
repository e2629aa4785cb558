"""Backends chosen by name: a registry per kind of device, and the closing mixin they share."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Generic, Protocol, Self, TypeVar

from hardware.errors import InvalidBackendOption, UnknownBackend

T = TypeVar("T")


class Resource(Protocol):
    """A device that is a context manager with an idempotent ``close()``."""

    def close(self) -> None:
        """Release the device (idempotent)."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class Closing:
    """Mixin: a context manager whose exit calls ``close()`` (which subclasses keep idempotent)."""

    def close(self) -> None:
        """Release the device; calling it again does nothing."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Registry(Generic[T]):
    """Named constructors of one kind of device (``camera``, ``buttons``, ``display``)."""

    def __init__(self, kind: str, backends: Mapping[str, Callable[..., T]]) -> None:
        self.kind = kind
        self._backends = dict(backends)

    @property
    def names(self) -> tuple[str, ...]:
        """The valid backend names, sorted."""
        return tuple(sorted(self._backends))

    def open(self, name: str, options: Mapping[str, object]) -> T:
        """Build backend ``name`` with keyword ``options``; unknown names and options are errors."""
        try:
            factory = self._backends[name]
        except KeyError:
            raise UnknownBackend(self.kind, name, self._backends) from None
        try:
            inspect.signature(factory).bind(**options)
        except TypeError as error:
            raise InvalidBackendOption(
                f"{self.kind} backend {name!r} with options {dict(options)!r}: {error}"
            ) from None
        return factory(**options)
