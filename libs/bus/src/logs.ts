import type { NatsConnection } from 'nats';
import type { Subjects } from './subjects.ts';
import { logListened } from './log-interest.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A live log frame as the logs socket sends it. */
export interface LogFrame {
  op: 'log';
  timestamp: number;
  level: LogLevel;
  event: string;
  data: Record<string, unknown>;
}

const encoder = new TextEncoder();

/** Frames one bus message carries at most (a frame is ~100-300 bytes: far under NATS's payload limit). */
const MAX_FRAMES_PER_MESSAGE = 256;

/** Frames waiting for the end of this event-loop turn, per connection and subject (in order). */
const pending = new WeakMap<NatsConnection, Map<string, LogFrame[]>>();

function flush(nc: NatsConnection): void {
  const subjects = pending.get(nc);
  if (!subjects) return;
  pending.delete(nc);
  for (const [subject, frames] of subjects) {
    for (let at = 0; at < frames.length; at += MAX_FRAMES_PER_MESSAGE) {
      const part = frames.length === 1 ? frames[0] : frames.slice(at, at + MAX_FRAMES_PER_MESSAGE);
      try {
        nc.publish(subject, encoder.encode(JSON.stringify(part)));
      } catch {
        // connection closed while draining: nothing to tell
        return;
      }
    }
  }
}

/**
 * Queues frames for `subject`; every frame an environment's log gets in one event-loop turn goes
 * as ONE bus message at the turn's end (its check phase), in the order they came: a storm of
 * sockets opening on a gateway is then a few bus messages a turn, not one per socket.
 */
function enqueue(nc: NatsConnection, subject: string, frames: LogFrame[]): void {
  let subjects = pending.get(nc);
  if (!subjects) {
    subjects = new Map();
    pending.set(nc, subjects);
    setImmediate(flush, nc);
  }
  const queued = subjects.get(subject);
  if (queued) queued.push(...frames);
  else subjects.set(subject, frames);
}

/**
 * Publishes one event to an environment's live log (the logs socket), with the others of this
 * event-loop turn (see enqueue); nothing while nobody listens to it (log-interest.ts).
 * Fire-and-forget: a log line is never worth slowing or failing the operation it describes.
 */
export function publishLog(
  nc: NatsConnection,
  subjects: Subjects,
  environmentId: string,
  level: LogLevel,
  event: string,
  data: Record<string, unknown> = {},
): void {
  if (!logListened(nc, environmentId)) return;
  enqueue(nc, subjects.logs(environmentId), [{ op: 'log', timestamp: Date.now(), level, event, data }]);
}

/**
 * Publishes several events of one environment's live log, with the others of this turn: a bus
 * message is a JSON array of frames (a lone event goes as its frame). The logs socket sends each
 * frame on its own, so a subscriber sees the same frames either way; the channel owner logs a
 * whole commit this way instead of one bus message per message.
 */
export function publishLogs(
  nc: NatsConnection,
  subjects: Subjects,
  environmentId: string,
  entries: readonly { level: LogLevel; event: string; data?: Record<string, unknown> }[],
): void {
  if (entries.length === 0 || !logListened(nc, environmentId)) return;
  const timestamp = Date.now();
  enqueue(
    nc,
    subjects.logs(environmentId),
    entries.map((e) => ({ op: 'log', timestamp, level: e.level, event: e.event, data: e.data ?? {} })),
  );
}

/** The frames of one live-log bus message (a frame, or an array of frames), as the socket sends them. */
export function logFramesOf(text: string): string[] {
  if (!text.startsWith('[')) return [text];
  try {
    const frames = JSON.parse(text) as unknown;
    return Array.isArray(frames) ? frames.map((frame) => JSON.stringify(frame)) : [];
  } catch {
    return [];
  }
}
