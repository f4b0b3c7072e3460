"""Which use case does which command: each subject marks its own methods (`handles`) and the
service finds them (`handlers_of`), so no table beside the subjects has to be kept in step.

A handler is called with the asker's request and the command's fields by name
(`tests/service/test_dispatch.py` holds each handler's parameters to its command's fields).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from twixt.service.model import Reply

Handler = Callable[..., Awaitable[Reply]]
H = TypeVar("H", bound=Callable[..., Any])

_HANDLES = "_handles"


def handles(*kinds: type) -> Callable[[H], H]:
    """Mark a subject's method as the one that does commands of `kinds`."""
    def mark(method: H) -> H:
        setattr(method, _HANDLES, kinds)
        return method

    return mark


def handlers_of(*subjects: object) -> dict[type, Handler]:
    """Each command kind that `subjects` handle → the bound method that does it; a kind that
    two methods claim is a mistake, refused at once."""
    found: dict[type, Handler] = {}
    for subject in subjects:
        for name in dir(type(subject)):
            for kind in getattr(getattr(type(subject), name), _HANDLES, ()):
                if kind in found:
                    raise TypeError(f"{kind.__name__} is handled twice")
                found[kind] = getattr(subject, name)
    return found
