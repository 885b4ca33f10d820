import type { FastifyRequest } from 'fastify';

type RequestLike = Pick<FastifyRequest, 'protocol' | 'host'>;

/**
 * Where clients reach one of this gateway's public listeners (the control plane or the realtime
 * edge), for answers and pages that point at it: the dashboard's live views and the logs token's
 * `socketUrl` (the realtime edge, from a control-plane request), the OpenAPI and AsyncAPI
 * documents' servers (both listeners, from a request to either).
 *
 * The configured public origin (CONTROL_PUBLIC_URL, REALTIME_PUBLIC_URL) when it is set: behind a
 * load balancer or on another host name. Otherwise the request decides, as far as TRUST_PROXY lets
 * fastify believe X-Forwarded-Proto and X-Forwarded-Host (`request.protocol`, `request.host`):
 * a request made to this very listener names its own origin; one made to the other listener
 * names its host name with this listener's port, which is learnt when it listens (a port of 0
 * picks a free one).
 */
export class PublicEndpoint {
  private port: number;
  private readonly configured: { secure: boolean; host: string } | undefined;

  /** `publicOrigin`: an http(s) or ws(s) origin (the configuration normalises it). */
  constructor(publicOrigin: string | undefined, configuredPort: number) {
    if (publicOrigin !== undefined) {
      const url = new URL(publicOrigin);
      this.configured = { secure: url.protocol === 'https:' || url.protocol === 'wss:', host: url.host };
    }
    this.port = configuredPort;
  }

  listening(port: number): void {
    this.port = port;
  }

  /**
   * The http(s) origin of this listener as seen by the client of `request`; `own`: the request
   * was made to this listener itself. Null if its Host is unusable.
   */
  httpOriginFor(request: RequestLike, own = false): string | null {
    return this.originFor(request, own, ['http', 'https']);
  }

  /** The ws(s) origin of this listener as seen by the client of `request` (made to the other listener). */
  wsOriginFor(request: RequestLike): string | null {
    return this.originFor(request, false, ['ws', 'wss']);
  }

  private originFor(request: RequestLike, own: boolean, [plain, secure]: [string, string]): string | null {
    if (this.configured !== undefined) return `${this.configured.secure ? secure : plain}://${this.configured.host}`;
    let url: URL;
    try {
      url = new URL(`http://${request.host}`);
    } catch {
      return null;
    }
    if (url.hostname === '' || /[/?#@\s]/.test(request.host)) return null;
    const scheme = request.protocol === 'https' ? secure : plain;
    // own: the host and port exactly as the client wrote them (none when it used the default)
    return own ? `${scheme}://${url.host}` : `${scheme}://${url.hostname}:${this.port}`;
  }
}
