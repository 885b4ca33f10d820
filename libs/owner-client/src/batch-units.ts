/**
 * The pieces of a turn's requests (owner-batcher.ts): a command waiting to leave, who waits for
 * its reply, one partition request, and how a request's reply settles its commands.
 */
import { decodeJson } from '@rtm/bus';
import type { CommandReply } from '@rtm/schemas';

/** A command waiting to leave in a turn's request. */
export interface Entry {
  partition: number;
  /** The command, encoded (encodeCommand). */
  command: Uint8Array;
  deadline: number;
  waiter: ReplyWaiter;
  /** Answered late on purpose by its owner (owner-batcher.ts' header): travels apart from the others. */
  deferred: boolean;
}

/** Who waits for a command's reply: told exactly once, `settle` or `fail`. */
export interface ReplyWaiter {
  settle(reply: CommandReply): void;
  fail(error: unknown): void;
  /** After a NoResponders `fail`: a node announced the command's partition (awaiting-owner.ts). */
  ownerAnnounced?(): void;
}

/** One partition request of a turn: its commands, in order, and its payload. */
export interface Unit {
  partition: number;
  entries: Entry[];
  payload: Uint8Array;
  deadline: number;
}

/** Adds `entry` to the list of `key`. */
export function append<K>(map: Map<K, Entry[]>, key: K, entry: Entry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

/** Tells every command of `units` the request's error. */
export function rejectAll(units: readonly Unit[], error: unknown): void {
  for (const unit of units) for (const entry of unit.entries) entry.waiter.fail(error);
}

/** Settles a unit's commands from its reply bytes (one reply, or an array for several commands). */
export function settle(unit: Unit, data: Uint8Array): void {
  const many = unit.entries.length > 1;
  let replies: CommandReply[];
  try {
    const decoded = decodeJson<CommandReply | CommandReply[]>(data);
    replies = many ? (decoded as CommandReply[]) : [decoded as CommandReply];
    if (!Array.isArray(replies) || replies.length !== unit.entries.length) throw new Error('reply count does not match');
  } catch (error) {
    for (const entry of unit.entries) entry.waiter.fail(error);
    return;
  }
  unit.entries.forEach((entry, i) => entry.waiter.settle(replies[i]!));
}
