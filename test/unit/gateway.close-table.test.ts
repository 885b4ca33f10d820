/**
 * One close table (libs/edge/src/sockets/close-codes.ts): every socket the gateway closes, it
 * closes with one of its entries, so the same condition gives the same code on every endpoint and
 * docs/limits.md can list them all. Checked on the sources: no close code is written anywhere else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOCKET_CLOSE, SOCKET_CLOSE_WITH } from '../../libs/edge/src/sockets/close-codes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where sockets are closed: the edge's engine, and the gateway that mounts it (its logs socket). */
const ROOTS = ['libs/edge/src', 'apps/gateway/src'];
const TABLE = 'libs/edge/src/sockets/close-codes.ts';
/** The link closes the socket with a table entry; the ws subclass maps ws's own protocol closes to entries. */
const CLOSERS = new Set(['libs/edge/src/sessions/socket-link.ts', 'libs/edge/src/sockets/gateway-web-socket.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file without its comments (a comment may name a code). */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

test('close table: only close-codes.ts names a close code', () => {
  const offenders: string[] = [];
  const paths = ROOTS.flatMap((root) => sources(join(ROOT, root)));
  assert.ok(paths.length > 50, 'the sources were found');
  for (const path of paths) {
    const name = relative(ROOT, path);
    if (name === TABLE) continue;
    const code = codeOf(readFileSync(path, 'utf8'));
    if (/\bCLOSE\.\w+/.test(code)) offenders.push(`${name}: uses CLOSE.* (add an entry to ${TABLE})`);
    if (/\.close\(\s*(\d|CLOSE\b)/.test(code)) offenders.push(`${name}: closes with a literal code`);
    if (!CLOSERS.has(name) && /\bsocket\.close\(/.test(code)) offenders.push(`${name}: closes the ws socket directly (use link.closeWith)`);
    if (/\.closeWith\(\s*\{/.test(code)) offenders.push(`${name}: closeWith an ad-hoc {code, reason}`);
  }
  assert.deepEqual(offenders, []);
});

test('close table: every entry has a documented code and a reason within the 123 bytes a close frame carries', () => {
  const documented = new Set([...readFileSync(join(ROOT, 'docs/limits.md'), 'utf8').matchAll(/^\| (4\d\d\d) \|/gm)].map((m) => Number(m[1])));
  const entries = [...Object.entries(SOCKET_CLOSE), ...Object.entries(SOCKET_CLOSE_WITH).map(([name, make]) => [name, make('x')] as const)];
  assert.ok(entries.length >= 20);
  for (const [name, closing] of entries) {
    assert.ok(documented.has(closing.code), `${name}: ${closing.code} is not in docs/limits.md's close-code table`);
    assert.ok(Buffer.byteLength(closing.reason) <= 123, `${name}: reason over 123 bytes`);
    assert.ok(closing.reason.length > 0, `${name}: no reason`);
  }
});
