/**
 * The bus encoding of channel commands (gateway → partition owner). A publish's content is
 * carried as the bytes it arrived as, never re-serialised: each command is a small JSON header
 * (every field but `content`) followed by the content's raw UTF-8 JSON text.
 *
 * A request (one NATS message) is:
 *
 *     0x01                       version byte (an older request, plain JSON, starts with `{`,
 *                                `[` or whitespace, never 0x01)
 *     count       uint16 BE      commands in the request, at least 1
 *     then per command:
 *       headerLength   uint32 BE
 *       contentLength  uint32 BE  0 for a command without content (a retraction, a reaction)
 *       header         UTF-8 JSON object: the command without `content`
 *       content        UTF-8 JSON text: a publish's or an edit's content exactly as the client sent it
 *
 * A request of one command is answered with one reply, of several with an array of replies in
 * command order (as before). Decoding only cuts the request into its parts: whether a header or
 * a content is acceptable is the owner's check (apps/channel-node/src/command-check.ts).
 */
import type { ChannelCommand } from './channels.ts';

export const FRAMED_VERSION = 0x01;
/** Bytes of the request prefix (version, count) and of each command's lengths. */
const PREFIX_BYTES = 3;
const LENGTHS_BYTES = 8;
const MAX_COUNT = 0xffff;

/** One command's part of a request, encoded once by the gateway. */
export function encodeCommand(command: ChannelCommand): Uint8Array {
  let header: string;
  let content: string | Uint8Array = '';
  if (command.op === 'publish' || command.op === 'edit') {
    const { content: text, contentBytes, ...rest } = command;
    header = JSON.stringify(rest);
    content = contentBytes ?? text;
  } else header = JSON.stringify(command);
  const headerLength = Buffer.byteLength(header, 'utf8');
  const contentLength = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.length;
  const bytes = Buffer.allocUnsafe(LENGTHS_BYTES + headerLength + contentLength);
  bytes.writeUInt32BE(headerLength, 0);
  bytes.writeUInt32BE(contentLength, 4);
  bytes.write(header, LENGTHS_BYTES, 'utf8');
  if (typeof content !== 'string') bytes.set(content, LENGTHS_BYTES + headerLength);
  else if (contentLength > 0) bytes.write(content, LENGTHS_BYTES + headerLength, 'utf8');
  return bytes;
}

/** A request of the given encoded commands (from encodeCommand), in order. */
export function frameRequest(commands: readonly Uint8Array[]): Uint8Array {
  if (commands.length < 1 || commands.length > MAX_COUNT) throw new RangeError(`a request holds 1-${MAX_COUNT} commands`);
  let total = PREFIX_BYTES;
  for (const command of commands) total += command.length;
  const bytes = Buffer.allocUnsafe(total);
  bytes[0] = FRAMED_VERSION;
  bytes.writeUInt16BE(commands.length, 1);
  let at = PREFIX_BYTES;
  for (const command of commands) {
    bytes.set(command, at);
    at += command.length;
  }
  return bytes;
}

/** Whether `data` is a framed request (else: the older JSON form). */
export const isFramed = (data: Uint8Array): boolean => data.length > 0 && data[0] === FRAMED_VERSION;

export interface FramedCommand {
  header: Uint8Array;
  content: Uint8Array;
}

export type Unframed = { ok: true; commands: FramedCommand[] } | { ok: false; reason: string };

/**
 * Cuts a framed request into its commands (views into `data`, nothing copied). Refused with a
 * reason: a wrong version, no command or more than `maxCount`, lengths that run past the end or
 * leave bytes over. The size of each part is for the caller to bound, command by command.
 */
export function unframeRequest(data: Uint8Array, maxCount: number): Unframed {
  if (data.length < PREFIX_BYTES || data[0] !== FRAMED_VERSION) return { ok: false, reason: 'not a framed request' };
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint16(1);
  if (count === 0) return { ok: false, reason: 'a request holds at least one command' };
  if (count > maxCount) return { ok: false, reason: `more than ${maxCount} commands in one request` };
  const commands: FramedCommand[] = [];
  let at = PREFIX_BYTES;
  for (let i = 0; i < count; i++) {
    if (at + LENGTHS_BYTES > data.length) return { ok: false, reason: `command ${i} is cut short` };
    const headerLength = view.getUint32(at);
    const contentLength = view.getUint32(at + 4);
    const headerStart = at + LENGTHS_BYTES;
    const contentStart = headerStart + headerLength;
    const end = contentStart + contentLength;
    if (end > data.length) return { ok: false, reason: `command ${i} is cut short` };
    commands.push({ header: data.subarray(headerStart, contentStart), content: data.subarray(contentStart, end) });
    at = end;
  }
  if (at !== data.length) return { ok: false, reason: 'bytes left over after the last command' };
  return { ok: true, commands };
}
