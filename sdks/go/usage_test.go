package rtm

import (
	"context"
	"errors"
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

func TestQuotaAndASpentQuotaIsNotRetried(t *testing.T) {
	calls := 0
	c, waits := fake(t, func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Path == "/v1/quota" {
			io.WriteString(w, `{"period":{"start":"2026-12-01T00:00:00Z","resetsAt":"2027-01-01T00:00:00Z"},"quotas":{"messages":{"limit":10,"used":10,"remaining":0},"connectionMinutes":{"limit":null,"used":3,"remaining":null}}}`)
			return
		}
		w.Header().Set("content-type", "application/json")
		w.Header().Set("retry-after", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"code":"quota_exceeded","reason":"monthly message quota spent","quota":{"quota":"monthlyMessages","limit":10,"used":10,"resetsAt":"2027-01-01T00:00:00Z"}}`)
	})
	quota, err := c.Quota(context.Background())
	if err != nil || *quota.Quotas.Messages.Limit != 10 || quota.Quotas.ConnectionMinutes.Limit != nil || quota.Period.ResetsAt.Month() != 1 {
		t.Fatalf("Quota: %+v %v", quota, err)
	}
	_, err = c.Publish(context.Background(), "room", PublishMessageInput{Content: []byte(`{}`)})
	var refusal *Error
	if !errors.As(err, &refusal) || refusal.Code != "quota_exceeded" || refusal.Quota == nil || refusal.Quota.Quota != QuotaRefusalQuotaMonthlyMessages || refusal.Quota.Used != 10 {
		t.Fatalf("Publish: %v", err)
	}
	if calls != 2 || len(*waits) != 0 {
		t.Fatalf("a spent quota was tried again: %d calls, waits %v", calls, *waits)
	}
}
