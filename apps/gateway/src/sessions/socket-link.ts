import type { WebSocket } from 'ws';
import { newId } from '@rtm/db';
import { CLOSE } from '@rtm/errors';

const OPEN = 1;

/**
 * A server socket's sending side: frames are JSON, a socket that cannot keep up (more than
 * `bufferLimit` bytes queued) is closed with 4503 so the client reconnects and resumes, and a
 * peer that misses a heartbeat ping is terminated.
 */
export class SocketLink {
  readonly socketId = newId('sock');
  private readonly socket: WebSocket;
  private readonly bufferLimit: number;
  private readonly heartbeat: NodeJS.Timeout;
  private alive = true;
  closed = false;

  constructor(socket: WebSocket, options: { bufferLimit: number; heartbeatMs: number }) {
    this.socket = socket;
    this.bufferLimit = options.bufferLimit;
    // a broken peer (bad frame, reset) ends in 'close'; unhandled, 'error' would take the process down
    socket.on('error', () => {});
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.once('close', () => {
      this.closed = true;
      clearInterval(this.heartbeat);
    });
    this.heartbeat = setInterval(() => {
      if (!this.alive) return socket.terminate();
      this.alive = false;
      if (socket.readyState === OPEN) socket.ping();
    }, options.heartbeatMs);
    this.heartbeat.unref();
  }

  send(frame: object): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: string): void {
    if (this.closed || this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > this.bufferLimit) {
      this.close(CLOSE.unavailable, 'too slow: reconnect and resume');
      return;
    }
    this.socket.send(text);
  }

  close(code: number, reason?: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    // close reasons are limited to 123 bytes
    const text = Buffer.from(reason ?? '', 'utf8').subarray(0, 123).toString('utf8').replace(/\uFFFD$/, '');
    try {
      this.socket.close(code, text);
    } catch {
      this.socket.terminate();
    }
  }
}
