package rtm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// PutMember adds a member (role "member" unless given) or changes their role.
func (c *Client) PutMember(ctx context.Context, channelID, userID string, input *PutMemberInput) (*Membership, error) {
	if input == nil {
		input = &PutMemberInput{}
	}
	return call[Membership](ctx, c, request{method: http.MethodPut, path: path("v1", "channels", channelID, "members", userID), body: input})
}

// RemoveMember removes a member (idempotent) and closes their sockets on the channel.
func (c *Client) RemoveMember(ctx context.Context, channelID, userID string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: path("v1", "channels", channelID, "members", userID)}, nil)
	return err
}

// Roster is one page of the channel's members and who is online (Limit default and maximum
// 1,000; Cursor: the previous page's NextCursor).
func (c *Client) Roster(ctx context.Context, channelID string, params *GetRosterParams) (*Roster, error) {
	return call[Roster](ctx, c, request{method: http.MethodGet, path: path("v1", "channels", channelID, "members"), query: params.Values()})
}

// AllMembers walks every member of the channel, page after page.
func (c *Client) AllMembers(channelID string) *Iterator[RosterMember] {
	return newIterator(func(ctx context.Context, cursor *string) ([]RosterMember, *string, error) {
		page, err := c.Roster(ctx, channelID, &GetRosterParams{Cursor: cursor})
		if err != nil {
			return nil, nil, err
		}
		return page.Members, page.NextCursor, nil
	})
}

// Occupancy is the channel's live subscriptions and distinct users over every gateway.
func (c *Client) Occupancy(ctx context.Context, channelID string) (*Occupancy, error) {
	return call[Occupancy](ctx, c, request{method: http.MethodGet, path: path("v1", "channels", channelID, "occupancy")})
}

// SetChannelAccess sets a channel's access: open (any user of the environment) or members.
func (c *Client) SetChannelAccess(ctx context.Context, channelID string, access ChannelSettingsAccess) (*ChannelSettings, error) {
	return call[ChannelSettings](ctx, c, request{method: http.MethodPut, path: path("v1", "channels", channelID), body: SetChannelAccessInput{Access: access}})
}

// Ban bans a user from one channel (an upsert); their sockets there are closed.
func (c *Client) Ban(ctx context.Context, channelID, userID string, input *BanFromChannelInput) (*Ban, error) {
	if input == nil {
		input = &BanFromChannelInput{}
	}
	return call[Ban](ctx, c, request{method: http.MethodPut, path: path("v1", "channels", channelID, "bans", userID), body: input})
}

// Unban lifts a channel ban (idempotent).
func (c *Client) Unban(ctx context.Context, channelID, userID string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: path("v1", "channels", channelID, "bans", userID)}, nil)
	return err
}

// GetBan is the user's live ban on the channel, or nil when there is none.
func (c *Client) GetBan(ctx context.Context, channelID, userID string) (*Ban, error) {
	return orNil(call[Ban](ctx, c, request{method: http.MethodGet, path: path("v1", "channels", channelID, "bans", userID)}))
}

// BanFromEnvironment bans a user from the whole environment: no new tokens, no channel, no inbox.
func (c *Client) BanFromEnvironment(ctx context.Context, userID string, input *BanFromEnvironmentInput) (*Ban, error) {
	if input == nil {
		input = &BanFromEnvironmentInput{}
	}
	return call[Ban](ctx, c, request{method: http.MethodPut, path: path("v1", "bans", userID), body: input})
}

// UnbanFromEnvironment lifts an environment-wide ban (idempotent).
func (c *Client) UnbanFromEnvironment(ctx context.Context, userID string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: path("v1", "bans", userID)}, nil)
	return err
}

// GetEnvironmentBan is the user's live environment-wide ban, or nil when there is none.
func (c *Client) GetEnvironmentBan(ctx context.Context, userID string) (*Ban, error) {
	return orNil(call[Ban](ctx, c, request{method: http.MethodGet, path: path("v1", "bans", userID)}))
}

// EraseUserMessages starts retracting every message of a user; follow it with ErasureJob.
func (c *Client) EraseUserMessages(ctx context.Context, userID string) (*ErasureJob, error) {
	return call[ErasureJob](ctx, c, request{method: http.MethodDelete, path: path("v1", "users", userID, "messages")})
}

// ErasureJob is an erasure job's progress.
func (c *Client) ErasureJob(ctx context.Context, jobID string) (*ErasureJob, error) {
	return call[ErasureJob](ctx, c, request{method: http.MethodGet, path: path("v1", "erasures", jobID)})
}

// followDeletionEvery is how often DeleteChannel reads a deletion's job after a 202.
var followDeletionEvery = time.Second

// DeleteChannel deletes a channel's messages, members and bans and closes its sockets. It returns
// when the deletion is done, following its job when the service answers 202 (a deletion that
// outlasted the service's wait).
func (c *Client) DeleteChannel(ctx context.Context, channelID string) (*DeletedChannel, error) {
	var raw json.RawMessage
	status, err := c.do(ctx, request{method: http.MethodDelete, path: path("v1", "channels", channelID)}, &raw)
	if err != nil {
		return nil, err
	}
	if status != http.StatusAccepted {
		var deleted DeletedChannel
		return &deleted, decodeInto(raw, &deleted)
	}
	var job ErasureJob
	if err := decodeInto(raw, &job); err != nil {
		return nil, err
	}
	for job.Status == ErasureJobStatusRunning {
		if err := c.sleep(ctx, followDeletionEvery); err != nil {
			return nil, err
		}
		next, err := c.ErasureJob(ctx, job.ID)
		if err != nil {
			return nil, err
		}
		job = *next
	}
	if job.Status == ErasureJobStatusFailed {
		reason := "gave up"
		if job.LastError != nil {
			reason = *job.LastError
		}
		return nil, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Reason: fmt.Sprintf("the channel deletion failed: %s", reason)}
	}
	if job.Deleted == nil {
		return nil, &Error{Status: http.StatusNotFound, Code: "not_found", Reason: "no such channel"}
	}
	return &DeletedChannel{ChannelID: channelID, Deleted: DeletedChannelDeleted(*job.Deleted)}, nil
}

// orNil answers nil for a 404 not_found.
func orNil[T any](v *T, err error) (*T, error) {
	var e *Error
	if errors.As(err, &e) && e.Status == http.StatusNotFound && e.Code == "not_found" {
		return nil, nil
	}
	return v, err
}
