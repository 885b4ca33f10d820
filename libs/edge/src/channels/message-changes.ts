/**
 * Edits and reactions from every entry point (HTTP on both hosts, the channel socket, the
 * multiplexed socket): checked here (the content's size, the namespace, the caller's rights),
 * then sent to the channel's owner, which orders them with the channel's messages
 * (apps/channel-node change-writer.ts).
 */
import { ServiceError } from '@rtm/errors';
import type { EditResult, ReactResult } from '@rtm/schemas';
import type { EdgeDeps } from '../edge-deps.ts';
import type { UserAuth } from '../auth/authenticate.ts';
import { authorize, namespaceOf } from '../access/channel-access.ts';
import { checkContentSize } from './publish.ts';

export type ChangeDeps = Pick<EdgeDeps, 'accessCache' | 'owners' | 'pool' | 'standings'>;

export interface EditArgs {
  environmentId: string;
  channelId: string;
  messageId: string;
  /** The new content's JSON text exactly as it arrived (raw-content.ts). */
  content: string;
  /** `updatedBy`: the editing user, null for the backend. */
  editor: string | null;
  /** Realtime edge: only this sender's messages. */
  onlySender?: string;
}

/** An edit: the content's size (64 KiB, the namespace's `maxContentBytes`), then the owner. */
export async function sendEdit(deps: Pick<EdgeDeps, 'accessCache' | 'owners' | 'pool'>, args: EditArgs): Promise<EditResult> {
  checkContentSize(args);
  const namespace = await namespaceOf(deps, args.environmentId, args.channelId);
  const size = Buffer.byteLength(args.content, 'utf8');
  if (namespace.maxContentBytes !== null && size > namespace.maxContentBytes) {
    throw new ServiceError(
      'payload_too_large',
      `content is over ${namespace.maxContentBytes} bytes (the limit of namespace ${JSON.stringify(namespace.prefix)})`,
    );
  }
  return deps.owners.send({
    op: 'edit',
    environmentId: args.environmentId,
    channelId: args.channelId,
    messageId: args.messageId,
    content: args.content,
    editor: args.editor,
    ...(args.onlySender !== undefined && { onlySender: args.onlySender }),
  });
}

/** A user's edit of their own message: the `edit` right on the channel, then sendEdit. */
export async function userEdit(deps: ChangeDeps, auth: UserAuth, channelId: string, messageId: string, content: string): Promise<EditResult> {
  await authorize(deps, auth, channelId, 'edit');
  return sendEdit(deps, { environmentId: auth.environmentId, channelId, messageId, content, editor: auth.userId, onlySender: auth.userId });
}

/** A reaction added (or with `remove`, taken back) by `userId`; `asReader`: the user must see the message. */
export function sendReaction(
  deps: Pick<EdgeDeps, 'owners'>,
  args: { environmentId: string; channelId: string; messageId: string; type: string; userId: string; remove: boolean; asReader: boolean },
): Promise<ReactResult> {
  return deps.owners.send({
    op: 'react',
    environmentId: args.environmentId,
    channelId: args.channelId,
    messageId: args.messageId,
    type: args.type,
    userId: args.userId,
    ...(args.remove && { remove: true }),
    ...(args.asReader && { asReader: true }),
  });
}

/** A user's reaction: the `react` right on the channel, then sendReaction as a reader. */
export async function userReaction(
  deps: ChangeDeps,
  auth: UserAuth,
  channelId: string,
  messageId: string,
  type: string,
  remove: boolean,
): Promise<ReactResult> {
  await authorize(deps, auth, channelId, 'react');
  return sendReaction(deps, { environmentId: auth.environmentId, channelId, messageId, type, userId: auth.userId, remove, asReader: true });
}
