/**
 * The cursor of a paged list: the last entry's key (an id, a user id, a channel id), wrapped in
 * base64url so callers treat it as opaque. Reading one back checks it is a key of that list.
 */
import { ServiceError } from '@rtm/errors';

export const encodeCursor = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');

/** The key inside `cursor`; 400 `invalid_request` when it is not one `isKey` accepts. */
export function decodeCursor(cursor: string, isKey: (key: string) => boolean): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!isKey(key)) throw new ServiceError('invalid_request', 'querystring.cursor: not a cursor of this list');
  return key;
}
