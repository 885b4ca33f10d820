/**
 * Messages that change after they are sent: edits (a new version of a message's content, any
 * message, recorded as the backend's or as `userId`'s) and reactions on behalf of a user, and a
 * message's versions: the methods `createServerClient` adds for them. Each change takes the
 * channel's next seq (`eventSeq`); subscribers get it as an `update` or `summary` frame, webhook
 * endpoints as `message.updated` or `message.reactions`.
 */
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';
import { expect } from './errors.ts';
import type { EditedMessage, MessageVersion, Reaction } from './types.ts';

export interface MessageChangeMethods {
  /**
   * Replaces a message's content with a new version (2 after the first edit). `userId` is
   * recorded as `updatedBy` (default null: the backend). 409 `conflict` for a retracted message,
   * 404 `not_found` for a message not in the channel. Not idempotent: two calls make two versions.
   */
  editMessage(channelId: string, messageId: string, content: Record<string, unknown>, options?: { userId?: string }): Promise<EditedMessage>;
  /** Adds `userId`'s reaction of `type` (a short name or emoji, 1-32 characters); adding it again changes nothing. */
  addReaction(channelId: string, messageId: string, type: string, userId: string): Promise<Reaction>;
  /** Takes back `userId`'s reaction of `type` (`reacted: false`, also when there was none). */
  removeReaction(channelId: string, messageId: string, type: string, userId: string): Promise<Reaction>;
  /** Every version of a message's content, oldest first (the last is the content now); none for a retracted message. */
  messageVersions(channelId: string, messageId: string): Promise<MessageVersion[]>;
}

export function messageChangeMethods(api: Client<paths>): MessageChangeMethods {
  const message = (channelId: string, messageId: string) => ({ path: { channelId, messageId } });
  return {
    editMessage: (channelId, messageId, content, options = {}) =>
      expect(
        api.PATCH('/v1/channels/{channelId}/messages/{messageId}', {
          params: message(channelId, messageId),
          body: { content, ...(options.userId !== undefined && { userId: options.userId }) },
        }),
      ),
    addReaction: (channelId, messageId, type, userId) =>
      expect(api.POST('/v1/channels/{channelId}/messages/{messageId}/reactions', { params: message(channelId, messageId), body: { type, userId } })),
    removeReaction: (channelId, messageId, type, userId) =>
      expect(
        api.DELETE('/v1/channels/{channelId}/messages/{messageId}/reactions/{type}', {
          params: { path: { channelId, messageId, type }, query: { userId } },
        }),
      ),
    messageVersions: async (channelId, messageId) =>
      (await expect(api.GET('/v1/channels/{channelId}/messages/{messageId}/versions', { params: message(channelId, messageId) }))).versions,
  };
}
