import { api, ApiError } from './api.ts';

/** A frame of the environment's logs socket. */
export interface LogFrame {
  op: 'log';
  /** Milliseconds since the epoch. */
  timestamp: number;
  level: 'debug' | 'info' | 'warn' | 'error';
  event: string;
  data: Record<string, unknown>;
}

export type LiveState = { state: 'connecting' } | { state: 'live' } | { state: 'reconnecting'; inMs: number; why: string } | { state: 'stopped'; why: string };

const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_FORBIDDEN = 4403;
const MAX_BACKOFF_MS = 15_000;

/**
 * The environment's live log, for the views that show it or react to it: mints a logs token with
 * the session, opens the logs socket on the realtime edge, and reconnects with a new token
 * (backoff with jitter, up to 15 s) when the socket closes, the token expiring (4401) included.
 * It stops for good on 4403 (no access) or when the session ends (401 on the mint). A log is a
 * live tail: what was published while it reconnected is not replayed. `close()` ends it.
 */
export function openLiveLog(envId: string, onFrame: (frame: LogFrame) => void, onState: (state: LiveState) => void): { close(): void } {
  let closed = false;
  let socket: WebSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const retry = (why: string) => {
    if (closed) return;
    const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures);
    const inMs = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
    failures += 1;
    onState({ state: 'reconnecting', inMs, why });
    timer = setTimeout(connect, inMs);
  };

  const stop = (why: string) => {
    closed = true;
    onState({ state: 'stopped', why });
  };

  async function connect(): Promise<void> {
    if (closed) return;
    onState({ state: 'connecting' });
    let token: string;
    let socketUrl: string | null;
    try {
      ({ token, socketUrl } = await api.logsToken(envId));
    } catch (failure) {
      if (failure instanceof ApiError && (failure.status === 401 || failure.status === 403 || failure.status === 404)) {
        return stop(failure.reason);
      }
      return retry(failure instanceof Error ? failure.message : String(failure));
    }
    if (closed) return;
    if (socketUrl === null) return stop('the gateway could not name its realtime address (set REALTIME_PUBLIC_URL)');
    const opened = new WebSocket(`${socketUrl}?token=${encodeURIComponent(token)}`);
    socket = opened;
    opened.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      let frame: { op?: unknown };
      try {
        frame = JSON.parse(event.data) as { op?: unknown };
      } catch {
        return;
      }
      if (frame.op === 'ready') {
        failures = 0;
        onState({ state: 'live' });
      } else if (frame.op === 'log') {
        onFrame(frame as LogFrame);
      }
    });
    opened.addEventListener('close', (event) => {
      if (closed || socket !== opened) return;
      if (event.code === CLOSE_FORBIDDEN) return stop(event.reason || "no access to this environment's log");
      // 4401: the token expired; anything else: the gateway went away, or the network
      retry(event.code === CLOSE_UNAUTHORIZED ? 'the logs token expired' : `the connection closed (${event.code})`);
    });
  }

  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      socket?.close(1000);
    },
  };
}
