/**
 * The part of a fake NATS connection the owner batcher's tests share: the subscription that
 * carries channel-nodes' ownership announcements, and `announce` to send one as a node would.
 */
import { ownerAnnouncement, type NatsConnection } from '@rtm/bus';

export function announcingBus(): { nc: NatsConnection; announce: (node: string, partitions: number[]) => void } {
  let announcements: ((error: unknown, msg: { data: Uint8Array }) => void) | undefined;
  const nc = {
    subscribe: (_subject: string, options: { callback: (error: unknown, msg: { data: Uint8Array }) => void }) => {
      announcements = options.callback;
      return { unsubscribe: () => {} };
    },
    publish: () => {},
  } as unknown as NatsConnection;
  const announce = (node: string, partitions: number[]) =>
    announcements!(null, { data: new TextEncoder().encode(JSON.stringify(ownerAnnouncement(node, partitions))) });
  return { nc, announce };
}
