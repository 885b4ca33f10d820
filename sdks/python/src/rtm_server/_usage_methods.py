"""Usage: the environment's stats by minute, hour, day or month, and its monthly quotas."""
from __future__ import annotations

from datetime import datetime
from typing import Literal, Optional, Union

from ._http import Core
from .models import Quota, StatsList

Instant = Union[datetime, int, str]


def _instant(value: Optional[Instant]) -> Optional[str]:
    """Epoch milliseconds or ISO 8601, as the query takes it (a naive datetime is read as UTC)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        seconds = value.timestamp() if value.tzinfo is not None else (value - datetime(1970, 1, 1)).total_seconds()
        return str(int(round(seconds * 1000)))
    return str(value)


class UsageMethods(Core):
    def stats(
        self,
        *,
        unit: Optional[Literal["minute", "hour", "day", "month"]] = None,
        start: Optional[Instant] = None,
        end: Optional[Instant] = None,
        direction: Optional[Literal["forwards", "backwards"]] = None,
        limit: Optional[int] = None,
    ) -> StatsList:
        """One entry per UTC interval with usage (an interval with none is left out); default: the last 100 minutes, newest first."""
        return self._call("getStats", query={"unit": unit, "start": _instant(start), "end": _instant(end), "direction": direction, "limit": limit})

    def quota(self) -> Quota:
        """The monthly quotas (`limits.monthlyMessages`, `limits.monthlyConnectionMinutes`) and what was used of them this month."""
        return self._call("getQuota")
