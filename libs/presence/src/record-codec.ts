/**
 * The presence bucket's keys and values, shared by every gateway of a release (pure).
 *
 * A record is one value per (environment, channel, gateway, shard), keyed
 * `<env>.<channel>.<gateway instance>.<shard>` (the channel id base64url-encoded, so the key has
 * exactly four tokens), holding `{"<userId>": <sockets>, …}`: the users of that shard the gateway
 * holds sockets for on the channel. A user's shard is a hash of their id, the same on every
 * gateway and every channel, so a write of a big channel carries ~1/RECORD_SHARDS of it.
 *
 * Users who entered presence (`presence-enter`) with data are under one more key, ENTRIES_KEY:
 * `{"ann": 1, "bob": 2, "#": {"ann": <data>}}`, the data as the client sent it (at most
 * PRESENCE_DATA_MAX bytes serialized; `null` when entered without). No user id can be `#`, and a
 * gateway of the previous release, which takes only numbers as users, skips it.
 */
import { encodeToken } from '@rtm/bus';

/** A record's users: userId → sockets on that gateway. */
export type RecordUsers = Map<string, number>;
/** A record's entered users: userId → their presence data serialized (`null` when entered without). */
export type RecordEntries = Map<string, string>;

/** The key of a record's entries (not a user id: `#` is not among a user id's characters). */
export const ENTRIES_KEY = '#';
/** The most presence data one user may set on a channel, serialized, in bytes (a 1 KiB ceiling per user per record). */
export const PRESENCE_DATA_MAX = 1024;

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

/** The entries of a parsed record (userId → data as parsed), or undefined when it has none. */
export function entriesOf(parsed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const entries = parsed?.[ENTRIES_KEY];
  return entries !== null && typeof entries === 'object' && !Array.isArray(entries) ? (entries as Record<string, unknown>) : undefined;
}

/** A record's entered users, each with their data serialized; only users the record holds count. */
export function decodeEntries(value: Uint8Array): RecordEntries {
  const out: RecordEntries = new Map();
  const parsed = parseRecord(value);
  const entries = entriesOf(parsed);
  for (const userId in entries) {
    const sockets = parsed![userId];
    if (typeof sockets === 'number' && sockets > 0) out.set(userId, JSON.stringify(entries[userId] ?? null));
  }
  return out;
}

const encoder = new TextEncoder();

/** The value of a record holding `users`, and `entries` (data already serialized) for those who entered. */
export function encodeRecord(users: ReadonlyMap<string, number>, entries?: ReadonlyMap<string, string>): Uint8Array {
  let text = '{';
  for (const [userId, sockets] of users) text += `${text.length > 1 ? ',' : ''}${JSON.stringify(userId)}:${sockets}`;
  if (entries && entries.size > 0) {
    let inner = '';
    for (const [userId, data] of entries) if (users.has(userId)) inner += `${inner ? ',' : ''}${JSON.stringify(userId)}:${data}`;
    if (inner) text += `${text.length > 1 ? ',' : ''}${JSON.stringify(ENTRIES_KEY)}:{${inner}}`;
  }
  return encoder.encode(`${text}}`);
}

/** Presence data serialized (undefined as `null`), or undefined when it is over PRESENCE_DATA_MAX bytes. */
export function serializeData(data: unknown): string | undefined {
  const text = JSON.stringify(data === undefined ? null : data);
  return encoder.encode(text).length <= PRESENCE_DATA_MAX ? text : undefined;
}
