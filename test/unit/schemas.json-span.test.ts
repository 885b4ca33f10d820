/**
 * The content span scanner (libs/schemas json-span.ts): the span it finds is the very text whose
 * value JSON.parse gives (the last of duplicate keys, keys written with escapes decoded), for
 * JSON written with any spacing, key order, escapes and unicode; and the owner's validating scan
 * (jsonObjectProblem) accepts exactly what JSON.parse accepts as an object within the depth.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkJsonText, elementSpans, jsonObjectProblem, rootSpan, valueSpan } from '@rtm/schemas';

/** A small deterministic generator of choices from a seed (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPACES = ['', '', ' ', '  ', '\n', '\t', '\r\n ', ' \n\t'];
const space = (r: () => number) => SPACES[Math.floor(r() * SPACES.length)]!;
const hex4 = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A JSON string literal for `s`, each code unit written plainly or as an escape, at random. */
function writeString(s: string, r: () => number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    if (SHORT[ch] !== undefined) out += r() < 0.5 ? SHORT[ch] : hex4(code);
    else if (code < 0x20) out += hex4(code);
    else if (ch === '/' && r() < 0.5) out += '\\/';
    else out += r() < 0.2 ? (r() < 0.5 ? hex4(code) : hex4(code).toUpperCase().replace('\\U', '\\u')) : ch;
  }
  return `${out}"`;
}

/** JSON text for `value` with random spacing, key order, escapes, and decoy duplicates of keys before the real ones. */
function write(value: unknown, r: () => number): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string') return writeString(value, r);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return `[${space(r)}]`;
    return `[${space(r)}${value.map((v) => write(v, r)).join(`${space(r)},${space(r)}`)}${space(r)}]`;
  }
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const members: string[] = [];
  for (const key of keys) {
    if (r() < 0.15) members.push(`${writeString(key, r)}${space(r)}:${space(r)}${write({ decoy: [1, 'x'] }, r)}`);
    members.push(`${writeString(key, r)}${space(r)}:${space(r)}${write((value as Record<string, unknown>)[key], r)}`);
  }
  if (members.length === 0) return `{${space(r)}}`;
  return `{${space(r)}${members.join(`${space(r)},${space(r)}`)}${space(r)}}`;
}

const unicode = fc.string({ unit: 'grapheme', maxLength: 12 });
const key = fc.oneof(unicode, fc.constantFrom('content', '10', '2', '0', 'a"b', 'x\\y', '__proto__', ''));
const leaf = fc.oneof(unicode, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const object = fc.dictionary(key, json, { maxKeys: 5 });

test('valueSpan: the span of `content` is the exact text written for it, the last of duplicates, whatever the spacing, order and escapes', () => {
  fc.assert(
    fc.property(object, object, fc.option(json), fc.integer(), (content, others, earlier, seed) => {
      const r = random(seed);
      const contentText = write(content, r);
      const members = Object.entries(others)
        .filter(([k]) => k !== 'content')
        .map(([k, v]) => `${writeString(k, r)}${space(r)}:${space(r)}${write(v, r)}`);
      // an earlier duplicate (JSON.parse keeps the last), then the real key after it, possibly written with escapes
      let after = 0;
      if (earlier !== null) {
        after = Math.floor(r() * (members.length + 1));
        members.splice(after++, 0, `"content":${space(r)}${write(earlier, r)}`);
      }
      members.splice(after + Math.floor(r() * (members.length - after + 1)), 0, `${writeString('content', r)}${space(r)}:${space(r)}${contentText}`);
      const text = `${space(r)}{${space(r)}${members.join(`${space(r)},${space(r)}`)}${space(r)}}${space(r)}`;
      const parsed = JSON.parse(text) as { content: unknown };
      const span = valueSpan(text, ['content']);
      assert.ok(span);
      const sliced = text.slice(span.start, span.end);
      assert.equal(sliced, contentText, 'the exact text written for the last `content`');
      assert.deepEqual(JSON.parse(sliced), parsed.content, 'the span holds what JSON.parse kept');
    }),
    { numRuns: 500 },
  );
});

test('valueSpan: the last duplicate wins, keys are decoded, missing paths are undefined', () => {
  const text = '{"content":{"a":1}, "cont\\u0065nt" : {"b":[1, {"c":2}]} ,"x":"content"}';
  const span = valueSpan(text, ['content'])!;
  assert.equal(text.slice(span.start, span.end), '{"b":[1, {"c":2}]}');
  assert.equal(valueSpan(text, ['missing']), undefined);
  assert.equal(valueSpan(text, ['x', 'y']), undefined, 'a step into a non-object');
  const odd = '{ "10": 1, "2" : {"z":1,"a":2},\n"content" : {"10":"ten","2":"two","é\\u00e9":"\\ud83d\\ude00"} }';
  const s = valueSpan(odd, ['content'])!;
  assert.equal(odd.slice(s.start, s.end), '{"10":"ten","2":"two","é\\u00e9":"\\ud83d\\ude00"}');
});

test('elementSpans: each item of a batch, and its content, in order, duplicates of `messages` resolved like JSON.parse', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(object, fc.option(object)), { minLength: 1, maxLength: 6 }), fc.integer(), (items, seed) => {
      const r = random(seed);
      const contents = items.map(([content]) => write(content, r));
      const itemTexts = items.map(([, before], i) => {
        const decoy = before === null ? '' : `"content":${write(before, r)},${space(r)}`;
        return `{${space(r)}"channelId":"c${i}",${space(r)}${decoy}"content"${space(r)}:${space(r)}${contents[i]}${space(r)}}`;
      });
      const text = `{"messages":[{"content":{}}],${space(r)}"messages"${space(r)}:${space(r)}[${space(r)}${itemTexts.join(`${space(r)},${space(r)}`)}${space(r)}]}`;
      const parsed = JSON.parse(text) as { messages: { content: unknown }[] };
      const spans = elementSpans(text, valueSpan(text, ['messages'], rootSpan(text))!)!;
      assert.equal(spans.length, parsed.messages.length);
      spans.forEach((item, i) => {
        const span = valueSpan(text, ['content'], item)!;
        assert.equal(text.slice(span.start, span.end), contents[i]);
        assert.deepEqual(JSON.parse(contents[i]!), parsed.messages[i]!.content);
      });
    }),
    { numRuns: 300 },
  );
});

