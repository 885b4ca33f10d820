import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ConnectFrame, SERVER_FRAMES } from '@rtm/schemas';
import { renderAsyncApi } from '../scripts/write-asyncapi.ts';

test('foundation - docs/asyncapi.yaml is current, AsyncAPI 3.0, and every reference resolves', async () => {
  const text = await readFile(new URL('../docs/asyncapi.yaml', import.meta.url), 'utf8');
  assert.equal(text, renderAsyncApi(), 'docs/asyncapi.yaml is out of date: run `npm run asyncapi`');
  const doc = parse(text);
  assert.equal(doc.asyncapi, '3.0.0');
  const resolve = (ref: string) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key) => node?.[key], doc);
  const names = new Set<string>();
  for (const operation of Object.values<any>(doc.operations)) {
    assert.ok(resolve(operation.channel.$ref), operation.channel.$ref);
    for (const message of operation.messages) {
      const target = resolve(message.$ref);
      assert.ok(target?.payload, `${message.$ref} resolves to a message with a payload`);
      names.add(`${operation.action}:${target.name}`);
    }
  }
  for (const option of ConnectFrame.options) assert.ok(names.has(`send:${option.shape.op.value}`), `client ${option.shape.op.value}`);
  for (const key of Object.keys(SERVER_FRAMES)) assert.ok(names.has(`receive:${key}`), `server ${key}`);
  // the protocol document names every client op
  const protocol = await readFile(new URL('../docs/protocol.md', import.meta.url), 'utf8');
  for (const option of ConnectFrame.options) assert.ok(protocol.includes(`op:"${option.shape.op.value}"`), option.shape.op.value);
});
