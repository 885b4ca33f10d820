"""The control plane's client for a tenant's backend: every call answers the JSON answer's data or raises RtmError."""
from __future__ import annotations

import time
import uuid
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, Union

from ._http import Core
from ._key_methods import KeyMethods
from ._usage_methods import UsageMethods
from ._webhook_methods import WebhookMethods
from .errors import RtmError
from .models import (
    AddReactionResponse,
    Ban,
    BanFromChannelBody,
    ChannelSettings,
    ConfigDeployment,
    DeletedChannel,
    DeployConfigBody,
    EditedMessage,
    EditMessageBody,
    EphemeralMessage,
    ErasureJob,
    History,
    MessageEnvelope,
    MessageVersionsVersion,
    MintAnonymousTokenBody,
    MintTokenBody,
    Membership,
    NotificationsCreated,
    Occupancy,
    PatchConfigBody,
    BatchItemError,
    PublishBatchBodyMessage,
    PublishedMessage,
    PublishMessageBody,
    PublishMessageResponse,
    PutMemberBody,
    RemoveReactionResponse,
    BanFromEnvironmentBody,
    RetractedMessage,
    RetractMessageBody,
    Roster,
    RosterMember,
    SendNotificationsBody,
    UserToken,
)
from .paging import cursor_pages, seq_pages

BatchPublishResult = Union[PublishedMessage, EphemeralMessage, BatchItemError]

# how often delete_channel reads a deletion's job when the service answered 202
FOLLOW_DELETION_SECONDS = 1.0


