package rtm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
)

// PublishResult is the answer of Publish: Message once a persisted message is committed (201),
// or Ephemeral when it was an ephemeral one, handed to the channel for fan-out (202; also for
// every message of a namespace with persist: false).
type PublishResult struct {
	Message   *PublishedMessage
	Ephemeral *EphemeralMessage
}

// Publish publishes a server message (kind "server") to a channel. While retries are on, a
// persisted message without an IdempotencyKey is given a random one, so a retry after an
// unknown outcome (a 503 or a lost answer) cannot publish it twice.
func (c *Client) Publish(ctx context.Context, channelID string, message PublishMessageInput) (*PublishResult, error) {
	if c.retries > 0 && !isTrue(message.Ephemeral) && message.IdempotencyKey == nil {
		message.IdempotencyKey = Ptr(c.randomUUID())
	}
	contents := []json.RawMessage{message.Content}
	message.Content = json.RawMessage("0")
	encoded, err := exactContent(message, contents)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	status, err := c.do(ctx, request{
		method:     http.MethodPost,
		path:       path("v1", "channels", channelID, "messages"),
		encoded:    encoded,
		idempotent: message.IdempotencyKey != nil && !isTrue(message.Ephemeral),
	}, &raw)
	if err != nil {
		return nil, err
	}
	if status == http.StatusAccepted {
		var ephemeral EphemeralMessage
		return &PublishResult{Ephemeral: &ephemeral}, json.Unmarshal(raw, &ephemeral)
	}
	var published PublishedMessage
	return &PublishResult{Message: &published}, json.Unmarshal(raw, &published)
}

// BatchResult is one message's outcome in PublishBatch: exactly one field is set.
type BatchResult struct {
	Message   *PublishedMessage
	Ephemeral *EphemeralMessage
	// Error is a message that was not published (the others are unaffected).
	Error *BatchItemErrorError
}

// PublishBatch publishes up to 100 server messages, for one or many channels, in one request,
// and answers one result per message, in order. As with Publish, while retries are on every
// persisted message without an idempotency key is given one, which makes the batch safe to retry.
func (c *Client) PublishBatch(ctx context.Context, messages []PublishBatchInputMessage) ([]BatchResult, error) {
	keyed := make([]PublishBatchInputMessage, len(messages))
	contents := make([]json.RawMessage, len(messages))
	allKeyed := true
	for i, m := range messages {
		contents[i], m.Content = m.Content, json.RawMessage(strconv.Itoa(i))
		if c.retries > 0 && !isTrue(m.Ephemeral) && m.IdempotencyKey == nil {
			m.IdempotencyKey = Ptr(c.randomUUID())
		}
		allKeyed = allKeyed && (isTrue(m.Ephemeral) || m.IdempotencyKey != nil)
		keyed[i] = m
	}
	encoded, err := exactContent(PublishBatchInput{Messages: keyed}, contents)
	if err != nil {
		return nil, err
	}
	answer, err := call[BatchPublishResults](ctx, c, request{method: http.MethodPost, path: "/v1/messages/batch", encoded: encoded, idempotent: allKeyed})
	if err != nil {
		return nil, err
	}
	results := make([]BatchResult, len(answer.Results))
	for i, raw := range answer.Results {
		var shape struct {
			Error     *BatchItemErrorError `json:"error"`
			Ephemeral bool                 `json:"ephemeral"`
		}
		if err := json.Unmarshal(raw, &shape); err != nil {
			return nil, fmt.Errorf("rtm: decoding batch result %d: %w", i, err)
		}
		switch {
		case shape.Error != nil:
			results[i].Error = shape.Error
		case shape.Ephemeral:
			results[i].Ephemeral = new(EphemeralMessage)
			err = json.Unmarshal(raw, results[i].Ephemeral)
		default:
			results[i].Message = new(PublishedMessage)
			err = json.Unmarshal(raw, results[i].Message)
		}
		if err != nil {
			return nil, fmt.Errorf("rtm: decoding batch result %d: %w", i, err)
		}
	}
	return results, nil
}

// History is one page of a channel's persisted messages, ascending by seq (Limit default 50,
// at most 500; After/Before: seqs).
func (c *Client) History(ctx context.Context, channelID string, params *ListMessagesParams) (*History, error) {
	return call[History](ctx, c, request{method: http.MethodGet, path: path("v1", "channels", channelID, "history"), query: params.Values()})
}

