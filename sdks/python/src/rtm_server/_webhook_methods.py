"""Webhooks from the sending side: the default endpoint's secret and ledger, and the endpoints API."""
from __future__ import annotations

from typing import Iterator, List, Optional

from ._http import Core
from .models import (
    CreatedWebhookEndpoint,
    CreateWebhookEndpointBody,
    RecoverWebhookEndpointBody,
    TestWebhookEndpointBody,
    UpdateWebhookEndpointBody,
    WebhookDelivery,
    WebhookDeliveryDetail,
    WebhookDeliveryList,
    WebhookEndpoint,
    WebhookEndpointList,
    WebhookEventTypeList,
    WebhookTask,
    WebhookTaskAccepted,
    WebhookTestEvent,
)
from .paging import cursor_pages


class WebhookMethods(Core):
    # the default endpoint (the configuration's `webhooks.url`) and the delivery ledger

    def webhook_secret(self) -> str:
        """The signing secret `whsec_…`. 404 `webhooks_not_configured` before a webhook is deployed."""
        return self._call("getWebhookSecret")["secret"]

    def rotate_webhook_secret(self) -> str:
        """A new signing secret; the old one still signs for 24 h."""
        return self._call("rotateWebhookSecret")["secret"]

    def deliveries(
        self, *, status: Optional[str] = None, endpoint_id: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> WebhookDeliveryList:
        """One page of the delivery ledger, newest first; pass `nextCursor` as `cursor` for the next."""
        return self._call("listDeliveries", query={"status": status, "endpointId": endpoint_id, "limit": limit, "cursor": cursor})

    def iter_deliveries(self, *, status: Optional[str] = None, endpoint_id: Optional[str] = None) -> Iterator[WebhookDelivery]:
        """Every delivery matching the filters, newest first, page after page."""

        def fetch(cursor: Optional[str]) -> "tuple[List[WebhookDelivery], Optional[str]]":
            page = self.deliveries(status=status, endpoint_id=endpoint_id, cursor=cursor)
            return page["data"], page["nextCursor"]

        return cursor_pages(fetch)

    def delivery(self, delivery_id: str) -> WebhookDeliveryDetail:
        """One delivery with its attempt log."""
        return self._call("getDelivery", {"deliveryId": delivery_id})

    def retry_delivery(self, delivery_id: str) -> WebhookDelivery:
        """Re-queues a `dropped` delivery for one immediate attempt."""
        return self._call("retryDelivery", {"deliveryId": delivery_id})

    # endpoints

    def create_webhook_endpoint(self, body: CreateWebhookEndpointBody) -> CreatedWebhookEndpoint:
        """Creates an endpoint; the answer carries its `secret` (`whsec_…`)."""
        return self._call("createWebhookEndpoint", body=body)

    def webhook_endpoints(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> WebhookEndpointList:
        """One page of the endpoints, oldest first."""
        return self._call("listWebhookEndpoints", query={"limit": limit, "cursor": cursor})

    def iter_webhook_endpoints(self, *, page_size: int = 100) -> Iterator[WebhookEndpoint]:
        """Every endpoint, page after page."""

        def fetch(cursor: Optional[str]) -> "tuple[List[WebhookEndpoint], Optional[str]]":
            page = self.webhook_endpoints(limit=page_size, cursor=cursor)
            return page["data"], page["nextCursor"]

        return cursor_pages(fetch)

    def webhook_endpoint(self, endpoint_id: str) -> WebhookEndpoint:
        return self._call("getWebhookEndpoint", {"endpointId": endpoint_id})

    def update_webhook_endpoint(self, endpoint_id: str, change: UpdateWebhookEndpointBody) -> WebhookEndpoint:
        """Changes the fields given (None clears a filter or the rate limit)."""
        return self._call("updateWebhookEndpoint", {"endpointId": endpoint_id}, body=change)

    def delete_webhook_endpoint(self, endpoint_id: str) -> None:
        """Deletes the endpoint and its ledger."""
        self._call("deleteWebhookEndpoint", {"endpointId": endpoint_id})

    def webhook_endpoint_secret(self, endpoint_id: str) -> str:
        return self._call("getWebhookEndpointSecret", {"endpointId": endpoint_id})["secret"]

    def rotate_webhook_endpoint_secret(self, endpoint_id: str) -> str:
        """A new secret; the old one still signs for 24 h."""
        return self._call("rotateWebhookEndpointSecret", {"endpointId": endpoint_id})["secret"]

    def test_webhook_endpoint(self, endpoint_id: str, body: Optional[TestWebhookEndpointBody] = None) -> WebhookTestEvent:
        """Sends the endpoint a `webhook.test` event (or the catalogue's example of `eventType`)."""
        return self._call("testWebhookEndpoint", {"endpointId": endpoint_id}, body=body or {})

    def recover_webhook_endpoint(self, endpoint_id: str, window: RecoverWebhookEndpointBody) -> WebhookTaskAccepted:
        """Re-sends the endpoint's deliveries dropped in [since, until); follow the task with `webhook_task`."""
        return self._call("recoverWebhookEndpoint", {"endpointId": endpoint_id}, body=window)

    def webhook_task(self, task_id: str) -> WebhookTask:
        return self._call("getWebhookTask", {"taskId": task_id})

    def webhook_event_types(self) -> WebhookEventTypeList:
        """The event types with the JSON Schema of each one's `data`."""
        return self._call("listWebhookEventTypes")
