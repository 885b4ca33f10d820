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
