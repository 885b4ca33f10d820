import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CHANNEL_OPS, decide, encodeCapabilities, resolveNamespace, type ChannelFacts, type ChannelRole, type Namespace } from '@rtm/rules';

const CHANNEL = 'room:1';

/** The rows of the case table in docs/permissions.md: the table whose header starts with `| token |`. */
async function caseTable(): Promise<string[][]> {
  const text = await readFile(new URL('../docs/permissions.md', import.meta.url), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| token |'));
  assert.ok(start >= 0, 'docs/permissions.md has the case table');
  const header = cells(lines[start]!);
  assert.deepEqual(header, ['token', 'access', 'role', 'ban', 'capabilities', 'namespace', ...CHANNEL_OPS]);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

function cells(line: string): string[] {
  return line
    .slice(1, -1)
    .split(' | ')
    .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));
}

const none = (cell: string) => cell === '—';

test('permissions - every case of the table in docs/permissions.md is what decide() answers', async () => {
  const rows = await caseTable();
  assert.ok(rows.length >= 20, `the table has its cases (${rows.length})`);
  for (const row of rows) {
    const [token, access, role, ban, capabilities, namespace, ...expected] = row as [string, string, string, string, string, string, ...string[]];
    assert.ok(token === 'user' || token === 'anonymous', `token column: ${token}`);
    assert.ok(access === 'open' || access === 'members', `access column: ${access}`);
    const facts: ChannelFacts = {
      channelId: CHANNEL,
      anonymous: token === 'anonymous',
      capabilities: none(capabilities) ? undefined : encodeCapabilities(JSON.parse(capabilities)),
      access,
      namespace: resolveNamespace(none(namespace) ? [] : [{ prefix: 'room:', ...(JSON.parse(namespace) as Omit<Namespace, 'prefix'>) }], CHANNEL),
      role: none(role) ? null : (role as ChannelRole),
      ban: none(ban) ? null : { reason: null },
    };
    CHANNEL_OPS.forEach((op, index) => {
      const decision = decide(facts, op);
      const shown = decision.ok ? '✓' : decision.code === 'banned' ? 'banned' : '✗';
      assert.equal(shown, expected[index], `row "${row.join(' | ')}", ${op}`);
    });
  }
});
