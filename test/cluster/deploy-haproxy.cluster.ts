import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * deploy/haproxy/haproxy.cfg is the Compose file's balancer: HAProxy itself (installed by the
 * cluster test's set-up) must accept it, with its error pages where the container mounts them.
 */
test('deploy - HAProxy accepts deploy/haproxy/haproxy.cfg', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rtm-haproxy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = readFileSync(`${ROOT}deploy/haproxy/haproxy.cfg`, 'utf8').replaceAll('/usr/local/etc/haproxy/errors', `${ROOT}deploy/haproxy/errors`);
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const bin = process.env.RTM_HAPROXY ?? 'haproxy';
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(bin, ['-c', '-f', join(dir, 'haproxy.cfg')], (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
  assert.equal(result.code, 0, result.output);
  assert.match(result.output, /Configuration file is valid/);
  // only the gateways' names, which exist in Compose's network and not here, may be warned about
  const warnings = result.output.split('\n').filter((line) => line.includes('[WARNING]'));
  assert.ok(
    warnings.every((line) => /could not resolve address 'gateway-\d'/.test(line)),
    warnings.join('\n'),
  );
});
