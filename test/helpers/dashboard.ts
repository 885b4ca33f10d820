import { Accounts, CLI_ACTOR, type Role } from '@rtm/accounts';
import type { Pool } from '@rtm/db';
import { request, type HttpResult } from './http.ts';

/**
 * A browser-like client of the dashboard routes: keeps the session cookie, sends the dashboard's
 * own `Origin` and the session's CSRF token on changes (each can be overridden per request).
 */
export class DashboardClient {
  cookie: string | undefined;
  csrfToken: string | undefined;
  readonly baseUrl: string;
  /** Sent as X-Forwarded-For (gateways started with TRUST_PROXY), to be a client of its own address. */
  readonly ip: string | undefined;

  constructor(baseUrl: string, options: { ip?: string } = {}) {
    this.baseUrl = baseUrl;
    this.ip = options.ip;
  }

  /** Another client sharing this one's session (e.g. the same browser on another gateway). */
  on(baseUrl: string): DashboardClient {
    const other = new DashboardClient(baseUrl, this.ip === undefined ? {} : { ip: this.ip });
    other.cookie = this.cookie;
    other.csrfToken = this.csrfToken;
    return other;
  }

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string | undefined> = {}): Promise<HttpResult<T>> {
    const base: Record<string, string | undefined> = {
      origin: new URL(this.baseUrl).origin,
      ...(this.cookie && { cookie: this.cookie }),
      ...(method !== 'GET' && this.csrfToken && { 'x-csrf-token': this.csrfToken }),
      ...(this.ip && { 'x-forwarded-for': this.ip }),
    };
    const merged = Object.fromEntries(Object.entries({ ...base, ...headers }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const res = await request<T>(this.baseUrl, method, path, { body, headers: merged });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const match = /^dashboard_session=([^;]*)/.exec(setCookie);
      if (match) this.cookie = match[1] ? `dashboard_session=${match[1]}` : undefined;
    }
    const answer = res.body as { csrfToken?: unknown } | undefined;
    if (res.status === 200 && typeof answer?.csrfToken === 'string') this.csrfToken = answer.csrfToken;
    return res;
  }

  signIn(email: string, password: string, headers: Record<string, string | undefined> = {}) {
    return this.call('POST', '/v1/dashboard/session', { email, password }, headers);
  }

  get = <T = any>(path: string, headers?: Record<string, string | undefined>) => this.call<T>('GET', path, undefined, headers);
  post = <T = any>(path: string, body?: unknown, headers?: Record<string, string | undefined>) => this.call<T>('POST', path, body, headers);
  put = <T = any>(path: string, body?: unknown, headers?: Record<string, string | undefined>) => this.call<T>('PUT', path, body, headers);
  patch = <T = any>(path: string, body?: unknown, headers?: Record<string, string | undefined>) => this.call<T>('PATCH', path, body, headers);
  delete = <T = any>(path: string, body?: unknown, headers?: Record<string, string | undefined>) => this.call<T>('DELETE', path, body, headers);
}

/** A user with `role` in an organization (by id or name; made when the name is new), as the admin CLI makes one. */
export async function createUser(pool: Pool, options: { email: string; password: string; organization: string; role: Role }) {
  return new Accounts({ pool }).organizations.createUser(CLI_ACTOR, options);
}

/** The codes the `log` mail sender wrote for `email` (oldest first), from a gateway's output (LOG_LEVEL info). */
export function mailedCodes(output: readonly string[], email: string, purpose: 'verify' | 'reset'): string[] {
  const codes: string[] = [];
  for (const line of output) {
    if (!line.includes('"mail"')) continue;
    let mail: { to?: string; purpose?: string; text?: string } | undefined;
    try {
      mail = (JSON.parse(line) as { mail?: typeof mail }).mail;
    } catch {
      continue;
    }
    if (mail?.to !== email || mail.purpose !== purpose) continue;
    const code = /\b(\d{8})\b/.exec(mail.text ?? '');
    if (code) codes.push(code[1]!);
  }
  return codes;
}

/** Runs `ask` (a request for a code), then waits for the new code it mailed to `email`. */
export async function askForCode(output: readonly string[], email: string, purpose: 'verify' | 'reset', ask: () => Promise<unknown>): Promise<string> {
  const before = mailedCodes(output, email, purpose).length;
  await ask();
  // the log line is written after the answer (the mail is not awaited): allow a busy machine its time
  const deadline = Date.now() + 20_000;
  for (;;) {
    const codes = mailedCodes(output, email, purpose);
    if (codes.length > before) return codes.at(-1)!;
    if (Date.now() > deadline) throw new Error(`no ${purpose} code was mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
