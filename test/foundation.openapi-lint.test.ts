/**
 * docs/openapi.json is fit for code generators: it passes Redocly's linter with the rules of
 * redocly.yaml (no warnings at all: a warning is a failure), every operation has a camelCase
 * operationId, and a body the server does not require is not declared `required`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';

const FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const CONFIG = fileURLToPath(new URL('../redocly.yaml', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type Operation = { operationId?: string; requestBody?: { required?: boolean } };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** Every problem Redocly finds, as `severity rule: message at pointer` lines. */
async function lint(source: string): Promise<string[]> {
  const config = await loadConfig({ configPath: CONFIG });
  const problems = await lintFromString({ source, absoluteRef: FILE, config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
}

function operations(doc: Doc): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

test('openapi lint - the document passes Redocly with redocly.yaml and suits code generators', async (t) => {
  const source = await readFile(FILE, 'utf8');
  const doc = JSON.parse(source) as Doc;

  await t.test('no lint problems, warnings included', async () => {
    assert.deepEqual(await lint(source), []);
  });

  await t.test('every operation has a unique camelCase operationId', () => {
    const ids = operations(doc).map(([name, op]) => {
      assert.ok(op.operationId, `${name} has no operationId`);
      assert.match(op.operationId, /^[a-z][A-Za-z0-9]*$/, `${name}: operationId ${op.operationId} is not camelCase`);
      return op.operationId;
    });
    assert.ok(ids.length >= 26, `only ${ids.length} operations`);
    assert.equal(new Set(ids).size, ids.length, 'operationIds repeat');
  });

  await t.test('bodies the server does not require are not `required`', () => {
    const byId = new Map(operations(doc).map(([, op]) => [op.operationId, op]));
    // each of these accepts a request without a body (test/server-sdk.test.ts sends each without one)
    for (const id of ['mintAnonymousToken', 'retractMessage', 'putMember', 'banFromChannel', 'banFromEnvironment', 'mintLogsToken']) {
      const body = byId.get(id)?.requestBody;
      assert.ok(body, `${id} documents its optional body`);
      assert.equal(body.required, false, `${id}: the body is optional`);
    }
    // and those that need one still say so
    for (const id of ['mintToken', 'publishMessage', 'deployConfig', 'sendNotifications', 'setChannelAccess']) {
      assert.equal(byId.get(id)?.requestBody?.required, true, `${id}: the body is required`);
    }
  });

  await t.test('the linter catches what this document must not have', async () => {
    const broken = structuredClone(doc);
    const anonymous = broken.paths['/v1/tokens/anonymous']!.post!;
    delete anonymous.operationId;
    broken.components.schemas.Unused = { type: 'object' };
    const problems = await lint(JSON.stringify(broken, null, 2));
    assert.ok(
      problems.some((p) => p.includes('operation-operationId') && p.includes('~1v1~1tokens~1anonymous/post')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('no-unused-components') && p.includes('Unused')),
      problems.join('\n'),
    );

    const snakeCase = structuredClone(doc);
    snakeCase.paths['/v1/tokens']!.post!.operationId = 'mint_token';
    assert.ok((await lint(JSON.stringify(snakeCase))).some((p) => p.includes('operation-id-camel-case')));
  });
});
