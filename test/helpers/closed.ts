import type { Closed, TestSocket } from './ws.ts';

/** How the socket closed; rejects (instead of hanging the test) if it is still open after `limitMs`. */
export async function closeOf(socket: TestSocket, limitMs = 15_000): Promise<Closed> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`socket still open after ${limitMs} ms (frames: ${JSON.stringify(socket.frames).slice(0, 500)})`)), limitMs);
  });
  try {
    return await Promise.race([socket.closed, late]);
  } finally {
    clearTimeout(timer);
    if (socket.ws.readyState === socket.ws.OPEN) socket.ws.terminate();
  }
}
