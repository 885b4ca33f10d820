import type { RawData } from 'ws';
import { JsonTextError, parseJsonText } from '@rtm/schemas';
import { MAX_FRAME_BYTES } from '../sockets/frame-limits.ts';
import { sizeOf } from './socket-link.ts';

/** `text`: the frame as it arrived, which a publish slices its content from (channels/raw-content.ts). */
export type FrameRead = { ok: true; value: unknown; text: string } | { ok: false; code: 'invalid_request' | 'payload_too_large'; reason: string };

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * One client frame of any socket, read by the same rules as an HTTP body: JSON text (ws has
 * already refused invalid UTF-8 and frames over MAX_FRAME_BYTES: close 4400), nesting at
 * most MAX_JSON_DEPTH, no NUL, no lone surrogate.
 */
export function readClientFrame(data: RawData, isBinary: boolean): FrameRead {
  if (sizeOf(data) > MAX_FRAME_BYTES) return { ok: false, code: 'payload_too_large', reason: `frames are at most ${MAX_FRAME_BYTES} bytes` };
  if (isBinary) return { ok: false, code: 'invalid_request', reason: 'frames are JSON text' };
  const text = textOf(data);
  try {
    return { ok: true, value: parseJsonText(text), text };
  } catch (error) {
    if (error instanceof JsonTextError) return { ok: false, code: 'invalid_request', reason: error.message };
    return { ok: false, code: 'invalid_request', reason: 'malformed JSON' };
  }
}
