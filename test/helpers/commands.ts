import type { ChannelCommand } from '@rtm/schemas';

export type PublishCommand = Extract<ChannelCommand, { op: 'publish' }>;

/** A server publish command as a gateway sends it to a channel owner; content `{n}`. */
export const serverPublish = (environmentId: string, channelId: string, n: number, idempotencyKey?: string): PublishCommand => ({
  op: 'publish',
  environmentId,
  channelId,
  type: 'message',
  kind: 'server',
  content: JSON.stringify({ n }),
  sender: { id: 'server', anon: false },
  ephemeral: false,
  ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
});
