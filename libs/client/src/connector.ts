import type { Channel } from './channel.ts';
import type { Clock } from './clock.ts';
import { asRtmError, RtmError } from './errors.ts';
import { PacedSender } from './paced-sender.ts';
import type { ClientSettings } from './settings.ts';
import { SseSession } from './sse-session.ts';
import { SocketLink, TransportChoice, WebSocketProbe, type Link, type LinkHandlers, type TransportName } from './transport.ts';
import type { WebSocketLike } from './types.ts';

/** What the connector needs from the client. */
export interface ConnectorHost {
  readonly clock: Clock;
  /** The user's token for HTTP and for a probing WebSocket (`fresh`: a new one from getToken). */
  token(fresh: boolean): Promise<string>;
  /** The client's channels: event streams are opened for the subscribed ones, each from its position. */
  readonly channels: ReadonlyMap<string, Channel>;
  /** `client.transport` changed. */
  changed(transport: TransportName): void;
  /** A probing WebSocket said `connected`: the client moves to it. */
  adopt(socket: WebSocketLike, frame: Record<string, unknown>): void;
}

/**
 * Opens the client's connection on the transport TransportChoice picks: a WebSocket
 * (`/v1/connect`, frames paced), or an SseSession (event streams and HTTP); and while on SSE,
 * probes WebSockets every `reconnect.webSocketRetryMs`.
 */
export class Connector {
  readonly #settings: ClientSettings;
  readonly #host: ConnectorHost;
  readonly #choice: TransportChoice;
  readonly #probe: WebSocketProbe;
  readonly #sender: PacedSender;

  constructor(settings: ClientSettings, host: ConnectorHost) {
    this.#settings = settings;
    this.#host = host;
    // SSE needs fetch: without one the client stays on WebSockets
    const allowed = settings.fetch ? settings.transports : settings.transports.filter((name) => name === 'websocket');
    this.#choice = new TransportChoice(allowed.length > 0 ? allowed : ['websocket'], settings.WebSocket !== undefined);
    this.#sender = new PacedSender(host.clock);
    this.#probe = new WebSocketProbe(host.clock, settings.webSocketRetryMs, {
      open: async () => this.#socket(await host.token(false)),
      adopt: (socket, frame) => host.adopt(socket, frame),
    });
  }

  get transport(): TransportName {
    return this.#choice.current;
  }

  /**
   * A connection on the current transport. A WebSocket that cannot be made moves the client to
   * SSE when it may; otherwise the error is thrown (the client closes with it).
   */
  open(token: string, handlers: LinkHandlers): Link {
    if (this.#choice.current === 'websocket') {
      try {
        return this.wrap(this.#socket(token), handlers);
      } catch (error) {
        if (!this.#choice.webSocketUnusable()) throw asRtmError(error, 'invalid_request');
        this.#switched();
      }
    }
    const host = this.#host;
    return new SseSession(
      {
        baseUrl: this.#settings.urls.http,
        fetch: this.#settings.fetch!,
        clock: host.clock,
        token: (fresh) => host.token(fresh),
        frame: handlers.frame,
        lost: handlers.closed,
        // a reopened event stream ended these subscriptions: each subscribes again from its position
        resubscribe: (ids) => {
          for (const id of ids) {
            host.channels.get(id)?.connectionLost();
            host.channels.get(id)?.connected();
          }
        },
      },
      token,
      [...host.channels.values()].filter((c) => c.subscribed).map((c) => ({ channelId: c.id, since: c.lastSeq, rewind: c.rewind })),
    );
  }

  /** The client's connection on an open socket. */
  wrap(socket: WebSocketLike, handlers: LinkHandlers): Link {
    return new SocketLink(socket, this.#sender, handlers);
  }

  /** `link` closed with `code` before `connected`. True: WebSockets do not get through, the client is on SSE now. */
  closedEarly(link: Link, code: number): boolean {
    if (link.transport !== 'websocket' || !this.#choice.webSocketClosedEarly(code)) return false;
    this.#switched();
    return true;
  }

  /** `link` said `connected`. */
  connected(link: Link): void {
    if (link.transport !== 'websocket') return;
    const was = this.#choice.current;
    this.#choice.webSocketConnected();
    this.#probe.stop();
    if (was !== 'websocket') this.#host.changed('websocket');
  }

  /** The client (re)starts: on SSE it probes WebSockets again. */
  start(): void {
    if (this.#choice.probing) this.#probe.start();
  }

  /** The client closed. */
  stop(): void {
    this.#probe.stop();
  }

  #switched(): void {
    this.#host.changed(this.#choice.current);
    this.start();
  }

  /** A WebSocket to /v1/connect; throws when there is no constructor, or it throws. */
  #socket(token: string): WebSocketLike {
    const WebSocket = this.#settings.WebSocket;
    if (!WebSocket) throw new RtmError('invalid_request', 'no WebSocket: pass the WebSocket option (in Node 20, ws), or allow the sse transport');
    return new WebSocket(`${this.#settings.urls.socket}?token=${encodeURIComponent(token)}`);
  }
}
