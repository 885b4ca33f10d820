/**
 * Commands on their way to partition owners, gathered per event-loop turn: the commands that
 * start in one turn and go to the same partition subject leave as ONE bus request (a framed
 * request of several encoded commands, libs/schemas command-codec.ts; the owner answers one array
 * of replies, see apps/channel-node/src/command-request.ts), and all
 * of the turn's requests leave in one socket write. Why: on these machines a socket write and a
 * bus message each cost more than the work of a small command, and under load many commands for
 * one partition start in the same turn (a batch publish always does).
 *
 * Guarantees:
 * - each command gets its own reply, or the error of the request that carried it (NoResponders:
 *   not delivered, the caller may retry; Timeout or a lost connection: outcome unknown);
 * - commands keep their order within a subject (one request, or several sent in order on one
 *   connection, which the bus keeps in order);
 * - a request carries at most MAX_PER_REQUEST commands and stays under the server's message
 *   size limit; a lone command travels as a request of one (answered by one reply, no array);
 * - a request waits for the earliest deadline among its commands.
 */
import { deadlineHeaders, decodeJson, onDisconnect, type Msg, type NatsConnection, type Requester } from '@rtm/bus';
import { frameRequest, type CommandReply } from '@rtm/schemas';

export const MAX_PER_REQUEST = 256;
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** The connection was lost with the request in flight (outcome unknown). */
export class ConnectionLostError extends Error {
  override name = 'ConnectionLostError';
}

/** The deadline passed before the request could leave: nothing was sent. */
export class NotSentError extends Error {
  override name = 'NotSentError';
}

interface Entry {
  subject: string;
  /** The command, encoded (encodeCommand). */
  command: Uint8Array;
  deadline: number;
  resolve: (reply: CommandReply) => void;
  reject: (error: unknown) => void;
}

/**
 * Splits one subject's commands (in order) into requests: at most `maxCount` commands and
 * `maxBytes` bytes each (a command larger than `maxBytes` goes alone). Pure.
 */
export function packRequests<T extends { command: Uint8Array }>(entries: readonly T[], maxBytes: number, maxCount: number): T[][] {
  const requests: T[][] = [];
  let current: T[] = [];
  // the request's version byte and count
  let bytes = 3;
  for (const entry of entries) {
    const size = entry.command.length;
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      requests.push(current);
      current = [];
      bytes = 3;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) requests.push(current);
  return requests;
}

export class OwnerBatcher {
  readonly #nc: NatsConnection;
  readonly #requester: Requester;
  #turn: Entry[] = [];

  constructor(nc: NatsConnection, requester: Requester) {
    this.#nc = nc;
    this.#requester = requester;
  }

  /** Sends `command` (one, encoded) to `subject` in this turn's request for it; its reply. */
  send(subject: string, command: Uint8Array, deadline: number): Promise<CommandReply> {
    return new Promise((resolve, reject) => {
      this.#turn.push({ subject, command, deadline, resolve, reject });
      // the check phase of this turn: every command whose HTTP body arrived in this poll phase
      if (this.#turn.length === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const turn = this.#turn;
    this.#turn = [];
    const bySubject = new Map<string, Entry[]>();
    for (const entry of turn) {
      const list = bySubject.get(entry.subject);
      if (list) list.push(entry);
      else bySubject.set(entry.subject, [entry]);
    }
    // leave room for the protocol line and headers
    const maxBytes = Math.max(64 * 1024, (this.#nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - 4096);
    for (const [subject, entries] of bySubject) {
      for (const request of packRequests(entries, maxBytes, MAX_PER_REQUEST)) this.#request(subject, request);
    }
  }

  #request(subject: string, entries: Entry[]): void {
    const deadline = Math.min(...entries.map((e) => e.deadline));
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      for (const entry of entries) entry.reject(new NotSentError('the deadline passed before the command left'));
      return;
    }
    const many = entries.length > 1;
    const payload = frameRequest(entries.map((e) => e.command));
    let off = () => {};
    const lost = new Promise<typeof LOST>((resolve) => (off = onDisconnect(this.#nc, () => resolve(LOST))));
    const request = this.#requester.request(subject, payload, { timeoutMs: remaining, headers: deadlineHeaders(remaining) });
    Promise.race([request, lost]).then(
      (msg: Msg | typeof LOST) => {
        off();
        if (msg === LOST) {
          // the request settles later (a time-out, or a reply after the reconnect): nobody awaits it
          request.catch(() => {});
          for (const entry of entries) entry.reject(new ConnectionLostError('the connection to the bus was lost'));
          return;
        }
        let replies: CommandReply[];
        try {
          const decoded = decodeJson<CommandReply | CommandReply[]>(msg.data);
          replies = many ? (decoded as CommandReply[]) : [decoded as CommandReply];
          if (!Array.isArray(replies) || replies.length !== entries.length) throw new Error('reply count does not match');
        } catch (error) {
          for (const entry of entries) entry.reject(error);
          return;
        }
        entries.forEach((entry, i) => entry.resolve(replies[i]!));
      },
      (error: unknown) => {
        off();
        for (const entry of entries) entry.reject(error);
      },
    );
  }
}

const LOST = Symbol('connection lost');