// AllHistory walks every persisted message of a channel after seq `after` (0: from the first),
// ascending, pageSize at a time (0: 100).
func (c *Client) AllHistory(channelID string, after int64, pageSize int64) *Iterator[MessageEnvelope] {
	if pageSize <= 0 {
		pageSize = 100
	}
	from := after
	return newIterator(func(ctx context.Context, _ *string) ([]MessageEnvelope, *string, error) {
		page, err := c.History(ctx, channelID, &ListMessagesParams{After: Ptr(from), Limit: Ptr(pageSize)})
		if err != nil {
			return nil, nil, err
		}
		if !page.HasMore || len(page.Messages) == 0 {
			return page.Messages, nil, nil
		}
		from = page.Messages[len(page.Messages)-1].Seq
		next := strconv.FormatInt(from, 10)
		return page.Messages, &next, nil
	})
}

// Retract retracts a message (a tombstone; idempotent). 404 not_found for a message not in the channel.
func (c *Client) Retract(ctx context.Context, channelID, messageID string, input *RetractMessageInput) (*RetractedMessage, error) {
	var body any
	if input != nil {
		body = input
	}
	return call[RetractedMessage](ctx, c, request{method: http.MethodDelete, path: path("v1", "channels", channelID, "messages", messageID), body: body})
}

// EditMessage replaces a message's content with a new version. Not idempotent: two calls make
// two versions, so it is not retried after a 503 or a lost answer.
func (c *Client) EditMessage(ctx context.Context, channelID, messageID string, input EditMessageInput) (*EditedMessage, error) {
	contents := []json.RawMessage{input.Content}
	input.Content = json.RawMessage("0")
	encoded, err := exactContent(input, contents)
	if err != nil {
		return nil, err
	}
	return call[EditedMessage](ctx, c, request{method: http.MethodPatch, path: path("v1", "channels", channelID, "messages", messageID), encoded: encoded})
}

// AddReaction adds userID's reaction of reactionType; adding it again changes nothing.
func (c *Client) AddReaction(ctx context.Context, channelID, messageID, reactionType, userID string) (*Reaction, error) {
	return call[Reaction](ctx, c, request{
		method:     http.MethodPost,
		path:       path("v1", "channels", channelID, "messages", messageID, "reactions"),
		body:       AddReactionInput{Type: reactionType, UserID: userID},
		idempotent: true, // adding it again changes nothing
	})
}

// RemoveReaction takes back userID's reaction of reactionType (Reacted false, also when there was none).
func (c *Client) RemoveReaction(ctx context.Context, channelID, messageID, reactionType, userID string) (*Reaction, error) {
	query := (&RemoveReactionParams{UserID: userID}).Values()
	return call[Reaction](ctx, c, request{method: http.MethodDelete, path: path("v1", "channels", channelID, "messages", messageID, "reactions", reactionType), query: query})
}

// MessageVersions is every version of a message's content, oldest first.
func (c *Client) MessageVersions(ctx context.Context, channelID, messageID string) ([]MessageVersionsVersion, error) {
	answer, err := call[MessageVersions](ctx, c, request{method: http.MethodGet, path: path("v1", "channels", channelID, "messages", messageID, "versions")})
	if err != nil {
		return nil, err
	}
	return answer.Versions, nil
}

// Notify stores a notification in each user's inbox and delivers it to their open inbox sockets.
func (c *Client) Notify(ctx context.Context, input SendNotificationsInput) (*NotificationsCreated, error) {
	return call[NotificationsCreated](ctx, c, request{method: http.MethodPost, path: "/v1/notifications", body: input})
}

// contentSlot is where exactContent puts a content back: `"content":<its index>`. A string value
// cannot hold it unescaped (its quotes would be \").
var contentSlot = regexp.MustCompile(`"content":[0-9]+`)

// exactContent encodes v, whose Content fields hold their index (0, 1, …), and puts each content
// back byte for byte: encoding/json compacts a json.RawMessage, and the service keeps a message's
// content exactly as sent (spacing included) on sockets, in history and in webhook bodies.
func exactContent(v any, contents []json.RawMessage) ([]byte, error) {
	for i, content := range contents {
		if !json.Valid(content) {
			return nil, fmt.Errorf("rtm: the content of message %d is not valid JSON", i)
		}
	}
	encoded, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("rtm: encoding the request body: %w", err)
	}
	failed := false
	out := contentSlot.ReplaceAllFunc(encoded, func(slot []byte) []byte {
		i, err := strconv.Atoi(string(slot[len(`"content":`):]))
		if err != nil || i >= len(contents) {
			failed = true
			return slot
		}
		return append([]byte(`"content":`), contents[i]...)
	})
	if failed {
		return nil, fmt.Errorf("rtm: encoding the request body: a content slot is out of range")
	}
	return out, nil
}

func isTrue(b *bool) bool { return b != nil && *b }
