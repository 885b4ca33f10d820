import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@rtm/ops';

/**
 * At most `max` open connections (HTTP keep-alive and WebSocket alike) per peer address on one
 * listener. A connection over the limit is answered with a 429 envelope and closed before any
 * request is read. Behind a load balancer the peer is the balancer: raise the limit or set it
 * to 0 there, and let the balancer limit per client.
 */
export function limitConnectionsPerAddress(server: Server, max: number, log: Logger): void {
  const open = new Map<string, number>();
  const body = JSON.stringify({ code: 'rate_limited', reason: `more than ${max} open connections from this address` });
  const refusal =
    'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nx-service-error: rate_limited\r\nretry-after: 1\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      log.debug({ address, max }, 'connection refused: too many from this address');
      // answered before Node's parser sees a request, then closed once the answer is flushed
      socket.write(refusal, () => socket.destroy());
      return;
    }
    open.set(address, count);
    socket.on('close', release);
  });
  // one listener for every connection (a closure per socket is memory an idle WebSocket keeps);
  // `remoteAddress` is still known after the close: Node keeps the peer's address once read
  function release(this: Socket): void {
    const address = this.remoteAddress ?? 'unknown';
    const left = (open.get(address) ?? 1) - 1;
    if (left <= 0) open.delete(address);
    else open.set(address, left);
  }
}
