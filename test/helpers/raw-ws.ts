import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface RawClose {
  code: number;
  reason: string;
}

/**
 * A WebSocket client over a bare TCP socket, for what a well-behaved library will not send: frames
 * that announce more than they carry, or frames written in the same packet as the upgrade request
 * (so they reach the gateway before the socket is ready). It reads the server's frames and
 * resolves `closed` with the close frame (or null if the connection ends without one).
 */
export interface RawSocket {
  socket: Socket;
  /** Text frames received, parsed as JSON where possible. */
  frames: any[];
  upgraded: Promise<void>;
  closed: Promise<RawClose | null>;
  write(bytes: Buffer): void;
  destroy(): void;
}

/** A masked client frame; `announced` lets the header claim more payload than is sent. */
export function clientFrame(opcode: number, payload: Buffer, announced = payload.length): Buffer {
  let header: Buffer;
  if (announced < 126) {
    header = Buffer.from([0x80 | opcode, 0x80 | announced]);
  } else if (announced < 65_536) {
    header = Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    header[1] = 0x80 | 126;
    header.writeUInt16BE(announced, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(announced), 2);
  }
  const mask = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i]! ^= mask[i % 4]!;
  return Buffer.concat([header, mask, masked]);
}

export const textFrame = (value: unknown) => clientFrame(0x1, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)));

/** Opens `path` on the realtime edge; `after` is written in the same write as the upgrade request. */
export function rawSocket(baseUrl: string, path: string, after: Buffer = Buffer.alloc(0)): RawSocket {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  const frames: any[] = [];
  let buffer = Buffer.alloc(0);
  let upgradedYet = false;
  let resolveUpgraded!: () => void;
  let rejectUpgraded!: (error: Error) => void;
  const upgraded = new Promise<void>((resolve, reject) => {
    resolveUpgraded = resolve;
    rejectUpgraded = reject;
  });
  upgraded.catch(() => {});
  let resolveClosed!: (value: RawClose | null) => void;
  const closed = new Promise<RawClose | null>((resolve) => (resolveClosed = resolve));
  socket.on('error', () => {});
  socket.on('close', () => {
    rejectUpgraded(new Error('connection ended before the upgrade'));
    resolveClosed(null);
  });
  socket.once('connect', () => {
    const request =
      `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    socket.write(Buffer.concat([Buffer.from(request), after]));
  });
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgradedYet) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString();
      buffer = buffer.subarray(end + 4);
      if (!head.startsWith('HTTP/1.1 101')) return rejectUpgraded(new Error(head.split('\r\n')[0]));
      upgradedYet = true;
      resolveUpgraded();
    }
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0]! & 0x0f;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return;
      const payload = buffer.subarray(offset, offset + length);
      buffer = buffer.subarray(offset + length);
      if (opcode === 0x8) {
        resolveClosed({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString() });
        socket.end();
        return;
      }
      if (opcode === 0x1) {
        const text = payload.toString();
        try {
          frames.push(JSON.parse(text));
        } catch {
          frames.push(text);
        }
      }
    }
  });
  return {
    socket,
    frames,
    upgraded,
    closed,
    write: (bytes) => socket.write(bytes),
    destroy: () => socket.destroy(),
  };
}
