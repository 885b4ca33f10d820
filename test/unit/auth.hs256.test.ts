import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { JwtRefused, verifyHs256 } from '../../libs/auth/src/hs256.ts';

const secret = new Uint8Array(32).map((_, i) => i * 7 + 1);
const otherSecret = new Uint8Array(32).fill(9);
const NOW = 1_800_000_000;
const options = { issuer: 'rtm', audience: 'realtime', requiredClaims: ['sub', 'exp', 'iat', 'jti'] };

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');
/** A compact JWS of exactly these header and payload texts, signed HS256 with `key`. */
function raw(header: string, payload: string, key: Uint8Array = secret): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
const claims = (extra: Record<string, unknown> = {}, drop: string[] = []) => {
  const base: Record<string, unknown> = { iss: 'rtm', aud: 'realtime', sub: 'u1', iat: NOW - 10, exp: NOW + 60, jti: 'j1', env: 'env_1', ...extra };
  for (const key of drop) delete base[key];
  return JSON.stringify(base);
};
const HEADER = JSON.stringify({ alg: 'HS256', kid: 'sgk_01', typ: 'JWT' });

/** jose's answer: the payload, or its error code ('ERR_JWT_EXPIRED' for an expired one). */
async function jose(token: string): Promise<string> {
  try {
    await jwtVerify(token, secret, { algorithms: ['HS256'], ...options, currentDate: new Date(NOW * 1000) });
    return 'ok';
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return error.code;
    return `thrown: ${(error as Error).name}`;
  }
}
function ours(token: string): string {
  try {
    verifyHs256(token, secret, { ...options, nowSeconds: NOW });
    return 'ok';
  } catch (error) {
    if (error instanceof JwtRefused) return error.code;
    return `thrown: ${(error as Error).name}`;
  }
}

test('HS256 verification answers as jose does, token by token', async () => {
  const valid = raw(HEADER, claims());
  const [h, p, s] = valid.split('.') as [string, string, string];
  const cases: [string, string][] = [
    ['valid', valid],
    [
      'signed by jose itself',
      await new SignJWT({ env: 'env_1' })
        .setProtectedHeader({ alg: 'HS256', kid: 'k' })
        .setIssuer('rtm')
        .setAudience('realtime')
        .setSubject('u')
        .setIssuedAt(NOW - 1)
        .setExpirationTime(NOW + 5)
        .setJti('j')
        .sign(secret),
    ],
    ['expired a second ago', raw(HEADER, claims({ exp: NOW - 1 }))],
    ['expiring now', raw(HEADER, claims({ exp: NOW }))],
    ['not before a future time', raw(HEADER, claims({ nbf: NOW + 10 }))],
    ['not before now', raw(HEADER, claims({ nbf: NOW }))],
    ['nbf not a number', raw(HEADER, claims({ nbf: '1' }))],
    ['iat not a number', raw(HEADER, claims({ iat: 'yesterday' }))],
    ['exp not a number', raw(HEADER, claims({ exp: String(NOW + 60) }))],
    ['another audience', raw(HEADER, claims({ aud: 'logs' }))],
    ['an audience list with ours', raw(HEADER, claims({ aud: ['logs', 'realtime'] }))],
    ['an audience list without ours', raw(HEADER, claims({ aud: ['logs'] }))],
    ['another issuer', raw(HEADER, claims({ iss: 'someone' }))],
    ['an issuer list', raw(HEADER, claims({ iss: ['rtm'] }))],
    ...['iss', 'aud', 'sub', 'exp', 'iat', 'jti'].map((claim): [string, string] => [`no ${claim}`, raw(HEADER, claims({}, [claim]))]),
    ['another secret', raw(HEADER, claims(), otherSecret)],
    ['payload changed after signing', `${h}.${b64(claims({ sub: 'admin' }))}.${s}`],
    ['signature cut', `${h}.${p}.${s.slice(0, -2)}`],
    ['signature padded', `${h}.${p}.${s}=`],
    ['signature with a character outside base64url', `${h}.${p}.${s.slice(0, -1)}!`],
    ['alg none', `${b64(JSON.stringify({ alg: 'none' }))}.${p}.`],
    ['alg HS384 under an HS256 check', raw(JSON.stringify({ alg: 'HS384' }), claims())],
    ['a critical header jose does not know', raw(JSON.stringify({ alg: 'HS256', crit: ['exp'], exp: 1 }), claims())],
    ['crit not a list', raw(JSON.stringify({ alg: 'HS256', crit: 'b64', b64: true }), claims())],
    ['crit b64, encoded', raw(JSON.stringify({ alg: 'HS256', crit: ['b64'], b64: true }), claims())],
    ['crit b64 not a boolean', raw(JSON.stringify({ alg: 'HS256', crit: ['b64'], b64: 'yes' }), claims())],
    ['crit twice the same', raw(JSON.stringify({ alg: 'HS256', crit: ['b64', 'b64'], b64: true }), claims())],
    ['two parts', `${h}.${p}`],
    ['four parts', `${valid}.x`],
    ['payload not JSON', raw(HEADER, 'not json')],
    ['payload an array', raw(HEADER, '[1,2]')],
    ['payload a string', raw(HEADER, '"text"')],
    ['header not JSON', raw('{alg', claims())],
    ['header an array', raw('["HS256"]', claims())],
    [
      'payload not UTF-8',
      (() => {
        const input = `${h}.${b64(Buffer.concat([Buffer.from('{"sub":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]))}`;
        return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      })(),
    ],
  ];
  for (const [name, token] of cases) assert.equal(ours(token), await jose(token), name);
  // the cases cover both answers and every refusal kind the gateway tells apart
  const answers = new Set(await Promise.all(cases.map(([, token]) => jose(token))));
  for (const code of [
    'ok',
    'ERR_JWT_EXPIRED',
    'ERR_JWT_CLAIM_VALIDATION_FAILED',
    'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    'ERR_JWS_INVALID',
    'ERR_JWT_INVALID',
  ]) {
    assert.ok(answers.has(code), `a case answered ${code}`);
  }
});
