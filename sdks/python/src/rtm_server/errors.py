"""The control plane's error envelope as a typed exception."""
from __future__ import annotations

import json
import math
import time
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Dict, Mapping, Optional, cast

if TYPE_CHECKING:
    from .models import QuotaRefusal

NETWORK_ERROR = "network_error"
"""`RtmError.code` when no answer came back (refused connection, reset, time-out); `status` is 0."""
HTTP_ERROR = "http_error"
"""`RtmError.code` for an answer without the service's envelope (a proxy in between, for instance)."""


class RtmError(Exception):
    """A refused request. Branch on `code` (the service's error table), not on `status` alone."""

    code: str
    """The envelope's `code`, `http_error` for an answer without one, `network_error` without an answer."""
    reason: Optional[str]
    """The envelope's `reason`, when the service gave one."""
    status: int
    """HTTP status of the answer (0 when there was none)."""
    retry_after: Optional[float]
    """Seconds from the `retry-after` header (429 `rate_limited`, 503 `unavailable`), when sent."""
    quota: Optional["QuotaRefusal"]
    """The spent monthly quota of a 429 `quota_exceeded` (its limit, what was used, when it resets)."""

    def __init__(self, code: str, reason: Optional[str], status: int, retry_after: Optional[float] = None, quota: Optional["QuotaRefusal"] = None) -> None:
        super().__init__(f"{status} {code}" if reason is None else f"{status} {code}: {reason}")
        self.code = code
        self.reason = reason
        self.status = status
        self.retry_after = retry_after
        self.quota = quota

    @property
    def retryable(self) -> bool:
        """Transient refusals: the same request may succeed later (after `retry_after`, when given)."""
        return self.code in ("rate_limited", "unavailable", NETWORK_ERROR)

    @classmethod
    def from_response(cls, status: int, headers: Mapping[str, str], body: bytes) -> "RtmError":
        """The error of a non-2xx answer; `headers` keyed in lower case."""
        retry_after = parse_retry_after(headers.get("retry-after"))
        envelope: object = None
        try:
            envelope = json.loads(body.decode("utf-8")) if body else None
        except (UnicodeDecodeError, ValueError):
            pass
        if isinstance(envelope, dict):
            fields = cast(Dict[str, object], envelope)
            code, reason = fields.get("code"), fields.get("reason")
            if isinstance(code, str):
                quota = fields.get("quota")
                refusal = cast("QuotaRefusal", quota) if isinstance(quota, dict) else None
                return cls(code, reason if isinstance(reason, str) else None, status, retry_after, refusal)
        text = body.decode("utf-8", "replace").strip()[:200]
        return cls(headers.get("x-service-error") or HTTP_ERROR, text or None, status, retry_after)


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """`retry-after` as seconds: a number of seconds or an HTTP date; None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        date = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if date.tzinfo is None:
        return None
    return max(0.0, float(math.ceil(date.timestamp() - (time.time() if now is None else now))))
