import type { Server } from 'node:http';
import { BlockList, isIPv4, isIPv6, type Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@rtm/ops';
import { ServiceError } from '@rtm/errors';
import { clientAddressKey } from '@rtm/limits';
import type { ZodApp } from '@rtm/edge';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * MAX_CONNECTIONS_PER_IP: at most `max` open connections per client address on one public
 * listener, counted where the client is known:
 * - a peer that is not a proxy TRUST_PROXY believes (every peer when TRUST_PROXY is off) is the
 *   client: its TCP connections (HTTP keep-alive and WebSocket alike) are counted when they are
 *   accepted, and one over the limit is answered with a 429 envelope and closed before any
 *   request is read (`limitConnectionsPerPeer`);
 * - behind a believed proxy every connection comes from the proxy, and one proxy connection may
 *   carry many clients' requests in turn: there the client is the address TRUST_PROXY resolves
 *   from X-Forwarded-For, and what is counted is its open exchanges, each from its request until
 *   its answer is over: a request until its response ends, a WebSocket (channel socket,
 *   `/v1/connect`, inbox socket, logs socket) or an event stream until it closes
 *   (`limitExchangesPerClient`). One over the limit is answered 429 `rate_limited` with
 *   `retry-after: 1` (a WebSocket upgrade before it is upgraded); the proxy's connection stays.
 * An IPv6 client counts by its /64 (one subscriber's allocation), an IPv4-mapped one as IPv4.
 */

/** Which peers are proxies TRUST_PROXY believes: every peer for `true` or a hop count, the listed ones for a list. */
export function believedProxy(trustProxy: TrustProxy): (peer: string) => boolean {
  if (trustProxy === false || trustProxy === 0) return () => false;
  if (trustProxy === true || typeof trustProxy === 'number') return () => true;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (peer) => {
    const bare = peer.startsWith('::ffff:') && isIPv4(peer.slice(7)) ? peer.slice(7) : peer;
    return list.check(bare, isIPv6(bare) ? 'ipv6' : 'ipv4');
  };
}

/** Counts per key; `take` refuses past `max`. */
class Counts {
  private readonly open = new Map<string, number>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  take(key: string): boolean {
    const count = (this.open.get(key) ?? 0) + 1;
    if (count > this.max) return false;
    this.open.set(key, count);
    return true;
  }

  release(key: string): void {
    const left = (this.open.get(key) ?? 1) - 1;
    if (left <= 0) this.open.delete(key);
    else this.open.set(key, left);
  }
}

const refusalReason = (max: number) => `more than ${max} open connections from this client address`;

/** The TCP connections of peers that are their own clients (not believed proxies), per peer address. */
export function limitConnectionsPerPeer(server: Server, max: number, log: Logger, isProxy: (peer: string) => boolean): void {
  const counts = new Counts(max);
  const body = JSON.stringify({ code: 'rate_limited', reason: refusalReason(max) });
  const refusal =
    'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nx-service-error: rate_limited\r\nretry-after: 1\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (isProxy(address)) return;
    if (!counts.take(clientAddressKey(address))) {
      log.debug({ address, max }, 'connection refused: too many from this address');
      // answered before Node's parser sees a request, then closed once the answer is flushed
      socket.write(refusal, () => socket.destroy());
      return;
    }
    socket.on('close', release);
  });
  // one listener for every connection (a closure per socket is memory an idle WebSocket keeps);
  // `remoteAddress` is still known after the close: Node keeps the peer's address once read
  function release(this: Socket): void {
    counts.release(clientAddressKey(this.remoteAddress ?? 'unknown'));
  }
}

/** The exchanges (requests, WebSockets, event streams) that came through a believed proxy, per client address. */
export function limitExchangesPerClient(app: ZodApp, max: number, isProxy: (peer: string) => boolean): void {
  const counts = new Counts(max);
  const keys = new WeakMap<object, string>();
  // a request's response ends (or its connection closes); an upgrade's socket, which the
  // WebSocket then uses, closes (@fastify/websocket destroys it too when the upgrade is refused)
  function release(this: object): void {
    const key = keys.get(this);
    if (key === undefined) return;
    keys.delete(this);
    counts.release(key);
  }
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const peer = request.socket.remoteAddress;
    // a direct client is counted by its connections (limitConnectionsPerPeer)
    if (peer === undefined || !isProxy(peer)) return done();
    const key = clientAddressKey(request.ip);
    if (!counts.take(key)) {
      request.log.debug({ max }, 'request refused: too many open from this client address');
      return done(new ServiceError('rate_limited', refusalReason(max), { retryAfter: 1 }));
    }
    const ends = (request.raw as { upgrade?: boolean }).upgrade === true ? request.raw.socket : reply.raw;
    keys.set(ends, key);
    ends.once('close', release);
    done();
  });
}

/** MAX_CONNECTIONS_PER_IP on one listener (0: no limit), per client address as TRUST_PROXY resolves it. */
export function limitConnectionsPerClient(app: ZodApp, max: number, trustProxy: TrustProxy, log: Logger): void {
  if (max <= 0) return;
  const isProxy = believedProxy(trustProxy);
  limitConnectionsPerPeer(app.server, max, log, isProxy);
  if (trustProxy !== false && trustProxy !== 0) limitExchangesPerClient(app, max, isProxy);
}
