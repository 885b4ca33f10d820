import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Connections currently relayed, by upstream. */
  open(upstream: string): number;
  /**
   * From now on, what upstreams send on the open connections is dropped (clients' data still goes
   * up), as a network that loses the way back; an upstream that closes still closes its client.
   */
  dropReplies(): void;
  /** Resets every relayed connection (both sides), as an upstream host dying would; new ones are accepted. */
  cut(): void;
  /** While on, new connections are reset as soon as they are accepted (the upstream looks down). */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A tiny TCP load balancer: each connection goes to the first upstream (host:port of a URL) that
 * accepts it, tried in order, so a dead upstream is skipped and its clients land on the next one.
 * When either side of a relayed connection ends or fails, the other is destroyed, as a balancer
 * does when a backend dies.
 */
export async function startTcpProxy(upstreamUrls: string[]): Promise<TcpProxy> {
  const upstreams = upstreamUrls.map((url) => new URL(url));
  const relayed = new Map<string, Set<Socket>>();
  const clients = new Set<Socket>();
  const pairs = new Map<Socket, Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.on('error', () => {});
      client.resetAndDestroy();
      return;
    }
    clients.add(client);
    client.pause();
    client.on('error', () => {});
    client.once('close', () => clients.delete(client));
    const tryUpstream = (index: number) => {
      if (client.destroyed) return;
      const target = upstreams[index];
      if (!target) return client.destroy();
      const upstream = connect(Number(target.port), target.hostname);
      const key = target.host;
      const refused = () => {
        upstream.destroy();
        tryUpstream(index + 1);
      };
      upstream.once('error', refused);
      upstream.once('connect', () => {
        upstream.off('error', refused);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        let set = relayed.get(key);
        if (!set) relayed.set(key, (set = new Set()));
        set.add(upstream);
        pairs.set(upstream, client);
        upstream.once('close', () => {
          set.delete(upstream);
          pairs.delete(upstream);
        });
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    tryUpstream(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    open: (upstream) => relayed.get(new URL(upstream).host)?.size ?? 0,
    dropReplies() {
      for (const [upstream, client] of pairs) {
        upstream.unpipe(client);
        // keep reading (and discarding), so that the upstream's end is still seen
        upstream.on('data', () => {});
        upstream.resume();
      }
    },
    refuse(on) {
      refusing = on;
    },
    cut() {
      for (const [upstream, client] of pairs) {
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.destroy();
        server.close(() => resolve());
      }),
  };
}
