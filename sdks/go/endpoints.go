package rtm

import (
	"context"
	"net/http"
)

// WebhookSecret is the signing secret "whsec_…" of the configuration's webhook. 404
// webhooks_not_configured before a webhook is deployed.
func (c *Client) WebhookSecret(ctx context.Context) (string, error) {
	return secretOf(call[WebhookSecret](ctx, c, request{method: http.MethodGet, path: "/v1/webhooks/secret"}))
}

// RotateWebhookSecret rotates the signing secret and returns the new one; the old one still
// signs for 24 h.
func (c *Client) RotateWebhookSecret(ctx context.Context) (string, error) {
	return secretOf(call[WebhookSecret](ctx, c, request{method: http.MethodPost, path: "/v1/webhooks/secret/rotate"}))
}

// Deliveries is one page of the delivery ledger, newest first; pass NextCursor as Cursor for the next.
func (c *Client) Deliveries(ctx context.Context, params *ListDeliveriesParams) (*WebhookDeliveryList, error) {
	return call[WebhookDeliveryList](ctx, c, request{method: http.MethodGet, path: "/v1/webhooks/deliveries", query: params.Values()})
}

// AllDeliveries walks every delivery matching params (its Cursor ignored), newest first.
func (c *Client) AllDeliveries(params *ListDeliveriesParams) *Iterator[WebhookDelivery] {
	var query ListDeliveriesParams
	if params != nil {
		query = *params
	}
	return newIterator(func(ctx context.Context, cursor *string) ([]WebhookDelivery, *string, error) {
		query.Cursor = cursor
		page, err := c.Deliveries(ctx, &query)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Delivery is one delivery with its attempt log.
func (c *Client) Delivery(ctx context.Context, deliveryID string) (*WebhookDeliveryDetail, error) {
	return call[WebhookDeliveryDetail](ctx, c, request{method: http.MethodGet, path: path("v1", "webhooks", "deliveries", deliveryID)})
}

// RetryDelivery re-queues a dropped delivery for one immediate attempt.
func (c *Client) RetryDelivery(ctx context.Context, deliveryID string) (*WebhookDelivery, error) {
	return call[WebhookDelivery](ctx, c, request{method: http.MethodPost, path: path("v1", "webhooks", "deliveries", deliveryID, "retry")})
}

// CreateWebhookEndpoint creates an endpoint; the answer carries its Secret ("whsec_…").
func (c *Client) CreateWebhookEndpoint(ctx context.Context, input CreateWebhookEndpointInput) (*CreatedWebhookEndpoint, error) {
	return call[CreatedWebhookEndpoint](ctx, c, request{method: http.MethodPost, path: "/v1/webhook-endpoints", body: input})
}

// WebhookEndpoints is one page of the endpoints, oldest first; pass NextCursor as Cursor for the next.
func (c *Client) WebhookEndpoints(ctx context.Context, params *ListWebhookEndpointsParams) (*WebhookEndpointList, error) {
	return call[WebhookEndpointList](ctx, c, request{method: http.MethodGet, path: "/v1/webhook-endpoints", query: params.Values()})
}

// AllWebhookEndpoints walks every endpoint, pageSize at a time (0: 100).
func (c *Client) AllWebhookEndpoints(pageSize int64) *Iterator[WebhookEndpoint] {
	if pageSize <= 0 {
		pageSize = 100
	}
	return newIterator(func(ctx context.Context, cursor *string) ([]WebhookEndpoint, *string, error) {
		page, err := c.WebhookEndpoints(ctx, &ListWebhookEndpointsParams{Limit: Ptr(pageSize), Cursor: cursor})
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// WebhookEndpoint reads one endpoint.
func (c *Client) WebhookEndpoint(ctx context.Context, endpointID string) (*WebhookEndpoint, error) {
	return call[WebhookEndpoint](ctx, c, request{method: http.MethodGet, path: path("v1", "webhook-endpoints", endpointID)})
}

// UpdateWebhookEndpoint changes the fields given (Null[T]() clears a filter or the rate limit;
// Disabled false enables it again). Sending the same change twice gives the same endpoint.
func (c *Client) UpdateWebhookEndpoint(ctx context.Context, endpointID string, change UpdateWebhookEndpointInput) (*WebhookEndpoint, error) {
	return call[WebhookEndpoint](ctx, c, request{method: http.MethodPatch, path: path("v1", "webhook-endpoints", endpointID), body: change, idempotent: true})
}

// DeleteWebhookEndpoint deletes the endpoint and its ledger.
func (c *Client) DeleteWebhookEndpoint(ctx context.Context, endpointID string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: path("v1", "webhook-endpoints", endpointID)}, nil)
	return err
}

// WebhookEndpointSecret is the endpoint's signing secret.
func (c *Client) WebhookEndpointSecret(ctx context.Context, endpointID string) (string, error) {
	return secretOf(call[WebhookSecret](ctx, c, request{method: http.MethodGet, path: path("v1", "webhook-endpoints", endpointID, "secret")}))
}

// RotateWebhookEndpointSecret gives the endpoint a new secret; the old one still signs for 24 h.
func (c *Client) RotateWebhookEndpointSecret(ctx context.Context, endpointID string) (string, error) {
	return secretOf(call[WebhookSecret](ctx, c, request{method: http.MethodPost, path: path("v1", "webhook-endpoints", endpointID, "secret", "rotate")}))
}

// TestWebhookEndpoint sends the endpoint a webhook.test event, or the catalogue's example of
// input.EventType.
func (c *Client) TestWebhookEndpoint(ctx context.Context, endpointID string, input *TestWebhookEndpointInput) (*WebhookTestEvent, error) {
	if input == nil {
		input = &TestWebhookEndpointInput{}
	}
	return call[WebhookTestEvent](ctx, c, request{method: http.MethodPost, path: path("v1", "webhook-endpoints", endpointID, "test"), body: input})
}

// RecoverWebhookEndpoint re-sends the endpoint's deliveries dropped in [Since, Until); follow the
// task with WebhookTask.
func (c *Client) RecoverWebhookEndpoint(ctx context.Context, endpointID string, window RecoverWebhookEndpointInput) (*WebhookTaskAccepted, error) {
	return call[WebhookTaskAccepted](ctx, c, request{method: http.MethodPost, path: path("v1", "webhook-endpoints", endpointID, "recover"), body: window})
}

// WebhookTask is a recovery task's progress.
func (c *Client) WebhookTask(ctx context.Context, taskID string) (*WebhookTask, error) {
	return call[WebhookTask](ctx, c, request{method: http.MethodGet, path: path("v1", "webhook-tasks", taskID)})
}

// WebhookEventTypes lists the event types with the JSON Schema of each one's data.
func (c *Client) WebhookEventTypes(ctx context.Context) (*WebhookEventTypeList, error) {
	return call[WebhookEventTypeList](ctx, c, request{method: http.MethodGet, path: "/v1/webhook-event-types"})
}

func secretOf(answer *WebhookSecret, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return answer.Secret, nil
}
