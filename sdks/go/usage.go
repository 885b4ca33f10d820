package rtm

import (
	"context"
	"net/http"
)

// Stats is the environment's usage by minute, hour, day or month (UTC intervals; an interval
// in which nothing was counted is left out). Without params: the last 100 minutes, newest first.
func (c *Client) Stats(ctx context.Context, params *GetStatsParams) (*StatsList, error) {
	return call[StatsList](ctx, c, request{method: http.MethodGet, path: path("v1", "stats"), query: params.Values()})
}

// Quota is this month's use of the environment's monthly quotas (messages, connection-minutes)
// against their limits (nil: unlimited), and when they reset.
func (c *Client) Quota(ctx context.Context) (*Quota, error) {
	return call[Quota](ctx, c, request{method: http.MethodGet, path: path("v1", "quota")})
}
