import { connect } from 'node:net';
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A JSON request against a running process. `body` is sent as JSON unless `raw` is given;
 * the response body is parsed as JSON when it is JSON.
 */
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined = options.raw;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  // a request that hangs fails the test with its route named, not as the runner's 240 s timeout
  const res = await fetch(baseUrl + path, { method, headers, body: payload, signal: AbortSignal.timeout(60_000) }).catch((error: unknown) => {
    throw new Error(`${method} ${path}: ${(error as Error).message}`, { cause: error });
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text.length > 0) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as T };
}

/** A bound client: `api.post('/v1/tokens', {userId})`. */
export function client(baseUrl: string, token?: string) {
  const call =
    (method: string) =>
    <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>(baseUrl, method, path, { token, body, headers });
  return { get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE'), baseUrl, token };
}

/**
 * Every page of a cursor-paginated list, in order: `path` (with its query, e.g. `?limit=500`) and
 * then `&cursor=` each page's `nextCursor` until it is null. Each page must answer 200; more than
 * `maxPages` pages fail (a cursor that never ends).
 */
export async function allPages(api: { get(path: string): Promise<HttpResult> }, path: string, maxPages = 100): Promise<HttpResult[]> {
  const pages: HttpResult[] = [];
  let cursor: string | null = null;
  do {
    if (pages.length >= maxPages) throw new Error(`${path}: more than ${maxPages} pages`);
    const page = await api.get(cursor === null ? path : `${path}&cursor=${encodeURIComponent(cursor)}`);
    if (page.status !== 200) throw new Error(`${path}: page ${pages.length + 1} answered ${page.status} ${JSON.stringify(page.body)}`);
    pages.push(page);
    cursor = page.body.nextCursor ?? null;
  } while (cursor !== null);
  return pages;
}

/** Mints a user token through the control plane. */
export async function mintToken(controlUrl: string, secretKey: string, userId: string, extra: object = {}): Promise<string> {
  const res = await request<{ token: string }>(controlUrl, 'POST', '/v1/tokens', {
    token: secretKey,
    body: { userId, ...extra },
  });
  if (res.status !== 201) throw new Error(`token mint failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** Asserts the error envelope and returns its code. */
export function errorCode(res: HttpResult): string {
  const code = (res.body as { code?: unknown })?.code;
  if (typeof code !== 'string') throw new Error(`not an error envelope: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.headers.get('x-service-error') !== code) throw new Error(`x-service-error header does not match ${code}`);
  return code;
}

/**
 * Sends raw bytes to a listener and reads the whole answer (until the server closes the connection:
 * every caller sends `Connection: close` or a request the parser refuses). The write side stays
 * open: a half-close sent with the request could make a loaded server drop it unanswered.
 */
export function rawHttp(baseUrl: string, bytes: string | Buffer): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    socket.setTimeout(30_000, () => socket.destroy(new Error('rawHttp: the server did not close the connection within 30 s')));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}
