import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';
import { eventually } from './eventually.ts';

/** One dispatched event of a stream: its id (the last one set, as EventSource keeps it) and its data as parsed JSON. */
export interface StreamEvent {
  id: string;
  data: any;
}

export interface TestStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The answer's body parsed as JSON when the server refused the stream (not 200). */
  body: any;
  /** Every line of the stream as received, for the checks on its framing (`retry:`, comments). */
  lines: string[];
  events: StreamEvent[];
  /** The frames (each event's data). */
  frames: any[];
  /** The last event id, as an EventSource would send it back in `Last-Event-ID`. */
  readonly lastId: string;
  /** Resolves when the server ends the response or the connection goes. */
  ended: Promise<void>;
  waitFor(what: string, match: (frame: any) => boolean, limitMs?: number): Promise<any>;
  /** Drops the connection, as a network that cuts it. */
  cut(): void;
}

/**
 * Opens `GET path` on `baseUrl` and reads it as an event stream, parsed as the EventSource
 * specification says (fields up to the first colon, a blank line dispatches, `data` lines joined
 * with line feeds, `id` kept across events). A non-200 answer is read whole as the error envelope.
 */
export function openStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<TestStream> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    let req: ClientRequest;
    const lines: string[] = [];
    const events: StreamEvent[] = [];
    let lastId = '';
    let data: string[] = [];
    let partial = '';
    const dispatch = () => {
      if (data.length === 0) return;
      events.push({ id: lastId, data: JSON.parse(data.join('\n')) });
      data = [];
    };
    const line = (text: string) => {
      lines.push(text);
      if (text === '') return dispatch();
      if (text.startsWith(':')) return;
      const colon = text.indexOf(':');
      const field = colon === -1 ? text : text.slice(0, colon);
      let value = colon === -1 ? '' : text.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'id') lastId = value;
    };
    req = httpRequest(url, { method: 'GET', headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let endedResolve!: () => void;
      const ended = new Promise<void>((done) => (endedResolve = done));
      res.on('close', () => endedResolve());
      res.on('error', () => endedResolve());
      const stream: TestStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        lines,
        events,
        get frames() {
          return events.map((event) => event.data);
        },
        get lastId() {
          return lastId;
        },
        ended,
        waitFor: (what, match, limitMs = 20_000) => eventually(what, async () => events.map((event) => event.data).find(match), limitMs),
        cut: () => req.destroy(),
      };
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          stream.body = text.length > 0 ? JSON.parse(text) : undefined;
          resolve(stream);
        });
        return;
      }
      res.on('data', (chunk: string) => {
        partial += chunk;
        const parts = partial.split(/\r\n|\r|\n/);
        partial = parts.pop()!;
        for (const part of parts) line(part);
      });
      resolve(stream);
    });
    req.on('error', (error) => reject(error));
    req.end();
  });
}
