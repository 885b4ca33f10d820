package rtm

import (
	"context"
	"io"
	"net/http"
	"testing"
)

func TestStatsAsksByUnitAndDecodesEveryCounter(t *testing.T) {
	var query string
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/stats" || r.Method != http.MethodGet {
			envelope(w, 404, "not_found", r.URL.Path)
			return
		}
		query = r.URL.RawQuery
		io.WriteString(w, `{"data":[{"start":"2026-12-07T10:00:00.000Z","unit":"hour","messagesPublished":7,"connectionsAverage":1.25,"webhookFailedAttempts":2}]}`)
	})
	unit, limit := StatsEntryUnitHour, int64(2)
	list, err := c.Stats(context.Background(), &GetStatsParams{Unit: &unit, Limit: &limit})
	if err != nil || query != "limit=2&unit=hour" || len(list.Data) != 1 {
		t.Fatalf("Stats: %+v %v (query %q)", list, err, query)
	}
	entry := list.Data[0]
	if entry.MessagesPublished != 7 || entry.ConnectionsAverage != 1.25 || entry.WebhookFailedAttempts != 2 || entry.Unit != StatsEntryUnitHour {
		t.Fatalf("entry: %+v", entry)
	}
}