class RtmClient(WebhookMethods, KeyMethods, UsageMethods, Core):
    """
    `RtmClient(url, secret_key)`: `url` is the control plane's base URL, `secret_key` the
    environment's `sk_…` (server side only). Retries (default 2) apply to 429 `rate_limited`
    always, and to 503 `unavailable` and network failures for requests that are safe to repeat:
    GET, PUT, DELETE, and publishes carrying an idempotency key; while retries are on, a persisted
    publish without one is given a random key, so a retry after an unknown outcome cannot publish
    twice. `retries=0` turns them off.
    """

    # tokens

    def mint_token(self, body: MintTokenBody) -> UserToken:
        """Mints a user token (JWT) for the realtime edge. 403 `banned` for a user banned environment-wide."""
        return self._call("mintToken", body=body)

    def mint_anonymous_token(self, body: Optional[MintAnonymousTokenBody] = None) -> UserToken:
        """Mints an anonymous user token (`userId` `anon_…`)."""
        return self._call("mintAnonymousToken", body=body)

    # messages

    def publish(self, channel_id: str, message: PublishMessageBody) -> PublishMessageResponse:
        """Publishes a server message; answers once committed (or, ephemeral, handed over for fan-out)."""
        body = message.copy()
        if self.retries > 0 and not body.get("ephemeral", False) and "idempotencyKey" not in body:
            body["idempotencyKey"] = str(uuid.uuid4())
        safe = not body.get("ephemeral", False) and "idempotencyKey" in body
        return self._call("publishMessage", {"channelId": channel_id}, body=body, retry_safe=safe)

    def publish_batch(self, messages: Sequence[PublishBatchBodyMessage]) -> List[BatchPublishResult]:
        """Publishes up to 100 messages in one request: one result per message, in order (`{error}` for a refused one)."""
        batch: List[PublishBatchBodyMessage] = []
        for message in messages:
            copy = message.copy()
            if self.retries > 0 and not copy.get("ephemeral", False) and "idempotencyKey" not in copy:
                copy["idempotencyKey"] = str(uuid.uuid4())
            batch.append(copy)
        safe = all(not m.get("ephemeral", False) and "idempotencyKey" in m for m in batch)
        answer: Dict[str, List[BatchPublishResult]] = self._call("publishBatch", body={"messages": batch}, retry_safe=safe)
        return answer["results"]

    def retract(self, channel_id: str, message_id: str, body: Optional[RetractMessageBody] = None) -> RetractedMessage:
        """Retracts a message (tombstone; idempotent). 404 `not_found` for a message not in the channel."""
        return self._call("retractMessage", {"channelId": channel_id, "messageId": message_id}, body=body)

    def history(self, channel_id: str, *, limit: Optional[int] = None, before: Optional[int] = None, after: Optional[int] = None) -> History:
        """One page, ascending by seq: the newest (before `before`), or with `after` the oldest after it."""
        return self._call("listMessages", {"channelId": channel_id}, {"limit": limit, "before": before, "after": after})

    def iter_history(self, channel_id: str, *, newest_first: bool = True, start: Optional[int] = None, page_size: int = 100) -> Iterator[MessageEnvelope]:
        """Every message, page after page: newest first (before seq `start`), or oldest first (after `start`, default 0)."""

        def fetch(bound: Optional[int]) -> "tuple[List[MessageEnvelope], bool]":
            if newest_first:
                page = self.history(channel_id, limit=page_size, before=bound)
            else:
                page = self.history(channel_id, limit=page_size, after=0 if bound is None else bound)
            return page["messages"], page["hasMore"]

        return seq_pages(fetch, lambda message: message["seq"], newest_first, start)

    def edit_message(self, channel_id: str, message_id: str, body: EditMessageBody) -> EditedMessage:
        """A new version of a message's content (not idempotent: two calls make two versions)."""
        return self._call("editMessage", {"channelId": channel_id, "messageId": message_id}, body=body)

    def add_reaction(self, channel_id: str, message_id: str, type: str, user_id: str) -> AddReactionResponse:
        """Adds `user_id`'s reaction of `type`; adding it again changes nothing."""
        return self._call("addReaction", {"channelId": channel_id, "messageId": message_id}, body={"type": type, "userId": user_id}, retry_safe=True)

    def remove_reaction(self, channel_id: str, message_id: str, type: str, user_id: str) -> RemoveReactionResponse:
        """Takes back `user_id`'s reaction of `type` (`reacted: false`, also when there was none)."""
        return self._call("removeReaction", {"channelId": channel_id, "messageId": message_id, "type": type}, {"userId": user_id})

    def message_versions(self, channel_id: str, message_id: str) -> List[MessageVersionsVersion]:
        """Every version of a message's content, oldest first."""
        return self._call("listMessageVersions", {"channelId": channel_id, "messageId": message_id})["versions"]

    # members, access, bans

    def put_member(self, channel_id: str, user_id: str, body: Optional[PutMemberBody] = None) -> Membership:
        """Adds a member (role `member` unless given) or changes their role."""
        return self._call("putMember", {"channelId": channel_id, "userId": user_id}, body=body)

    def remove_member(self, channel_id: str, user_id: str) -> None:
        """Removes a member (idempotent) and closes their sockets on the channel."""
        self._call("removeMember", {"channelId": channel_id, "userId": user_id})

    def roster(self, channel_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Roster:
        """One page of the channel's members and who is online."""
        return self._call("getRoster", {"channelId": channel_id}, {"limit": limit, "cursor": cursor})

    def iter_members(self, channel_id: str, *, page_size: Optional[int] = None) -> Iterator[RosterMember]:
        """Every member of the channel, page after page."""

        def fetch(cursor: Optional[str]) -> "tuple[List[RosterMember], Optional[str]]":
            page = self.roster(channel_id, limit=page_size, cursor=cursor)
            return page["members"], page["nextCursor"]

        return cursor_pages(fetch)

    def occupancy(self, channel_id: str) -> Occupancy:
        return self._call("getOccupancy", {"channelId": channel_id})

    def set_channel_access(self, channel_id: str, access: Literal["open", "members"]) -> ChannelSettings:
        """`open` (any user of the environment) or `members`."""
        return self._call("setChannelAccess", {"channelId": channel_id}, body={"access": access})

    def delete_channel(self, channel_id: str) -> DeletedChannel:
        """Deletes a channel's messages, members and bans; follows its job when the service answers 202."""
        answer: Union[DeletedChannel, ErasureJob] = self._call("deleteChannel", {"channelId": channel_id})
        if "id" not in answer:
            return answer
        # 202: the deletion outlasted the service's wait; its job is followed to its end
        job = answer
        while job["status"] == "running":
            time.sleep(FOLLOW_DELETION_SECONDS)
            job = self.erasure_job(job["id"])
        if job["status"] == "failed":
            raise RtmError("unavailable", f"the channel deletion failed: {job['lastError'] or 'gave up'}", 503)
        deleted = job["deleted"]
        if deleted is None:
            raise RtmError("not_found", "no such channel", 404)
        return {"channelId": channel_id, "deleted": deleted}

    def ban(self, channel_id: str, user_id: str, body: Optional[BanFromChannelBody] = None) -> Ban:
        """Bans a user from one channel (upsert); their sockets there are closed."""
        return self._call("banFromChannel", {"channelId": channel_id, "userId": user_id}, body=body)

    def unban(self, channel_id: str, user_id: str) -> None:
        self._call("unbanFromChannel", {"channelId": channel_id, "userId": user_id})

    def get_ban(self, channel_id: str, user_id: str) -> Optional[Ban]:
        """The user's live ban on the channel, or None."""
        return self._or_none("getChannelBan", {"channelId": channel_id, "userId": user_id})

    def ban_from_environment(self, user_id: str, body: Optional[BanFromEnvironmentBody] = None) -> Ban:
        """Bans a user from the whole environment: no new tokens, no channel, no inbox."""
        return self._call("banFromEnvironment", {"userId": user_id}, body=body)

    def unban_from_environment(self, user_id: str) -> None:
        self._call("unbanFromEnvironment", {"userId": user_id})

    def get_environment_ban(self, user_id: str) -> Optional[Ban]:
        return self._or_none("getEnvironmentBan", {"userId": user_id})

    # notifications and configuration

    def notify(self, body: SendNotificationsBody) -> NotificationsCreated:
        """Stores a notification in each user's inbox and delivers it to their open inbox sockets."""
        return self._call("sendNotifications", body=body)

    def deploy_config(self, config: DeployConfigBody) -> ConfigDeployment:
        """Deploys a whole configuration: what it omits takes its default."""
        return self._call("deployConfig", body=config)

    def patch_config(self, patch: PatchConfigBody) -> ConfigDeployment:
        """Merges a JSON Merge Patch into the active configuration: what it omits is kept, None removes."""
        return self._call("patchConfig", body=patch)

    def get_config(self) -> ConfigDeployment:
        return self._call("getConfig")

    def _or_none(self, operation_id: str, path: Dict[str, str]) -> Any:
        try:
            return self._call(operation_id, path)
        except RtmError as error:
            if error.status == 404 and error.code == "not_found":
                return None
            raise
