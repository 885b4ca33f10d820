import type { FastifyRequest } from 'fastify';

/**
 * Where browsers reach this gateway's realtime edge, for pages and answers of the control plane
 * that point at it (the dashboard's live views, the logs token's `socketUrl`):
 * REALTIME_PUBLIC_URL when it is set (behind a load balancer or on another host name), otherwise
 * the host name the request was made to with the realtime listener's port, which is learnt when
 * it listens (REALTIME_PORT=0 picks a free one).
 */
export class RealtimeEndpoint {
  private port: number;
  private readonly publicOrigin: string | undefined;

  /** `publicOrigin`: a ws:// or wss:// origin (the configuration normalises it). */
  constructor(publicOrigin: string | undefined, configuredPort: number) {
    this.publicOrigin = publicOrigin;
    this.port = configuredPort;
  }

  listening(port: number): void {
    this.port = port;
  }

  /** The ws(s) origin of the realtime edge as seen by the client of `request`; null if its Host is unusable. */
  originFor(request: Pick<FastifyRequest, 'protocol' | 'host'>): string | null {
    if (this.publicOrigin !== undefined) return this.publicOrigin;
    let hostname: string;
    try {
      hostname = new URL(`http://${request.host}`).hostname;
    } catch {
      return null;
    }
    if (hostname === '' || /[/?#@\s]/.test(request.host)) return null;
    return `${request.protocol === 'https' ? 'wss' : 'ws'}://${hostname}:${this.port}`;
  }
}
