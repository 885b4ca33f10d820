"""
Server SDK of the realtime messaging service: `RtmClient` for the control plane (secret key),
`RtmError` for its refusals, and the webhook verifier. The typed models are in `rtm_server.models`.
"""
from ._http import HttpResponse, Transport
from .client import BatchPublishResult, RtmClient
from .errors import HTTP_ERROR, NETWORK_ERROR, RtmError, parse_retry_after
from .operations import OPERATIONS
from .webhooks import (
    SIGNATURE_HEADER,
    WebhookVerificationError,
    parse_webhook,
    verify_service_signature,
    verify_standard_webhook,
    verify_webhook,
)

__version__ = "1.0.0"

__all__ = [
    "BatchPublishResult",
    "HTTP_ERROR",
    "HttpResponse",
    "NETWORK_ERROR",
    "OPERATIONS",
    "RtmClient",
    "RtmError",
    "SIGNATURE_HEADER",
    "Transport",
    "WebhookVerificationError",
    "parse_retry_after",
    "parse_webhook",
    "verify_service_signature",
    "verify_standard_webhook",
    "verify_webhook",
]
