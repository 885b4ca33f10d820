"""
Receiving webhooks. Every delivery carries two signatures over the same raw bytes; either is enough:

- `service-signature: t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<body>`, keyed with the
  whole secret string (`whsec_…`, UTF-8);
- Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`):
  HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with the base64-decoded part after `whsec_`.

During the 24 h after a rotation each header carries one signature per secret; any match is
accepted. Comparisons are constant-time (hmac.compare_digest).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from typing import Iterable, List, Mapping, Optional, Protocol, Tuple, Union, cast

from .models import WebhookEvent

SIGNATURE_HEADER = "service-signature"
WEBHOOK_ID_HEADER = "webhook-id"
WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp"
WEBHOOK_SIGNATURE_HEADER = "webhook-signature"
DEFAULT_TOLERANCE_SECONDS = 300

_TIMESTAMP = re.compile(r"^[0-9]{1,15}$")


class WebhookVerificationError(Exception):
    """A delivery whose signature did not verify (answer 401 and do not process it); `reason` says which check failed."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"webhook signature not verified: {reason}")
        self.reason = reason


class HeaderItems(Protocol):
    """Request headers: a dict, or http.server's `self.headers` (anything with `items()`)."""

    def items(self) -> Iterable[Tuple[str, object]]: ...


Headers = Union[Mapping[str, str], HeaderItems]


def _header(headers: Headers, name: str, separator: str) -> Optional[str]:
    """Every value of `name` (any case), joined: a repeated header counts as one list."""
    values = [str(value) for key, value in headers.items() if key.lower() == name]
    return separator.join(values) if values else None


def _bytes(raw_body: Union[bytes, str]) -> bytes:
    return raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body


def _check_time(timestamp: int, tolerance_seconds: int, now: Optional[float]) -> None:
    current = int(time.time() if now is None else now)
    if abs(current - timestamp) > tolerance_seconds:
        raise WebhookVerificationError("timestamp outside the tolerance")


def verify_service_signature(
    raw_body: Union[bytes, str], header: Optional[str], secret: str, *, tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS, now: Optional[float] = None
) -> int:
    """Checks a `service-signature` value against the exact bytes received; answers its timestamp."""
    if header is None or header.strip() == "":
        raise WebhookVerificationError("missing signature header")
    timestamp: Optional[int] = None
    signatures: List[str] = []
    for part in header.split(","):
        key, eq, value = part.partition("=")
        if not eq:
            continue
        key, value = key.strip(), value.strip()
        if key == "t":
            if not _TIMESTAMP.match(value):
                raise WebhookVerificationError("malformed t")
            timestamp = int(value)
        elif key == "v1":
            signatures.append(value)
    if timestamp is None:
        raise WebhookVerificationError("no t in signature header")
    if not signatures:
        raise WebhookVerificationError("no v1 in signature header")
    _check_time(timestamp, tolerance_seconds, now)
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + _bytes(raw_body), hashlib.sha256)
    expected = mac.hexdigest().encode("ascii")
    # no early exit: every candidate is compared, so timing says nothing about which matched
    matched = False
    for signature in signatures:
        if hmac.compare_digest(signature.encode("utf-8"), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("signature mismatch")
    return timestamp


def standard_key(secret: str) -> bytes:
    """The Standard Webhooks HMAC key: the base64 part after `whsec_` (base64url secrets decode too)."""
    text = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    text = re.sub(r"[^A-Za-z0-9+/]", "", text.replace("-", "+").replace("_", "/").split("=")[0])
    if len(text) % 4 == 1:
        text = text[:-1]
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error as error:  # pragma: no cover - the text is cleaned above
        raise WebhookVerificationError(f"unreadable secret: {error}") from error


def verify_standard_webhook(
    raw_body: Union[bytes, str],
    webhook_id: Optional[str],
    webhook_timestamp: Optional[str],
    webhook_signature: Optional[str],
    secret: str,
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> int:
    """Checks the three Standard Webhooks headers against the exact bytes received; answers the timestamp."""
    if not webhook_id or not webhook_timestamp or not webhook_signature:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    if not _TIMESTAMP.match(webhook_timestamp):
        raise WebhookVerificationError("malformed webhook-timestamp")
    timestamp = int(webhook_timestamp)
    _check_time(timestamp, tolerance_seconds, now)
    signed = f"{webhook_id}.{timestamp}.".encode("utf-8") + _bytes(raw_body)
    expected = base64.b64encode(hmac.new(standard_key(secret), signed, hashlib.sha256).digest())
    matched = False
    for entry in webhook_signature.split(" "):
        version, comma, value = entry.partition(",")
        if comma and version == "v1" and hmac.compare_digest(value.encode("utf-8"), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("signature mismatch")
    return timestamp


def verify_webhook(
    raw_body: Union[bytes, str], headers: Union[Headers, str], secret: str, *, tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS, now: Optional[float] = None
) -> int:
    """
    Verifies a delivery with the endpoint's `whsec_…` secret and answers its timestamp, or raises
    WebhookVerificationError. `headers`: the request's headers (`service-signature` is checked
    when present, otherwise the Standard Webhooks ones), or the `service-signature` value itself.
    `raw_body` must be the bytes as received, never a re-serialised object.
    """
    if isinstance(headers, str):
        return verify_service_signature(raw_body, headers, secret, tolerance_seconds=tolerance_seconds, now=now)
    own = _header(headers, SIGNATURE_HEADER, ",")
    if own is not None:
        return verify_service_signature(raw_body, own, secret, tolerance_seconds=tolerance_seconds, now=now)
    return verify_standard_webhook(
        raw_body,
        _header(headers, WEBHOOK_ID_HEADER, " "),
        _header(headers, WEBHOOK_TIMESTAMP_HEADER, " "),
        _header(headers, WEBHOOK_SIGNATURE_HEADER, " "),
        secret,
        tolerance_seconds=tolerance_seconds,
        now=now,
    )


def parse_webhook(
    raw_body: Union[bytes, str], headers: Union[Headers, str], secret: str, *, tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS, now: Optional[float] = None
) -> WebhookEvent:
    """Verifies a delivery (as `verify_webhook`) and answers its event. Deduplicate on its `id`: delivery is at least once."""
    verify_webhook(raw_body, headers, secret, tolerance_seconds=tolerance_seconds, now=now)
    return cast(WebhookEvent, json.loads(_bytes(raw_body).decode("utf-8")))
