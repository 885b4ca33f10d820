import type { z } from 'zod';
import { ErrorBody } from '../common.ts';
import { ChannelMessageParams } from '../channels.ts';
import {
  EditBody,
  EditResponse,
  MessageVersions,
  ReactBody,
  ReactionResponse,
  ServerEditBody,
  ServerReactBody,
  ServerUnreactQuery,
  SUMMARY_INTERVAL_MS,
  MAX_REACTIONS_PER_USER,
  MAX_REACTION_TYPES,
} from '../message-changes.ts';
import { z as zod } from 'zod';
import { SECRET_KEY, USER_TOKEN, type Operation, type Operations } from './operation.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
};
const tags = ['messages'];

const ReactionPathParams = ChannelMessageParams.extend({ type: zod.string().min(1).max(32).describe('The reaction type.') });

const EDIT_DESCRIPTION =
  "Replaces the message's content with a new version, through the channel's owner: the edit takes the channel's next seq " +
  '(`eventSeq`), so it reaches subscribers in order with the channel\'s messages as `{op:"update", eventSeq, …envelope}` and ' +
  'is replayed on resume. History shows the latest version (`version`, `updatedAt`, `updatedBy`); ' +
  '`GET …/messages/{messageId}/versions` lists every version. A `message.updated` webhook event follows. The content ' +
  "follows a publish's rules (a JSON object, 64 KiB, the namespace's `maxContentBytes`, kept exactly as sent). " +
  '409 `conflict` for a retracted message; 404 for a message not in this channel (an ephemeral message is never stored). ' +
  "Not idempotent: two edits make two versions. Realtime edge: only the message's sender, with the `edit` capability, a role " +
  'other than `readonly` and publish rights in the namespace; an edit counts as a publish against `userPublishesPerSecond`. ' +
  'Control plane: any message; `userId` is recorded as `updatedBy` (default null).';

const REACT_DESCRIPTION =
  `Adds a reaction of \`type\` by the user to the message (one per user and type: adding it again changes nothing and still ` +
  `answers 200). The message's summary (\`reactions\`: type → count, first users) changes through the channel's owner, at ` +
  `most once per message every ${SUMMARY_INTERVAL_MS} ms however many reactions arrive: reactions that arrive within ` +
  `that interval are answered together when their summary commits, and subscribers get one \`{op:"summary"}\` frame, ` +
  `webhook endpoints one \`message.reactions\` event. A user may have at most ${MAX_REACTIONS_PER_USER} types on one ` +
  `message and a message at most ${MAX_REACTION_TYPES} types (409 \`conflict\`); a retracted message takes none (409). ` +
  "Realtime edge: the token's user, with the `react` capability and read access to the channel (a `readonly` member may " +
  'react); a message addressed to others (`to`) is 404; counted by `userReactionsPerSecond`. Control plane: `userId` ' +
  'names the user.';

function changeOperations<E extends z.ZodType, R extends z.ZodType, Q extends z.ZodType>(
  security: Operation['schema']['security'],
  editBody: E,
  reactBody: R,
  unreactQuery: Q,
) {
  return {
    editMessage: {
      method: 'PATCH',
      url: '/v1/channels/:channelId/messages/:messageId',
      schema: {
        operationId: 'editMessage',
        summary: 'Edit a message',
        description: EDIT_DESCRIPTION,
        tags,
        security,
        params: ChannelMessageParams,
        body: editBody,
        response: { 200: EditResponse, ...errors },
      },
    },
    listMessageVersions: {
      method: 'GET',
      url: '/v1/channels/:channelId/messages/:messageId/versions',
      schema: {
        operationId: 'listMessageVersions',
        summary: "List a message's versions",
        description:
          "Every version of the message's content, oldest first; the last is the content now. A retracted message has none " +
          '(its content and earlier versions were deleted with it). Realtime edge: the same read access as history ' +
          '(the `history` capability; a message addressed to others is 404).',
        tags,
        security,
        params: ChannelMessageParams,
        response: { 200: MessageVersions, ...errors },
      },
    },
    addReaction: {
      method: 'POST',
      url: '/v1/channels/:channelId/messages/:messageId/reactions',
      schema: {
        operationId: 'addReaction',
        summary: 'React to a message',
        description: REACT_DESCRIPTION,
        tags,
        security,
        params: ChannelMessageParams,
        body: reactBody,
        response: { 200: ReactionResponse, ...errors },
      },
    },
    removeReaction: {
      method: 'DELETE',
      url: '/v1/channels/:channelId/messages/:messageId/reactions/:type',
      schema: {
        operationId: 'removeReaction',
        summary: 'Take back a reaction',
        description:
          "Removes the user's reaction of `type` (200 with `reacted: false` also when there was none). Summarised like an " +
          'addition. Control plane: `?userId=` names the user.',
        tags,
        security,
        params: ReactionPathParams,
        querystring: unreactQuery,
        response: { 200: ReactionResponse, ...errors },
      },
    },
  } as const satisfies Operations;
}

/** Control plane: edit any message, react on behalf of a user, versions. */
export const controlChangeOperations = changeOperations(SECRET_KEY, ServerEditBody, ServerReactBody, ServerUnreactQuery);
/** Realtime edge: edit one's own messages, react, versions. */
export const realtimeChangeOperations = changeOperations(USER_TOKEN, EditBody, ReactBody, zod.object({}).strict());
