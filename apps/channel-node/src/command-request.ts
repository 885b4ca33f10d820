/**
 * What one request on a partition subject carries: a framed request (libs/schemas
 * command-codec.ts: each command a JSON header plus its content's raw bytes) of one command or
 * several, all for this partition, answered with ONE reply: the CommandReply for a request of one,
 * or an array of CommandReplies in the order of the commands. Gateways send several when
 * several commands for the same partition leave in the same moment (one bus message and one
 * reply instead of one each).
 *
 * The older JSON form (ONE command as a JSON object, or several as a JSON array, content an
 * object) is still accepted, answered the same way, so gateways of the previous release keep
 * working during a rolling upgrade (docs/operations.md); it can go in the release after.
 *
 * Each command of an array is checked on its own and enters the mailbox on its own: one that is
 * refused gets its own error reply in its slot, the others go on. The reply leaves once every
 * slot is filled, and never twice.
 */
import { decodeJson } from '@rtm/bus';
import { MAX_CONTENT_BYTES, isFramed, unframeRequest, type ChannelCommand, type CommandReply, type FramedCommand } from '@rtm/schemas';
import { checkCommand } from './command-check.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Largest header of a framed command: every field but content at its bound, with room to spare. */
export const MAX_HEADER_BYTES = MAX_CONTENT_BYTES;

/** Largest encoded single command: content plus every other field at its bound, with room to spare. */
export const MAX_COMMAND_BYTES = 2 * MAX_CONTENT_BYTES;
/** Most commands in one request. */
export const MAX_COMMANDS_PER_REQUEST = 500;
/** Largest encoded request of several commands (the bus refuses larger messages anyway). */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export type Decoded =
  | { ok: true; commands: ({ ok: true; command: ChannelCommand } | { ok: false; reason: string })[]; many: boolean }
  | { ok: false; reason: string };

/** The request's commands, each checked; `many` says how the reply must be shaped. */
export function decodeRequest(data: Uint8Array): Decoded {
  if (data.length > MAX_REQUEST_BYTES) return { ok: false, reason: `the request is larger than ${MAX_REQUEST_BYTES} bytes` };
  if (isFramed(data)) {
    const framed = unframeRequest(data, MAX_COMMANDS_PER_REQUEST);
    if (!framed.ok) return framed;
    return { ok: true, commands: framed.commands.map(decodeCommand), many: framed.commands.length > 1 };
  }
  return decodeLegacy(data);
}

/** One command of a framed request: its header, then its content's bytes as JSON text, checked. */
export function decodeCommand({ header, content }: FramedCommand): { ok: true; command: ChannelCommand } | { ok: false; reason: string } {
  if (header.length > MAX_HEADER_BYTES) return { ok: false, reason: `the command's header is larger than ${MAX_HEADER_BYTES} bytes` };
  if (content.length > MAX_CONTENT_BYTES) return { ok: false, reason: `content is larger than ${MAX_CONTENT_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(header));
  } catch {
    return { ok: false, reason: 'undecodable command header' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'the command is not an object' };
  const command = value as Record<string, unknown>;
  if ('content' in command) return { ok: false, reason: 'content travels after the header, not in it' };
  if (command.op === 'publish' || command.op === 'edit') {
    try {
      command.content = utf8.decode(content);
    } catch {
      return { ok: false, reason: 'content is not valid UTF-8' };
    }
  } else if (content.length > 0) return { ok: false, reason: 'only a publish or an edit carries content' };
  const checked = checkCommand(command);
  // the bytes themselves go on to the frames and the commit (a view into the request: it lives
  // as long as the command waits, no copy)
  if (checked.ok && (checked.command.op === 'publish' || checked.command.op === 'edit')) checked.command.contentBytes = content;
  return checked;
}

/** The older JSON form: one command object, or a non-empty array of them. */
function decodeLegacy(data: Uint8Array): Decoded {
  // a single command has the tighter bound of one command
  const many = data[0] === 0x5b; // '['
  if (!many && data.length > MAX_COMMAND_BYTES) return { ok: false, reason: `the command is larger than ${MAX_COMMAND_BYTES} bytes` };
  let decoded: unknown;
  try {
    decoded = decodeJson(data);
  } catch {
    return { ok: false, reason: 'undecodable command' };
  }
  if (!many) return { ok: true, commands: [checkCommand(decoded, true)], many };
  if (!Array.isArray(decoded) || decoded.length === 0) return { ok: false, reason: 'a request of several commands must be a non-empty array' };
  if (decoded.length > MAX_COMMANDS_PER_REQUEST) return { ok: false, reason: `more than ${MAX_COMMANDS_PER_REQUEST} commands in one request` };
  return { ok: true, commands: decoded.map((value) => checkCommand(value, true)), many };
}

/**
 * Collects the replies of a request's commands and sends the request's one reply once every
 * slot is filled: `send` is called exactly once. A slot filled twice keeps its first reply.
 */
export class ReplyCollector {
  readonly #replies: (CommandReply | undefined)[];
  readonly #send: (reply: CommandReply | CommandReply[]) => void;
  readonly #many: boolean;
  #missing: number;

  constructor(count: number, many: boolean, send: (reply: CommandReply | CommandReply[]) => void) {
    if (count < 1 || (!many && count !== 1)) throw new RangeError('a request has one command, or several as an array');
    this.#replies = new Array<CommandReply | undefined>(count);
    this.#missing = count;
    this.#many = many;
    this.#send = send;
  }

  /** The function that answers command `index`. */
  slot(index: number): (reply: CommandReply) => void {
    return (reply) => {
      if (this.#replies[index] !== undefined) return;
      this.#replies[index] = reply;
      if (--this.#missing > 0) return;
      this.#send(this.#many ? (this.#replies as CommandReply[]) : this.#replies[0]!);
    };
  }
}
