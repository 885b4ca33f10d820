import { RtmError } from './errors.ts';

/** Reading the server's frames, and the URLs the client talks to. */

/**
 * A presence frame's joins and leaves: `{joined, left}` (one frame per channel and interval), or
 * the single-change `{userId, online}` of older servers.
 */
export function presenceOf(frame: Record<string, unknown>): { joined: string[]; left: string[] } {
  const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  if (Array.isArray(frame.joined) || Array.isArray(frame.left)) return { joined: ids(frame.joined), left: ids(frame.left) };
  if (typeof frame.userId !== 'string') return { joined: [], left: [] };
  return frame.online === true ? { joined: [frame.userId], left: [] } : { joined: [], left: [frame.userId] };
}

/** A frame's field when it is a string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The socket URL (`ws(s)://…/v1/connect`) and the HTTP base of the realtime edge. */
export function parseBaseUrl(input: string): { socket: string; http: string } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new RtmError('invalid_request', `url is not a URL: ${JSON.stringify(input)}`);
  }
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!secure && url.protocol !== 'http:' && url.protocol !== 'ws:') {
    throw new RtmError('invalid_request', 'url must be http(s) or ws(s)');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return {
    socket: `${secure ? 'wss' : 'ws'}://${url.host}${path}/v1/connect`,
    http: `${secure ? 'https' : 'http'}://${url.host}${path}`,
  };
}
