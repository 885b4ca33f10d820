/**
 * JWKS fetching for tenant-signed tokens, under the webhook URL policy: the URL is checked as
 * written, and every address its host resolves to must be public (so neither a private URL nor
 * a name that resolves to one reaches an internal service). Redirects are not followed; bodies
 * over 64 KiB are refused, and so is a fetch not finished within `timeoutMs` (3 s) in total:
 * connecting, the headers and the whole body together, so a host that drip-feeds its answer a
 * byte at a time is abandoned at the deadline like one that never answers.
 *
 * Host names are resolved through c-ares (HostResolver of @rtm/rules, as the dispatcher's webhook
 * sends are), never `dns.lookup`: getaddrinfo runs on libuv's thread pool, which password hashing,
 * the file system and crypto share, so a tenant's slow name server would hold sign-ins behind it.
 *
 * Per environment, the keys are cached for `ttlMs`; a token whose `kid` is not among them causes a
 * refetch, at most once per `minRefetchMs` (so a flood of tokens with made-up kids costs one fetch
 * per interval, not one per token). A failed fetch keeps the keys it had.
 */
import { Agent, request } from 'undici';
import type { JWK } from 'jose';
import { HostResolver, checkWebhookUrl, vettedLookup } from '@rtm/rules';
import { isTenantAlg, jwkRefusal, type TenantKey } from './tenant-token.ts';

const MAX_BODY_BYTES = 64 * 1024;

export interface JwksOptions {
  allowLoopback: boolean;
  /** How JWKS hosts are resolved; by default a HostResolver on the system's name servers (2 s a query, 2 tries). */
  resolver?: HostResolver;
  ttlMs?: number;
  minRefetchMs?: number;
  timeoutMs?: number;
}

interface Entry {
  url: string;
  keys: Map<string, TenantKey>;
  fetchedAt: number;
  attemptedAt: number;
}

export class JwksCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly options: Required<Omit<JwksOptions, 'resolver'>>;
  private readonly agent: Agent;
  /** The connect-time look-up of JWKS hosts: the resolver's answer, filtered through the address policy. */
  readonly lookup: ReturnType<typeof vettedLookup>;

  constructor(options: JwksOptions) {
    const { resolver, ...rest } = options;
    this.options = { ttlMs: 5 * 60_000, minRefetchMs: 30_000, timeoutMs: 3_000, ...rest };
    const allowLoopback = this.options.allowLoopback;
    this.lookup = vettedLookup(resolver ?? new HostResolver({ timeoutMs: 2_000, tries: 2, allowLoopback }), allowLoopback);
    this.agent = new Agent({ connect: { timeout: this.options.timeoutMs, lookup: this.lookup as never } });
  }

  /** Forgets an environment's keys (its JWKS URL changed). */
  forget(environmentId: string): void {
    this.entries.delete(environmentId);
  }

  async key(environmentId: string, url: string, kid: string): Promise<TenantKey | null> {
    const now = Date.now();
    let entry = this.entries.get(environmentId);
    if (entry && entry.url !== url) entry = undefined;
    const stale = !entry || now - entry.fetchedAt > this.options.ttlMs;
    const unknown = entry !== undefined && !entry.keys.has(kid);
    if (stale || unknown) {
      if (!entry || now - entry.attemptedAt >= this.options.minRefetchMs) entry = await this.refresh(environmentId, url, entry);
    }
    return entry?.keys.get(kid) ?? null;
  }

  private refresh(environmentId: string, url: string, previous: Entry | undefined): Promise<Entry> {
    const running = this.pending.get(environmentId);
    if (running) return running;
    const attempt = this.fetchKeys(environmentId, url).then(
      (keys) => ({ url, keys, fetchedAt: Date.now(), attemptedAt: Date.now() }),
      () => ({ url, keys: previous?.keys ?? new Map<string, TenantKey>(), fetchedAt: previous?.fetchedAt ?? 0, attemptedAt: Date.now() }),
    );
    const done = attempt.then((entry) => {
      this.entries.set(environmentId, entry);
      this.pending.delete(environmentId);
      return entry;
    });
    this.pending.set(environmentId, done);
    return done;
  }

  private async fetchKeys(environmentId: string, url: string): Promise<Map<string, TenantKey>> {
    const verdict = checkWebhookUrl(url, { allowLoopback: this.options.allowLoopback });
    if (!verdict.ok) throw new Error(verdict.reason);
    // the whole fetch (request and body) has one deadline: undici's bodyTimeout is per chunk only.
    // Our own timer, cleared when the fetch ends: a signal that fired after the fetch was done (as
    // AbortSignal.timeout would) makes undici error a body nobody listens to any more.
    const controller = new AbortController();
    const { signal } = controller;
    const deadline = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      return await this.readKeys(environmentId, verdict.url, signal);
    } finally {
      clearTimeout(deadline);
    }
  }

  private async readKeys(environmentId: string, url: URL, signal: AbortSignal): Promise<Map<string, TenantKey>> {
    const response = await request(url, {
      method: 'GET',
      dispatcher: this.agent,
      headers: { accept: 'application/json' },
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      signal,
    });
    response.body.on('error', () => {}); // an abort while it is read rejects the read below; nothing else listens
    if (response.statusCode !== 200) {
      response.body.destroy();
      throw new Error(`JWKS answered ${response.statusCode}`);
    }
    let size = 0;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) throw new Error('JWKS over 64 KiB');
        chunks.push(chunk as Buffer);
      }
    } finally {
      // nothing more is read: an unfinished body's connection is closed, not kept for the host
      if (!response.body.destroyed) response.body.destroy();
    }
    if (signal.aborted) throw new Error(`JWKS not fetched within ${this.options.timeoutMs} ms`);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { keys?: unknown };
    const keys = new Map<string, TenantKey>();
    if (!Array.isArray(body.keys)) throw new Error('JWKS has no keys array');
    for (const jwk of body.keys.slice(0, 100) as Record<string, unknown>[]) {
      if (typeof jwk !== 'object' || jwk === null || typeof jwk.kid !== 'string') continue;
      // a JWKS key must name its alg (or it is skipped): a kty alone does not pin the algorithm
      if (!isTenantAlg(jwk.alg)) continue;
      if ((await jwkRefusal(jwk, jwk.alg)) !== null) continue;
      keys.set(jwk.kid, { kid: jwk.kid, environmentId, alg: jwk.alg, jwk: jwk as JWK });
    }
    return keys;
  }
}
