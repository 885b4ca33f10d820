/**
 * Where a value sits inside JSON text, so message content can be carried as the exact text it
 * arrived as (a substring of the HTTP body or socket frame) instead of being re-serialised.
 *
 * The span finders work on text that has already passed JSON.parse (the body parser and the
 * frame reader parse it first): they do not validate, they only walk. They agree with JSON.parse
 * on what a key names: a key written with escapes (`"cont\u0065nt"`) is decoded before it is
 * compared, and when an object holds the same key twice the LAST one is the one returned, as
 * JSON.parse keeps the last.
 *
 * Skipping a value is a flat scan (strings and bracket depth), never recursive, so no depth of
 * nesting can overflow the stack.
 *
 * `jsonObjectProblem` is the other half: a full validating scan of text nobody has parsed yet
 * (the channel owner's check of content from the bus).
 */

/** A value's text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end (exclusive) of the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) j++;
  }
  throw new SyntaxError('unterminated string');
}

/** The end (exclusive) of the value that starts at `i` (no whitespace before it). */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x22) j = stringEnd(text, j) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
    }
    throw new SyntaxError('unterminated object or array');
  }
  // a number or a literal: up to the next delimiter
  let j = i;
  for (; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
  }
  if (j === i) throw new SyntaxError(`no value at ${i}`);
  return j;
}

function expect(text: string, i: number, code: number): void {
  if (text.charCodeAt(i) !== code) throw new SyntaxError(`expected ${String.fromCharCode(code)} at ${i}`);
}

/** The members of the object at `span`, in text order: key (decoded) and the value's span. */
function* members(text: string, span: Span): Generator<[string, Span]> {
  expect(text, span.start, 0x7b);
  let i = skipSpace(text, span.start + 1);
  if (text.charCodeAt(i) === 0x7d) return;
  for (;;) {
    expect(text, i, 0x22);
    const keyEnd = stringEnd(text, i);
    const raw = text.slice(i + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
    i = skipSpace(text, keyEnd);
    expect(text, i, 0x3a);
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    yield [key, { start, end }];
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 0x7d) return;
    expect(text, i, 0x2c);
    i = skipSpace(text, i + 1);
  }
}

/** The span of the whole text's value (surrounding whitespace left out). */
export function rootSpan(text: string): Span {
  const start = skipSpace(text, 0);
  return { start, end: valueEnd(text, start) };
}

/**
 * The span of the value at `path` (object keys) below the value at `within` (default: the whole
 * text), or undefined when a step is missing or not an object. The last of duplicate keys wins.
 */
export function valueSpan(text: string, path: readonly string[], within: Span = rootSpan(text)): Span | undefined {
  let span = within;
  for (const key of path) {
    if (text.charCodeAt(span.start) !== 0x7b) return undefined;
    let found: Span | undefined;
    for (const [name, value] of members(text, span)) if (name === key) found = value;
    if (!found) return undefined;
    span = found;
  }
  return span;
}

/** The spans of the elements of the array at `span`, in order; undefined when it is not an array. */
export function elementSpans(text: string, span: Span): Span[] | undefined {
  if (text.charCodeAt(span.start) !== 0x5b) return undefined;
  const spans: Span[] = [];
  let i = skipSpace(text, span.start + 1);
  if (text.charCodeAt(i) === 0x5d) return spans;
  for (;;) {
    const end = valueEnd(text, i);
    spans.push({ start: i, end });
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 0x5d) return spans;
    expect(text, i, 0x2c);
    i = skipSpace(text, i + 1);
  }
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The end of the valid string at `i`, or -1. */
function checkedStringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c) continue;
    const e = text.charCodeAt(++j);
    if (e === 0x75 /* u */) {
      if (!(isHex(text.charCodeAt(j + 1)) && isHex(text.charCodeAt(j + 2)) && isHex(text.charCodeAt(j + 3)) && isHex(text.charCodeAt(j + 4)))) return -1;
      j += 4;
    } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
  }
  return -1;
}

/** The end of the valid number at `i`, or -1. */
function checkedNumberEnd(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 0x2d) j++;
  if (text.charCodeAt(j) === 0x30) j++;
  else if (isDigit(text.charCodeAt(j))) while (isDigit(text.charCodeAt(j))) j++;
  else return -1;
  if (text.charCodeAt(j) === 0x2e) {
    if (!isDigit(text.charCodeAt(++j))) return -1;
    while (isDigit(text.charCodeAt(j))) j++;
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    const s = text.charCodeAt(++j);
    if (s === 0x2b || s === 0x2d) j++;
    if (!isDigit(text.charCodeAt(j))) return -1;
    while (isDigit(text.charCodeAt(j))) j++;
  }
  return j;
}

/**
 * Why `text` is not one JSON object nested at most `maxDepth` deep (the object itself is depth
 * 1), or undefined. A complete validation in one flat pass with an explicit stack: no recursion,
 * no allocation per value. Lone surrogates cannot occur in text decoded from valid UTF-8, and
 * escapes of any code unit (`\u0000`, `\ud800`) are valid JSON.
 */
export function jsonObjectProblem(text: string, maxDepth: number): string | undefined {
  const malformed = 'content is not valid JSON';
  const closers: number[] = [];
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return 'content must be a JSON object';
  // expecting a value at i
  for (;;) {
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      closers.push(c + 2);
      if (closers.length > maxDepth) return `content is nested deeper than ${maxDepth} levels`;
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === c + 2) {
        closers.pop();
        i++;
      } else if (c === 0x7b) {
        // the first key
        if (text.charCodeAt(i) !== 0x22 || (i = checkedStringEnd(text, i)) < 0) return malformed;
        i = skipSpace(text, i);
        if (text.charCodeAt(i++) !== 0x3a) return malformed;
        continue;
      } else continue;
    } else if (c === 0x22) {
      if ((i = checkedStringEnd(text, i)) < 0) return malformed;
    } else if (c === 0x2d || isDigit(c)) {
      if ((i = checkedNumberEnd(text, i)) < 0) return malformed;
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else return malformed;
    // after a value: close containers, or a comma and the next value
    for (;;) {
      i = skipSpace(text, i);
      if (closers.length === 0) return i === text.length ? undefined : malformed;
      const d = text.charCodeAt(i);
      if (d === closers[closers.length - 1]) {
        closers.pop();
        i++;
        continue;
      }
      if (d !== 0x2c) return malformed;
      i = skipSpace(text, i + 1);
      if (closers[closers.length - 1] === 0x7d) {
        if (text.charCodeAt(i) !== 0x22 || (i = checkedStringEnd(text, i)) < 0) return malformed;
        i = skipSpace(text, i);
        if (text.charCodeAt(i++) !== 0x3a) return malformed;
      }
      break;
    }
  }
}
