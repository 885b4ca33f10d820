import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

export interface TestSocket {
  ws: WebSocket;
  /** Every JSON frame received so far, in order. */
  frames: any[];
  /** Resolves when the socket closes (by either side). */
  closed: Promise<Closed>;
  /** The first frame (received already or later) matching `match`; rejects if the socket closes first. */
  waitFor(what: string, match: (frame: any) => boolean, limitMs?: number): Promise<any>;
  send(frame: unknown): void;
  close(): Promise<Closed>;
}

/** Opens a WebSocket to `baseUrl` + `path` (http(s) URLs are turned into ws(s)). */
export function openSocket(baseUrl: string, path: string, headers: Record<string, string> = {}): TestSocket {
  const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, { headers });
  const frames: any[] = [];
  const waiters = new Set<() => void>();
  let closedInfo: Closed | undefined;
  const closed = new Promise<Closed>((resolve) => {
    ws.on('close', (code, reason) => {
      closedInfo = { code, reason: reason.toString() };
      resolve(closedInfo);
      for (const wake of waiters) wake();
    });
  });
  ws.on('error', () => {});
  ws.on('message', (data) => {
    try {
      frames.push(JSON.parse(String(data)));
    } catch {
      frames.push(String(data));
    }
    for (const wake of waiters) wake();
  });
  return {
    ws,
    frames,
    closed,
    waitFor(what, match, limitMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (found !== undefined) return done(() => resolve(found));
          if (closedInfo)
            return done(() => reject(new Error(`${what}: socket closed ${closedInfo!.code} ${closedInfo!.reason}; frames ${JSON.stringify(frames)}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${what}: not received in ${limitMs} ms; frames ${JSON.stringify(frames)}`))), limitMs);
        const done = (finish: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          finish();
        };
        waiters.add(check);
        check();
      });
    },
    send(frame) {
      ws.send(JSON.stringify(frame));
    },
    async close() {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
      return closed;
    },
  };
}
