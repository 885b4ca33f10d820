/**
 * What of a webhook endpoint's secrets reaches whom, through the real processes:
 * - a credential in an endpoint's URL (here a query value) is seen whole only by the secret key
 *   and by members who may manage the environment; a viewer's dashboard reads (endpoints, the
 *   webhook settings, deliveries), the live log, the audit log and the `endpoint.disabled` event
 *   sent to the environment's other endpoints carry the URL redacted;
 * - revealing or rotating a signing secret with the secret key writes an audit entry naming the
 *   key, without the secret, as the dashboard's reveal and rotation do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually, startReceiver } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';
/** The credential a receiver takes in its URL. */
const CREDENTIAL = 'QUERYSECRET8c1f';

test('webhook secrets - a URL credential reaches only managers; secret-key reveals and rotations are audited', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_DISABLE_AFTER: '2s', WEBHOOK_DISABLE_CHECK_MS: '300' },
  });
  const gateway = cluster.gateways[0]!;
  const owner = await createUser(cluster.db.pool, { email: 'olga@example.com', password: PASSWORD, organization: 'initech', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'vera@example.com', password: PASSWORD, organization: owner.organizationId, role: 'viewer' });
  const admin = new DashboardClient(gateway.controlUrl);
  const viewer = new DashboardClient(gateway.controlUrl);
  assert.equal((await admin.signIn('olga@example.com', PASSWORD)).status, 200);
  assert.equal((await viewer.signIn('vera@example.com', PASSWORD)).status, 200);
  const project = await admin.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'hooks' });
  const envId: string = (await admin.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' })).body.id;
  const key = (await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body;
  const api = client(gateway.controlUrl, key.key);
  const auditLog = async (who: DashboardClient) => (await who.get(`/v1/dashboard/organizations/${owner.organizationId}/audit?limit=200`)).body.data as any[];

  await t.test('a credential in the URL: whole for the key and admins; redacted for viewers, the live log, the audit log and endpoint.disabled', async (t) => {
    const failing = await startReceiver(t, () => ({ status: 500 }));
    const watcher = await startReceiver(t);
    const fallback = await startReceiver(t);
    const logsToken = (await api.post(`/v1/environments/${envId}/logs-token`)).body.token;
    const logs = openSocket(gateway.realtimeUrl, `/v1/environments/${envId}/logs?token=${logsToken}`);
    t.after(() => logs.close());
    await logs.waitFor('ready', (f) => f.op === 'ready');

    const base = `/v1/dashboard/environments/${envId}/webhook-endpoints`;
    const secretUrl = `${failing.url}/in?tenant=acme&token=${CREDENTIAL}`;
    const shownUrl = `${failing.url}/in?tenant=***&token=***`;
    assert.equal((await admin.post(base, { url: watcher.url, eventTypes: ['endpoint.disabled'] })).status, 201);
    const created = await admin.post(base, { url: secretUrl, channels: ['down'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    // the default endpoint, deployed with a credential of its own
    const deployed = await admin.put(`/v1/dashboard/environments/${envId}/webhook`, { url: `${fallback.url}/?key=${CREDENTIAL}` });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
    assert.equal((await api.post('/v1/channels/down/messages', { content: { n: 1 } })).status, 201);

    const event = await eventually('endpoint.disabled', async () => watcher.received[0], 30_000);
    const sent = event.raw.toString('utf8');
    assert.equal(JSON.parse(sent).type, 'endpoint.disabled');
    assert.equal(JSON.parse(sent).data.url, shownUrl, 'the other endpoints read the URL redacted');
    assert.ok(!sent.includes(CREDENTIAL), sent);

    // the key and admins: whole
    assert.equal((await api.get(`/v1/webhook-endpoints/${id}`)).body.url, secretUrl);
    assert.equal((await admin.get(`${base}/${id}`)).body.url, secretUrl);
    assert.ok((await admin.get(base)).body.data.some((e: any) => e.url === secretUrl));
    assert.equal((await admin.get(`/v1/dashboard/environments/${envId}/webhook`)).body.url, `${fallback.url}/?key=${CREDENTIAL}`);
    // a viewer: redacted, wherever a URL is read
    const ledger = await eventually("the failing endpoint's delivery in the ledger", async () => {
      const res = await viewer.get(`/v1/dashboard/environments/${envId}/webhook/deliveries?endpointId=${id}`);
      return res.body.data?.length >= 1 ? res : undefined;
    });
    const one = await viewer.get(`/v1/dashboard/environments/${envId}/webhook/deliveries/${ledger.body.data[0].id}`);
    const reads = {
      endpoint: await viewer.get(`${base}/${id}`),
      endpoints: await viewer.get(base),
      webhook: await viewer.get(`/v1/dashboard/environments/${envId}/webhook`),
      deliveries: ledger,
      delivery: one,
    };
    for (const [what, res] of Object.entries(reads)) {
      assert.equal(res.status, 200, what);
      assert.ok(!JSON.stringify(res.body).includes(CREDENTIAL), `${what}: ${JSON.stringify(res.body)}`);
    }
    assert.equal(reads.endpoint.body.url, shownUrl);
    assert.equal(reads.delivery.body.url, shownUrl);
    assert.equal(reads.webhook.body.url, `${fallback.url}/?key=***`);

    // the live log: the creation, the attempts, the disable, the deploy
    await logs.waitFor("the live log's endpoint_disabled", (f) => f.op === 'log' && f.event === 'webhook.endpoint_disabled');
    const events = logs.frames.filter((f) => f.op === 'log');
    for (const name of ['webhook.endpoint_created', 'webhook.attempt', 'webhook.endpoint_disabled', 'config.deployed']) {
      assert.ok(
        events.some((f) => f.event === name),
        `${name} on the live log: ${JSON.stringify(events.map((f) => f.event))}`,
      );
    }
    assert.ok(!JSON.stringify(events).includes(CREDENTIAL), JSON.stringify(events));
    assert.equal(events.find((f) => f.event === 'webhook.endpoint_disabled').data.url, shownUrl);

    // the audit log, as a viewer reads it
    const entries = await auditLog(viewer);
    for (const action of ['webhook_endpoint.created', 'webhook_endpoint.disabled', 'webhook.deployed']) {
      assert.ok(
        entries.some((e) => e.action === action),
        `${action} audited`,
      );
    }
    assert.ok(!JSON.stringify(entries).includes(CREDENTIAL), JSON.stringify(entries));
  });

  await t.test('revealing and rotating a signing secret with the secret key: audited under the key, never the secret', async () => {
    const receiver = await startReceiver(t);
    const created = await api.post('/v1/webhook-endpoints', { url: receiver.url });
    assert.equal(created.status, 201);
    const id: string = created.body.id;
    const before = new Set((await auditLog(admin)).map((e) => e.id));

    const revealed = await api.get(`/v1/webhook-endpoints/${id}/secret`);
    assert.equal(revealed.status, 200);
    const rotated = await api.post(`/v1/webhook-endpoints/${id}/secret/rotate`);
    assert.equal(rotated.status, 200);
    const environmentSecret = await api.get('/v1/webhooks/secret');
    assert.equal(environmentSecret.status, 200, JSON.stringify(environmentSecret.body));
    const environmentRotated = await api.post('/v1/webhooks/secret/rotate');
    assert.equal(environmentRotated.status, 200);

    const added = (await auditLog(viewer)).filter((e) => !before.has(e.id)).reverse();
    assert.deepEqual(
      added.map((e) => [e.action, e.target.type, e.target.id, e.actor.kind, e.actor.id, e.actor.email]),
      [
        ['webhook_endpoint.secret_revealed', 'webhook_endpoint', id, 'key', key.id, null],
        ['webhook_endpoint.secret_rotated', 'webhook_endpoint', id, 'key', key.id, null],
        ['webhook.secret_revealed', 'environment', envId, 'key', key.id, null],
        ['webhook.secret_rotated', 'environment', envId, 'key', key.id, null],
      ],
    );
    const text = JSON.stringify(added);
    for (const secret of [revealed.body.secret, rotated.body.secret, environmentSecret.body.secret, environmentRotated.body.secret]) {
      assert.ok(!text.includes(secret), 'no secret in the audit log');
    }
  });
});
