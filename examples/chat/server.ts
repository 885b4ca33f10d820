/**
 * The chat example's server: serves the page (examples/chat/public/) and mints user tokens for
 * it. The page is plain HTML and a module script; it loads the client SDK from the realtime
 * edge (`<realtime>/sdk/client.js`) and asks this server for a token whenever the SDK needs one.
 *
 *   npm start                 # in one terminal: the service, and a dev environment with its keys
 *   npm run example:chat      # in another: this server, http://127.0.0.1:3000
 *
 * It follows the running `npm start`: the ports its gateway listens on and the dev environment's
 * secret key, from the state file `npm start` keeps (settings.ts). The environment wins over it:
 *   RTM_SECRET_KEY     the environment's secret key (default: the state file's)
 *   RTM_CONTROL_URL    control plane (default http://127.0.0.1:$CONTROL_PORT, else where the
 *                      running `npm start` listens, else http://127.0.0.1:8080)
 *   RTM_REALTIME_URL   realtime edge as the browser reaches it (the same with $REALTIME_PORT, 8081)
 *   RTM_STATE_FILE     the state file (default .data/dev-environment.json; `npm start -- --state-file`)
 *   CHAT_PORT          where this server listens on 127.0.0.1 (default 3000; 0 = any free port)
 *   CHAT_TOKEN_TTL     lifetime of the minted tokens in seconds (default 600; 60–86400)
 *
 * `POST /token {userId}` mints a token for WHOEVER asks, with no login: fine on your machine, and
 * exactly what a real application must not do. A real backend mints a token only for the user its
 * own session has authenticated, with the secret key kept on the server (as here: the browser
 * never sees it).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolveChatSettings, type ChatSettings } from './settings.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PUBLIC = fileURLToPath(new URL('./public/', import.meta.url));

/** The files of the page: nothing else is served (no path is ever joined from a request). */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/chat.js': { file: 'chat.js', type: 'text/javascript; charset=utf-8' },
  '/messages.js': { file: 'messages.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

const USER_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
const MAX_BODY_BYTES = 4096;

type ChatServerOptions = Omit<ChatSettings, 'port'>;

class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, reason: string) {
    super(reason);
    this.status = status;
    this.code = code;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'payload_too_large', `the body is over ${MAX_BODY_BYTES} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Asks the control plane for a token of `userId` with the secret key; its errors pass through. */
async function mint(options: ChatServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'unsupported_media_type', 'send {"userId": "…"} as application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'invalid_request', 'the body is not JSON');
  }
  const userId = (body as { userId?: unknown } | null)?.userId;
  if (typeof userId !== 'string' || !USER_ID.test(userId)) {
    throw new HttpError(400, 'invalid_request', 'userId must be 1-128 of A-Z a-z 0-9 _ . : @ -');
  }
  let answer: Response;
  try {
    answer = await fetch(`${options.controlUrl}/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId, ttlSeconds: options.tokenTtlSeconds }),
    });
  } catch {
    throw new HttpError(503, 'unavailable', `the control plane at ${options.controlUrl} does not answer: is \`npm start\` running?`);
  }
  const text = await answer.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(502, 'unavailable', `the control plane answered ${answer.status} without JSON`);
  }
  send(res, answer.status, parsed);
}

function createChatServer(options: ChatServerOptions): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const handle = async () => {
      if (path === '/token') {
        if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'POST /token {"userId": "…"}');
        return mint(options, req, res);
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'method_not_allowed', `${req.method} is not served here`);
      if (path === '/config.json') return send(res, 200, { realtimeUrl: options.realtimeUrl });
      // no icon: an empty answer instead of a 404 the browser would log
      if (path === '/favicon.ico') return void res.writeHead(204).end();
      const entry = FILES[path];
      if (!entry) throw new HttpError(404, 'not_found', `${path} is not part of the chat example`);
      const content = await readFile(`${PUBLIC}${entry.file}`);
      res.writeHead(200, {
        'content-type': entry.type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        // defence in depth against script injection: scripts only from this server and the SDK's host
        'content-security-policy': contentSecurityPolicy(options.realtimeUrl),
      });
      res.end(req.method === 'HEAD' ? undefined : content);
    };
    handle().catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      if (error instanceof HttpError) return send(res, error.status, { code: error.code, reason: error.message });
      console.error(error);
      send(res, 500, { code: 'internal', reason: 'the chat example server failed; see its output' });
    });
  });
}

/** Scripts from this origin and the realtime edge (the SDK); sockets and fetches to the edge. */
function contentSecurityPolicy(realtimeUrl: string): string {
  const http = new URL(realtimeUrl);
  const ws = new URL(realtimeUrl);
  ws.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
  const edge = `${http.origin} ${ws.origin}`;
  return [
    "default-src 'self'",
    `script-src 'self' ${http.origin}`,
    `connect-src 'self' ${edge}`,
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The parsed state file `npm start` keeps, or undefined when there is none or it is not JSON. */
async function readStateFile(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The page shows who joins and leaves from presence frames, which an environment sends only where
 * its configuration turns `joinLeave` on. Turns it on for the whole environment (the chat's rooms
 * are any channel id) unless it is on already, keeping the rest of the active configuration (its
 * limits as they stand). Answers what it did, for the start-up line.
 */
async function ensureJoinLeave(options: ChatServerOptions): Promise<string> {
  const headers = { authorization: `Bearer ${options.secretKey}`, 'content-type': 'application/json' };
  const current = await fetch(`${options.controlUrl}/v1/config`, { headers });
  if (!current.ok) return `could not read the configuration (${current.status}): join/leave may not show`;
  const { config } = (await current.json()) as {
    config: { webhooks: unknown; channels: { access: string; presence: boolean; joinLeave: boolean }; limits: unknown; namespaces: unknown };
  };
  if (config.channels.joinLeave && config.channels.presence) return 'join/leave frames already on';
  const deployed = await fetch(`${options.controlUrl}/v1/config`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ...config, channels: { ...config.channels, presence: true, joinLeave: true } }),
  });
  return deployed.ok ? 'turned on join/leave frames for the environment (channels.joinLeave)' : `could not turn on join/leave frames (${deployed.status})`;
}

async function main(): Promise<void> {
  const stateFile = process.env.RTM_STATE_FILE || `${ROOT}.data/dev-environment.json`;
  let settings: ChatSettings;
  try {
    settings = resolveChatSettings({ env: process.env, state: await readStateFile(stateFile), stateFile, alive });
  } catch (error) {
    process.stderr.write(`chat example: ${(error as Error).message}\n`);
    process.exit(78);
  }
  const { port, ...options } = settings;
  let joinLeave: string;
  try {
    joinLeave = await ensureJoinLeave(options);
  } catch {
    joinLeave = `nothing answers at ${options.controlUrl} yet: run \`npm start\` in another terminal, then restart this`;
  }
  const server = createChatServer(options);
  server.on('error', (error) => {
    process.stderr.write(`chat example: cannot listen on 127.0.0.1:${port}: ${error.message} (set CHAT_PORT)\n`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    const { port: actual } = server.address() as { port: number };
    const from = { environment: 'from the environment', 'npm start': `as the running npm start recorded in ${stateFile}`, defaults: 'the default ports' }[
      options.source
    ];
    process.stdout.write(`chat example: http://127.0.0.1:${actual}  (realtime edge ${options.realtimeUrl}, control plane ${options.controlUrl}: ${from})\n`);
    process.stdout.write(`chat example: ${joinLeave}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
