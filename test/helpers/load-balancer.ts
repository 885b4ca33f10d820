import { connect, createServer, type Socket } from 'node:net';
import type { TestContext } from 'node:test';

export interface LoadBalancer {
  /** `http://127.0.0.1:<port>`: what clients use instead of a gateway's realtime URL. */
  url: string;
  /**
   * The backends new connections go to (`http://host:port` URLs), tried in order: the first that
   * accepts the TCP connection gets it. Replace the list to register or deregister a gateway;
   * connections already made stay where they are, as with a real load balancer draining an
   * instance.
   */
  backends: string[];
  /** Connections accepted per backend URL, counted when the backend accepted. */
  accepted: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A TCP load balancer in front of gateways' realtime listeners, so a client keeps one address
 * while the gateways behind it stop, crash and start. A backend that refuses the connection (a
 * stopped or killed process) is skipped; with none left, the client's connection is closed.
 */
export async function startLoadBalancer(t: TestContext, backends: string[]): Promise<LoadBalancer> {
  const open = new Set<Socket>();
  const accepted = new Map<string, number>();
  const server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    void route(client, [...balancer.backends]);
  });

  const route = async (client: Socket, candidates: string[]) => {
    for (const backend of candidates) {
      const { hostname, port } = new URL(backend);
      const upstream = await new Promise<Socket | null>((resolve) => {
        const socket = connect(Number(port), hostname);
        socket.once('connect', () => resolve(socket));
        socket.once('error', () => resolve(null));
      });
      if (!upstream) continue;
      if (client.destroyed) {
        upstream.destroy();
        return;
      }
      accepted.set(backend, (accepted.get(backend) ?? 0) + 1);
      open.add(upstream);
      upstream.once('close', () => {
        open.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      return;
    }
    client.destroy();
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const balancer: LoadBalancer = {
    url: `http://127.0.0.1:${port}`,
    backends,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
  t.after(() => balancer.close());
  return balancer;
}
