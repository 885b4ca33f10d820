"""The shape of one entry of the generated operations table (operations.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Tuple
from urllib.parse import quote


@dataclass(frozen=True)
class Operation:
    """A control-plane operation as docs/openapi.json describes it."""

    method: str
    path: str
    """The path template, with `{name}` for each path parameter."""
    path_params: Tuple[str, ...]
    query_params: Tuple[str, ...]
    body: Optional[str]
    """`"required"`, `"optional"`, or None for an operation without a JSON body."""
    statuses: Tuple[int, ...]
    """The success statuses it answers with."""
    summary: str

    def url_path(self, params: Mapping[str, str]) -> str:
        """The path with every parameter filled in, percent-encoded (a `/` in an id stays in its segment)."""
        missing = [name for name in self.path_params if name not in params]
        if missing:
            raise TypeError(f"{self.method} {self.path}: missing path parameter(s) {', '.join(missing)}")
        path = self.path
        for name in self.path_params:
            path = path.replace("{" + name + "}", quote(params[name], safe=""))
        return path
