/**
 * The presence bucket's keys and values, shared by every gateway of a release (pure).
 *
 * A record is one value per (environment, channel, gateway, shard), keyed
 * `<env>.<channel>.<gateway instance>.<shard>` (the channel id base64url-encoded, so the key has
 * exactly four tokens), holding `{"<userId>": <sockets>, …}`: the users of that shard the gateway
 * holds sockets for on the channel. A user's shard is a hash of their id, the same on every
 * gateway and every channel, so a write of a big channel carries ~1/RECORD_SHARDS of it.
 */
import { encodeToken } from '@rtm/bus';

/** A record's users: userId → sockets on that gateway. */
export type RecordUsers = Map<string, number>;

/** Records per (channel, gateway): a user's shard is a hash of their id (a write carries ~1/32 of a big channel). */
export const RECORD_SHARDS = 32;

/** FNV-1a of the user id: the user's shard, the same on every gateway and every channel. */
export function shardOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) hash = Math.imul(hash ^ userId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % RECORD_SHARDS;
}

/** The channel part of a record key (`<env>.<channel token>`): what the index and listings group by. */
export const recordChannel = (environmentId: string, channelId: string): string => `${environmentId}.${encodeToken(channelId)}`;

/** The key of the record `gateway` writes for `userId` on a channel. */
export const recordKey = (environmentId: string, channelId: string, gateway: string, userId: string): string =>
  `${recordChannel(environmentId, channelId)}.${gateway}.${shardOf(userId)}`;

/** `<env>.<channel>.<gateway>.<shard>`: the channel part (`<env>.<channel>`) and the record part (`<gateway>.<shard>`). */
export function splitRecordKey(key: string): { channel: string; gateway: string; record: string } | undefined {
  const parts = key.split('.');
  if (parts.length !== 4) return undefined;
  return { channel: `${parts[0]}.${parts[1]}`, gateway: parts[2]!, record: `${parts[2]}.${parts[3]}` };
}

const decoder = new TextDecoder();

/** A record's value as parsed: a JSON object userId → sockets, or undefined when it is not one. */
export function parseRecord(value: Uint8Array): Record<string, unknown> | undefined {
  if (value.length === 0) return undefined;
  try {
    const parsed = JSON.parse(decoder.decode(value)) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    // a value no gateway of this release writes: nobody
    return undefined;
  }
}

/** A record's value: userId → sockets; anything malformed counts as empty. */
export function decodeRecord(value: Uint8Array): RecordUsers {
  const users: RecordUsers = new Map();
  const parsed = parseRecord(value);
  for (const userId in parsed) {
    const sockets = parsed[userId];
    if (typeof sockets === 'number' && sockets > 0) users.set(userId, sockets);
  }
  return users;
}

const encoder = new TextEncoder();

/** The value of a record holding `users`. */
export function encodeRecord(users: ReadonlyMap<string, number>): Uint8Array {
  let text = '{';
  for (const [userId, sockets] of users) text += `${text.length > 1 ? ',' : ''}${JSON.stringify(userId)}:${sockets}`;
  return encoder.encode(`${text}}`);
}
