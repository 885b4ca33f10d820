import { createHash } from 'node:crypto';
import { randomToken } from '@rtm/db';

export type KeyKind = 'secret' | 'publishable';

const PREFIX: Record<KeyKind, string> = { secret: 'sk_', publishable: 'pk_' };

/** A new API key: the prefix and 192 random bits. Only its hash is stored. */
export function generateKey(kind: KeyKind): string {
  return PREFIX[kind] + randomToken(24);
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The kind a key claims by its prefix, or null for anything that is not a key. */
export function keyKindOf(credential: string): KeyKind | null {
  if (!/^[sp]k_[A-Za-z0-9_-]{16,128}$/.test(credential)) return null;
  return credential.startsWith('sk_') ? 'secret' : 'publishable';
}

export function keyHint(key: string): string {
  return `${key.slice(0, 7)}…`;
}
