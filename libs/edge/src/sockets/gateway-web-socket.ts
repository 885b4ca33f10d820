import { WebSocket } from 'ws';
import { SOCKET_CLOSE } from './close-codes.ts';
import type { SocketLink } from '../sessions/socket-link.ts';

/**
 * ws's server-side socket with the gateway's close codes for protocol refusals: ws closes a
 * socket itself when a frame breaks the protocol (1002), is not UTF-8 text (1007) or announces
 * more than `maxPayload` bytes (1009, decided from the frame header before its payload is read).
 * Clients get the same 4400 for these on every endpoint, like any other bad request.
 * `link` is the socket's SocketLink, for the listeners every socket shares (sessions/socket-link.ts).
 */
export class GatewayWebSocket extends WebSocket {
  link: SocketLink | undefined;

  override close(code?: number, data?: string | Buffer): void {
    if (code === 1009) return super.close(SOCKET_CLOSE.frameTooLarge.code, SOCKET_CLOSE.frameTooLarge.reason);
    if (code === 1002 || code === 1007) return super.close(SOCKET_CLOSE.protocolError.code, SOCKET_CLOSE.protocolError.reason);
    super.close(code, data);
  }
}
