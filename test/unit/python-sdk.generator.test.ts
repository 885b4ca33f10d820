/**
 * The Python SDK's generator (scripts/generate-python-sdk.ts): the committed modules are what the
 * document generates, and a schema or route changed in a copy of the document changes them, so the
 * `--check` of `npm test` fails until they are regenerated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_INPUT, renderPythonSdk, staleFiles } from '../../scripts/generate-python-sdk.ts';
import { PythonTypes } from '../../scripts/python-sdk/python-types.ts';

test('python sdk generator - the committed modules are current', async () => {
  assert.deepEqual(await staleFiles(), []);
});

test('python sdk generator - a changed schema or route in the document changes the generated modules', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rtm-python-drift-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const document = JSON.parse(await readFile(DEFAULT_INPUT, 'utf8'));
  const before = await renderPythonSdk();

  // a new required field of an answer
  document.components.schemas.UserToken.properties.region = { type: 'string', description: 'Where the token was minted.' };
  document.components.schemas.UserToken.required.push('region');
  const changedSchema = join(dir, 'schema.json');
  await writeFile(changedSchema, JSON.stringify(document));
  const after = await renderPythonSdk(changedSchema);
  assert.notEqual(after['models.py'], before['models.py']);
  assert.match(after['models.py']!, /class UserToken\(TypedDict\):\n(?:    .*\n)*    region: str\n    """Where the token was minted\."""/);
  assert.equal(after['operations.py'], before['operations.py']);
  assert.deepEqual(
    (await staleFiles(changedSchema)).map((f) => f.split('/').pop()),
    ['models.py'],
    'the --check fails before regeneration',
  );

  // a route moved
  const item = document.paths['/v1/tokens'];
  delete document.paths['/v1/tokens'];
  document.paths['/v2/tokens'] = item;
  const changedRoute = join(dir, 'route.json');
  await writeFile(changedRoute, JSON.stringify(document));
  assert.match((await renderPythonSdk(changedRoute))['operations.py']!, /"mintToken": Operation\(\n        method="POST",\n        path="\/v2\/tokens",/);
  assert.deepEqual((await staleFiles(changedRoute)).map((f) => f.split('/').pop()).sort(), ['models.py', 'operations.py']);
});

test('python sdk generator - types for Python 3.9 and loud refusals', () => {
  const types = new PythonTypes([]);
  assert.equal(types.typeOf({ type: ['string', 'null'] }, 'X', 'class'), 'Optional[str]');
  assert.equal(types.typeOf({ anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] }, 'X', 'alias'), 'Optional["A"]');
  assert.equal(types.typeOf({ enum: ['a', 'b'], type: 'string' }, 'X', 'class'), 'Literal["a", "b"]');
  assert.equal(types.typeOf({ type: 'object', additionalProperties: { type: 'integer' } }, 'X', 'class'), 'Dict[str, int]');
  types.declare('Mixed', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] });
  assert.deepEqual(types.blocks, ['class _MixedRequired(TypedDict):\n    a: str\n', 'class Mixed(_MixedRequired, total=False):\n    b: int\n']);
  assert.throws(() => types.declare('Bad', { type: 'object', properties: { 'x-y': { type: 'string' } } }), /not a Python identifier/);
  assert.throws(() => types.declare('Mixed', { type: 'string' }), /declared twice/);
});
