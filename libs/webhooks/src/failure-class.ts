/**
 * What a failed attempt is called in `lastError`, the attempt log and the live log: one word from
 * a fixed vocabulary, never a library's message and never a byte of the response body. Library
 * messages and bodies told a tenant which of the host's ports were open, closed or spoke another
 * protocol, and what a loopback service answered; a fixed word tells them what to fix and nothing
 * about anyone else's network.
 *
 *   timeout          no answer (connect or response headers) within the attempt's time
 *   refused          the connection was refused (nothing listening)
 *   reset            the connection was closed or reset before a complete answer
 *   unreachable      no route to the host or network
 *   dns              the host name did not resolve (no such name, no address, the look-up timed out)
 *   blocked_address  the URL or an address its host resolves to is not allowed (private, loopback, …)
 *   tls              the TLS handshake or the certificate failed
 *   protocol         the answer was not valid HTTP/1.1
 *   status N         the receiver answered HTTP status N (3xx included: redirects are not followed)
 *   no_signing_secret  the environment has no webhook signing secret (nothing was sent)
 *   network          any other connection failure
 */
import { BLOCKED_ADDRESS_CODE, DNS_FAILURE_CODE } from '@rtm/rules';

export type FailureClass =
  | 'timeout'
  | 'refused'
  | 'reset'
  | 'unreachable'
  | 'dns'
  | 'blocked_address'
  | 'tls'
  | 'protocol'
  | 'no_signing_secret'
  | 'network'
  | `status ${number}`;

export const FAILURE_CLASSES: readonly string[] = [
  'timeout',
  'refused',
  'reset',
  'unreachable',
  'dns',
  'blocked_address',
  'tls',
  'protocol',
  'status N',
  'no_signing_secret',
  'network',
];

export const statusFailure = (status: number): FailureClass => `status ${status}`;

const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ESOCKETTIMEDOUT']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED', 'UND_ERR_CLOSED']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const DNS = new Set([DNS_FAILURE_CODE, 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);
const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|HOSTNAME_MISMATCH|ERR_OSSL_)/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  cause?: unknown;
}

/** The class of a thrown error (undici, net, tls, the resolver, an abort); looks through `cause`. */
export function classifyError(error: unknown): FailureClass {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    chain.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  for (const err of chain) {
    const code = typeof err.code === 'string' ? err.code : '';
    const name = typeof err.name === 'string' ? err.name : '';
    if (code === BLOCKED_ADDRESS_CODE) return 'blocked_address';
    if (DNS.has(code)) return 'dns';
    if (name === 'TimeoutError' || name === 'AbortError' || code === 'UND_ERR_ABORTED' || TIMEOUT.has(code)) return 'timeout';
    if (code === 'ECONNREFUSED') return 'refused';
    if (TLS.test(code) || code === 'EPROTO') return 'tls';
    // undici's parser errors carry their llhttp code in `code`, but not always (then only the name)
    if (name === 'HTTPParserError' || code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'protocol';
    if (RESET.has(code)) return 'reset';
    if (UNREACHABLE.has(code)) return 'unreachable';
  }
  return 'network';
}
