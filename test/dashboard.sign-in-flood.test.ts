import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startCluster } from './helpers/cluster.ts';
import { errorCode } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';
const FAILURES_PER_IP = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hex = () => randomBytes(2).toString('hex');

// The flood of issue "sign-in can be jammed": made-up e-mails from hundreds of addresses of one
// IPv6 /64 and from many other /64s, enough concurrent requests to keep a hashing queue full,
// while the owner signs in with the right password from an address of their own.
test('dashboard sign-in flood - unknown e-mails cost no hashing, IPv6 counts by /64, the owner still signs in', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    env: { TRUST_PROXY: 'true', DASHBOARD_LOGIN_FAILURES_PER_IP: String(FAILURES_PER_IP), DASHBOARD_LOGIN_WINDOW: '1h' },
  });
  const { controlUrl } = cluster.gateways[0]!;
  await createUser(cluster.db.pool, { email: 'owner@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });

  await t.test('an unknown e-mail, never hashed, takes about as long as a wrong password (no enumeration by time)', async () => {
    const took: Record<'wrong' | 'unknown', number[]> = { wrong: [], unknown: [] };
    // interleaved, each from an address of its own, so load on the machine falls on both alike
    for (let i = 0; i < 8; i++) {
      for (const kind of ['wrong', 'unknown'] as const) {
        const started = performance.now();
        const res = await new DashboardClient(controlUrl, { ip: `203.0.113.${i * 2 + (kind === 'wrong' ? 1 : 2)}` }).signIn(
          kind === 'wrong' ? 'owner@example.com' : `nobody-${i}@example.com`,
          'not the password',
        );
        assert.equal(res.status, 401, `${kind} ${i}: ${JSON.stringify(res.body)}`);
        took[kind].push(performance.now() - started);
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;
    const [wrong, unknown] = [median(took.wrong), median(took.unknown)];
    // generous bounds for a busy machine; an unknown e-mail answered at once would be far below
    assert.ok(unknown > wrong / 3 && unknown < wrong * 3, `medians: wrong password ${wrong.toFixed(0)} ms, unknown e-mail ${unknown.toFixed(0)} ms`);
  });

  await t.test("the owner's right password signs in while unknown e-mails flood from one /64 and many", async () => {
    const statuses = { oneNet: new Map<number, number>(), manyNets: new Map<number, number>() };
    let stop = false;
    const flooder = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const oneNet = n % 2 === 0;
        // ~250 addresses of 2001:db8:1:2::/64, or an address of a fresh /64 each time
        const ip = oneNet ? `2001:db8:1:2::${((n * 7 + i) % 250).toString(16)}:1` : `2001:db8:${hex()}:${hex()}::1`;
        // a request of the flood that fails outright is counted as status 0: the owner's answer is what is judged
        const status = await new DashboardClient(controlUrl, { ip }).signIn(`nobody-${n}-${i}@example.com`, 'a guess at a password').then(
          (res) => res.status,
          () => 0,
        );
        const counts = oneNet ? statuses.oneNet : statuses.manyNets;
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
    };
    const flood = Array.from({ length: 120 }, (_, n) => flooder(n));
    try {
      await sleep(2_000);
      for (const [attempt, ip] of ['198.51.100.7', '2001:db8:ffff:1::7', '198.51.100.8'].entries()) {
        const owner = await new DashboardClient(controlUrl, { ip }).signIn('owner@example.com', PASSWORD);
        assert.equal(owner.status, 200, `the owner's sign-in ${attempt + 1} during the flood: ${owner.status} ${JSON.stringify(owner.body)}`);
        await sleep(300);
      }
    } finally {
      stop = true;
      await Promise.all(flood);
    }
    const summary = JSON.stringify({ oneNet: [...statuses.oneNet], manyNets: [...statuses.manyNets] });
    // made-up e-mails are answered as wrong passwords (401), never with "too many sign-ins at once"
    assert.equal(statuses.manyNets.get(503) ?? 0, 0, summary);
    assert.equal((statuses.manyNets.get(0) ?? 0) + (statuses.oneNet.get(0) ?? 0), 0, `every request of the flood was answered: ${summary}`);
    assert.ok((statuses.manyNets.get(401) ?? 0) > 0, summary);
    // the addresses of one /64 are one client: its failures stop at the per-address limit, then 429
    assert.equal(statuses.oneNet.get(401), FAILURES_PER_IP, summary);
    assert.ok((statuses.oneNet.get(429) ?? 0) > 0, summary);
    const refused = await new DashboardClient(controlUrl, { ip: '2001:db8:1:2:abcd::99' }).signIn('owner@example.com', PASSWORD);
    assert.equal(errorCode(refused), 'rate_limited', 'another address of that /64 is refused too');
  });
});
