"""The transport underneath the client: urllib.request, the secret key, retries and the envelope."""
from __future__ import annotations

import http.client
import json
import random
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Mapping, NamedTuple, Optional
from urllib.parse import urlencode

from ._operation import Operation
from .errors import NETWORK_ERROR, RtmError
from .operations import OPERATIONS


class HttpResponse(NamedTuple):
    status: int
    headers: Dict[str, str]
    """Keyed in lower case."""
    body: bytes


Transport = Callable[[str, str, Dict[str, str], Optional[bytes], float], HttpResponse]
"""`(method, url, headers, body, timeout) -> HttpResponse`; raises OSError when no answer came back."""


def urllib_transport(method: str, url: str, headers: Dict[str, str], body: Optional[bytes], timeout: float) -> HttpResponse:
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return HttpResponse(answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read())
    except urllib.error.HTTPError as error:
        # a non-2xx answer is an answer: its envelope is read by the caller
        with error:
            return HttpResponse(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())
    except http.client.HTTPException as error:
        # a malformed or cut answer: as a network failure (the outcome is unknown)
        raise OSError(f"bad HTTP answer: {error!r}") from error


# methods whose repetition changes nothing: retried after an unknown outcome
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})


class Core:
    """Calls the operations of the generated table with the secret key; every method of the client is one call."""

    def __init__(
        self,
        url: str,
        secret_key: str,
        *,
        retries: int = 2,
        max_retry_delay: float = 10.0,
        timeout: float = 30.0,
        headers: Optional[Mapping[str, str]] = None,
        transport: Optional[Transport] = None,
        sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError("url must be the http(s) base URL of the control plane")
        if not secret_key.startswith("sk_"):
            raise ValueError("secret_key must be a secret key (sk_…)")
        self._base = url.rstrip("/")
        self._headers = {**(headers or {}), "authorization": f"Bearer {secret_key}", "accept": "application/json"}
        self.retries = retries
        """Further tries after the first (0: none)."""
        self.max_retry_delay = max_retry_delay
        """Longest wait before one retry, in seconds; a longer `retry-after` is not waited for."""
        self.timeout = timeout
        self._transport: Transport = transport or urllib_transport
        self._sleep: Callable[[float], None] = sleep or time.sleep

    def _call(
        self,
        operation_id: str,
        path: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        *,
        retry_safe: Optional[bool] = None,
    ) -> Any:
        """The JSON answer of one operation (None for a 204). `retry_safe`: default by method."""
        operation: Operation = OPERATIONS[operation_id]
        url = self._base + operation.url_path(path or {})
        pairs = [(k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (query or {}).items() if v is not None]
        if pairs:
            url += "?" + urlencode(pairs)
        headers = dict(self._headers)
        data: Optional[bytes] = None
        if body is not None or operation.body == "required":
            data = json.dumps({} if body is None else body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            headers["content-type"] = "application/json"
        safe = operation.method in IDEMPOTENT_METHODS if retry_safe is None else retry_safe
        for attempt in range(self.retries + 1):
            last = attempt >= self.retries
            try:
                answer = self._transport(operation.method, url, headers, data, self.timeout)
            except OSError as failure:
                # no answer: the request may or may not have been applied, so only a safe one is sent again
                if safe and not last:
                    self._sleep(self._backoff(attempt))
                    continue
                raise RtmError(NETWORK_ERROR, str(failure) or type(failure).__name__, 0) from failure
            if 200 <= answer.status < 300:
                return json.loads(answer.body.decode("utf-8")) if answer.body.strip() else None
            error = RtmError.from_response(answer.status, answer.headers, answer.body)
            # 429 is refused before any work; 503 `unavailable` may come after it, so only a safe request
            again = error.code == "rate_limited" or (safe and (error.code == "unavailable" or answer.status == 503))
            if not again or last:
                raise error
            delay = self._backoff(attempt) if error.retry_after is None else error.retry_after
            if delay > self.max_retry_delay:
                raise error
            self._sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _backoff(attempt: int) -> float:
        """0.5 s, 1 s, 2 s, … with a little jitter, so clients refused together do not return together."""
        return 0.5 * 2**attempt * (1 + random.random() / 4)