/**
 * The verdict the scan must match: JSON.parse accepts the text, as an object, and the TEXT nests
 * at most `maxDepth` (the text is what is stored; a decoy duplicate counts though JSON.parse drops it).
 */
function parseVerdict(text: string, maxDepth: number): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
    checkJsonText(text, maxDepth);
  } catch {
    return false;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

test('jsonObjectProblem: accepts exactly what JSON.parse accepts as an object within the depth, for written and mutated texts', () => {
  const NOISE = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', '-', '.', 'e', 't', 'n', 'u', '\u0001', 'x'];
  fc.assert(
    fc.property(json, fc.integer(), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 5 }), (value, seed, mutations, maxDepth) => {
      const r = random(seed);
      let text = write(value, r);
      for (let m = 0; m < mutations; m++) {
        const at = Math.floor(r() * (text.length + 1));
        text = r() < 0.5 ? text.slice(0, at) + NOISE[Math.floor(r() * NOISE.length)] + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      }
      assert.equal(jsonObjectProblem(text, maxDepth) === undefined, parseVerdict(text, maxDepth), text);
    }),
    { numRuns: 3000 },
  );
});

test('jsonObjectProblem: its reasons, and no depth overflows it', () => {
  assert.equal(jsonObjectProblem('{"a":[1,2,{"b":null}],"c":"\\u0000\\ud800"}', 64), undefined);
  assert.equal(jsonObjectProblem(' [1] ', 64), 'content must be a JSON object');
  assert.equal(jsonObjectProblem('"x"', 64), 'content must be a JSON object');
  assert.equal(jsonObjectProblem('{"a":1,}', 64), 'content is not valid JSON');
  assert.equal(jsonObjectProblem('{"a":01}', 64), 'content is not valid JSON');
  assert.equal(jsonObjectProblem('{"a":"\u0001"}', 64), 'content is not valid JSON');
  assert.equal(jsonObjectProblem('{"a":1} {}', 64), 'content is not valid JSON');
  assert.equal(jsonObjectProblem(`${'{"a":'.repeat(64)}{}${'}'.repeat(64)}`, 64), 'content is nested deeper than 64 levels');
  assert.equal(jsonObjectProblem(`${'{"a":'.repeat(63)}{}${'}'.repeat(63)}`, 64), undefined);
  assert.equal(jsonObjectProblem(`{"a":${'['.repeat(200_000)}`, 64), 'content is nested deeper than 64 levels');
});
