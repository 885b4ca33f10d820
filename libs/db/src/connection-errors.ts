/**
 * SQLSTATEs and socket codes that mean Postgres is away or going: connection exceptions (08…,
 * among them NoServerError's 08001: no listed server accepts writes), writes refused as read-only,
 * cancelled or shut-down sessions (57014, 57P0…), too many clients (53300: every process
 * reconnecting after a restart), and the socket errors of a peer that is gone or unreachable.
 */
const CONNECTION_CODES = new Set([
  // a statement refused by a server that turned read-only (a demoted or fenced primary)
  '25006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01',
]);
/**
 * What pg throws without a code when the connection is gone: the socket ended, the connect or the
 * reply timed out, or a client whose connection broke between two statements of a transaction is
 * asked for the next one ("Client has encountered a connection error and is not queryable").
 */
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable/i;

/**
 * True for errors that mean Postgres could not be reached, the connection broke, or it did not
 * answer in time (statement or query time-out): transient, so callers answer 503.
 */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  if (typeof code !== 'string') return CONNECTION_MESSAGES.test(String(error));
  return CONNECTION_CODES.has(code);
}
