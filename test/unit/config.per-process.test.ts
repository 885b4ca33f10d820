/**
 * Each kind of process validates only the configuration it reads (libs/config): a variable in a
 * kind's schema must be read by that kind's code, so a process refuses to start only over what it
 * uses and an operator is shown only the variables that matter for it.
 *
 * "Read" is found in the sources: the variable's name as a property access (`config.X`,
 * `deps.config.X`, `settings.X`) or a quoted key (`'X'`), comments left out, in apps/<kind>/src
 * and in the libs that app imports (directly or through other libs). A lib shared by several
 * kinds counts for each of them, so a lib-read variable is pinned per kind by the explicit
 * "not in its schema" cases below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { CONFIG_VARIABLES, loadChannelNodeConfig, loadDispatcherConfig, loadGatewayConfig } from '@rtm/config';

type Kind = keyof typeof CONFIG_VARIABLES;
const KINDS = Object.keys(CONFIG_VARIABLES) as Kind[];
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const LOADERS: Record<Kind, (env: NodeJS.ProcessEnv) => Readonly<Record<string, unknown>>> = {
  gateway: loadGatewayConfig,
  'channel-node': loadChannelNodeConfig,
  dispatcher: loadDispatcherConfig,
};

/** TypeScript sources under `dir`, without generated declarations, comments stripped. */
function sources(dir: string): string[] {
  const files = (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts')).sort();
  return files.map((name) =>
    readFileSync(join(ROOT, dir, name), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|\s)\/\/.*$/gm, '$1'),
  );
}

/** The workspace libs `texts` import (`@rtm/<name>`). */
const importedLibs = (texts: string[]): string[] => [...new Set(texts.flatMap((text) => [...text.matchAll(/['"]@rtm\/([a-z0-9-]+)['"]/g)].map((m) => m[1]!)))];

/** apps/<kind>/src and every lib it reaches through imports, except libs/config (the schemas themselves). */
function sourcesOf(kind: Kind): { dirs: string[]; texts: string[] } {
  const app = `apps/${kind}/src`;
  const texts = sources(app);
  const dirs = [app];
  const seen = new Set<string>(['config']);
  const queue = importedLibs(texts);
  while (queue.length > 0) {
    const lib = queue.shift()!;
    if (seen.has(lib)) continue;
    seen.add(lib);
    const libTexts = sources(`libs/${lib}/src`);
    dirs.push(`libs/${lib}/src`);
    texts.push(...libTexts);
    queue.push(...importedLibs(libTexts));
  }
  return { dirs, texts };
}

const reads = (texts: string[], name: string): boolean => {
  const pattern = new RegExp(`(\\?\\.|\\.)${name}\\b|['"\`]${name}['"\`]`);
  return texts.some((text) => pattern.test(text));
};

for (const kind of KINDS) {
  test(`config per process - every variable of the ${kind} schema is read by ${kind} code`, () => {
    const { dirs, texts } = sourcesOf(kind);
    assert.ok(texts.length > 0, `no sources for ${kind}`);
    const unread = CONFIG_VARIABLES[kind].filter((name) => !reads(texts, name));
    assert.deepEqual(unread, [], `in the ${kind} schema but read nowhere in ${dirs.join(', ')}: move them out of its schema`);
  });
}

/** Variables another kind reads that this kind must not validate (the audit's moves among them). */
const NOT_READ: Record<Kind, string[]> = {
  gateway: ['WEBHOOK_TIMEOUT_MS', 'WEBHOOK_RETRY_SCHEDULE', 'WORKER_CONCURRENCY', 'MAX_BATCH', 'REBALANCE_MS', 'COMMIT_LANES', 'NOTIFICATION_SWEEP_MS'],
  'channel-node': ['NODE_ENV', 'SECRET_ENCRYPTION_KEY', 'WEBHOOK_ALLOW_LOOPBACK', 'CONTROL_PORT', 'TOKEN_ISSUER', 'WEBHOOK_TIMEOUT_MS'],
  dispatcher: ['MAX_BATCH', 'REBALANCE_MS', 'CONTROL_PORT', 'TOKEN_ISSUER', 'HEARTBEAT_MS', 'ACCESS_CACHE_MS'],
};

for (const kind of KINDS) {
  test(`config per process - the ${kind} schema leaves out what only other kinds read`, () => {
    const present = NOT_READ[kind].filter((name) => CONFIG_VARIABLES[kind].includes(name));
    assert.deepEqual(present, [], `the ${kind} schema has variables it does not read`);
    // each of them is some other kind's variable, so the case tests a real boundary
    for (const name of NOT_READ[kind])
      assert.ok(
        KINDS.some((other) => CONFIG_VARIABLES[other].includes(name)),
        `${name} is no kind's variable`,
      );
  });
}

test('config per process - each kind loads from an empty environment with its defaults (NODE_ENV unset)', () => {
  for (const kind of KINDS) {
    const config = LOADERS[kind]({});
    assert.ok(Object.isFrozen(config), kind);
    assert.deepEqual(
      Object.keys(config).filter((name) => !CONFIG_VARIABLES[kind].includes(name)),
      [],
      `${kind}: keys outside its schema`,
    );
    assert.equal(config.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/rtm', kind);
    assert.equal(config.INTERNAL_PORT, 9090, kind);
  }
  const gateway = loadGatewayConfig({});
  assert.equal(gateway.NODE_ENV, 'development');
  assert.equal(gateway.PARTITIONS, 32);
  assert.equal(gateway.CONTROL_PORT, 8080);
  const node = loadChannelNodeConfig({});
  assert.equal(node.PARTITIONS, 32);
  assert.equal(node.MAX_BATCH, 500);
  const dispatcher = loadDispatcherConfig({});
  assert.equal(dispatcher.NODE_ENV, 'development');
  assert.equal(dispatcher.WEBHOOK_TIMEOUT_MS, 10_000);
});

test('config per process - a bad value of a variable a kind does not read does not stop it', () => {
  const all = new Set(KINDS.flatMap((kind) => CONFIG_VARIABLES[kind]));
  for (const kind of KINDS) {
    const foreign = [...all].filter((name) => !CONFIG_VARIABLES[kind].includes(name));
    assert.ok(foreign.length > 0, kind);
    const env = Object.fromEntries(foreign.map((name) => [name, '-not-a-valid-value-']));
    assert.doesNotThrow(() => LOADERS[kind](env), kind);
  }
  assert.throws(() => loadDispatcherConfig({ MAX_BATCH: '-1', WEBHOOK_TIMEOUT_MS: 'soon' }), /WEBHOOK_TIMEOUT_MS/);
  assert.doesNotThrow(() => loadDispatcherConfig({ MAX_BATCH: '-1' }));
  assert.throws(() => loadDispatcherConfig({ PARTITIONS: '-1' }), /PARTITIONS/);
  assert.throws(() => loadChannelNodeConfig({ PARTITIONS: '-1' }), /PARTITIONS/);
});
