import type { NatsConnection } from 'nats';
import type { Subjects } from './subjects.ts';

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

/**
 * Publishes one event to an environment's live log (the logs socket). Fire-and-forget: a log
 * line is never worth slowing or failing the operation it describes.
 */
export function publishLog(
  nc: NatsConnection,
  subjects: Subjects,
  environmentId: string,
  level: LogLevel,
  event: string,
  data: Record<string, unknown> = {},
): void {
  const frame: LogFrame = { op: 'log', timestamp: Date.now(), level, event, data };
  try {
    nc.publish(subjects.logs(environmentId), encoder.encode(JSON.stringify(frame)));
  } catch {
    // connection closed while draining: nothing to tell
  }
}

/**
 * Publishes several events of one environment's live log as ONE bus message: a JSON array of
 * frames (a lone event goes as its frame). The logs socket sends each frame on its own, so a
 * subscriber sees the same frames either way; the channel owner logs a whole commit this way
 * instead of one bus message per message.
 */
export function publishLogs(
  nc: NatsConnection,
  subjects: Subjects,
  environmentId: string,
  entries: readonly { level: LogLevel; event: string; data?: Record<string, unknown> }[],
): void {
  if (entries.length === 0) return;
  const timestamp = Date.now();
  const frames: LogFrame[] = entries.map((e) => ({ op: 'log', timestamp, level: e.level, event: e.event, data: e.data ?? {} }));
  try {
    nc.publish(subjects.logs(environmentId), encoder.encode(JSON.stringify(frames.length === 1 ? frames[0] : frames)));
  } catch {
    // connection closed while draining: nothing to tell
  }
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
