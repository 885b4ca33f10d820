/**
 * Every layout under deploy/ puts its gateways behind a load balancer (deploy/README.md, "Load
 * balancer"): compose.yaml behind HAProxy, the Kubernetes gateway Service behind an Ingress or
 * balancer, plain hosts (systemd units, the Procfile, both reading example.env) behind whatever
 * balancer the operator runs. Each gateway's MAX_CONNECTIONS_PER_IP must then count the client
 * the balancer forwards, not the balancer itself (which one user's sockets would fill, refusing
 * every other tenant), and must be on.
 *
 * The check is the gateway's own listener (apps/gateway createPublicApp) built with the layout's
 * TRUST_PROXY and probed from 127.0.0.1, which stands for the balancer (a TRUST_PROXY list gets
 * 127.0.0.1 added: the probe is one of the listed proxies): held exchanges from twice the cap of
 * distinct forwarded clients must all be admitted, and one forwarded client's must be refused
 * past the cap. The cap is scaled down to at most PROBE_CAP for the probe (how it counts does not
 * depend on its value); the layout's own value must not be 0.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import YAML from 'yaml';
import { Registry } from 'prom-client';
import { loadGatewayConfig } from '@rtm/config';
import { createLogger } from '@rtm/ops';
import { createPublicApp } from '../../apps/gateway/src/http/public-app.ts';
import { read } from './deploy-command.ts';

const PROBE_CAP = 3;

export type LayoutEnv = Record<string, string | undefined>;

/** The environment of every gateway of every layout under deploy/, by where it is written. */
export function gatewayLayouts(files: {
  compose: string;
  k8sGateway: string;
  k8sConfig: string;
  exampleEnv: string;
  procfile: string;
  systemdGateway: string;
}): Record<string, LayoutEnv> {
  const layouts: Record<string, LayoutEnv> = {};
  const compose = YAML.parse(files.compose, { merge: true }) as { services: Record<string, { command?: string[]; environment?: LayoutEnv }> };
  for (const [name, service] of Object.entries(compose.services)) {
    if ((service.command ?? []).some((word) => word.includes('apps/gateway/'))) layouts[`compose.yaml ${name}`] = { ...service.environment };
  }
  const shared = (YAML.parseAllDocuments(files.k8sConfig)
    .map((doc) => doc.toJS())
    .find((doc) => doc?.kind === 'ConfigMap')?.data ?? {}) as LayoutEnv;
  for (const doc of YAML.parseAllDocuments(files.k8sGateway).map((d) => d.toJS())) {
    if (doc?.kind !== 'Deployment') continue;
    for (const container of doc.spec.template.spec.containers as { name: string; env?: { name: string; value?: string }[] }[]) {
      const own = Object.fromEntries((container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
      layouts[`k8s/gateway.yaml ${container.name}`] = { ...shared, ...own };
    }
  }
  const exampleEnv = envLines(files.exampleEnv);
  const procfileGateway = files.procfile.split('\n').find((line) => line.startsWith('gateway:')) ?? '';
  const inline = Object.fromEntries([...procfileGateway.matchAll(/\b([A-Z_][A-Z0-9_]*)=(\S*)/g)].map((m) => [m[1]!, m[2]!]));
  layouts['Procfile gateway (with example.env)'] = { ...exampleEnv, ...inline };
  const unit = Object.fromEntries([...files.systemdGateway.matchAll(/^Environment=([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  layouts['systemd/rtm-gateway@.service (with example.env)'] = { ...exampleEnv, ...unit };
  return layouts;
}

export function deployFiles() {
  return {
    compose: read('deploy/compose.yaml'),
    k8sGateway: read('deploy/k8s/gateway.yaml'),
    k8sConfig: read('deploy/k8s/config.yaml'),
    exampleEnv: read('deploy/example.env'),
    procfile: read('deploy/Procfile'),
    systemdGateway: read('deploy/systemd/rtm-gateway@.service'),
  };
}

function envLines(text: string): LayoutEnv {
  return Object.fromEntries([...text.matchAll(/^([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()]));
}

/** The problems of one layout's gateway behind its balancer (empty: one client cannot fill it). */
export async function checkClientConnectionCap(layout: string, env: LayoutEnv): Promise<string[]> {
  const config = loadGatewayConfig({ TRUST_PROXY: env.TRUST_PROXY, MAX_CONNECTIONS_PER_IP: env.MAX_CONNECTIONS_PER_IP });
  const max = config.MAX_CONNECTIONS_PER_IP;
  if (max === 0) return [`${layout}: MAX_CONNECTIONS_PER_IP=0: no per-client cap, one client may hold every connection of a gateway`];
  const trust = config.TRUST_PROXY;
  const cap = Math.min(max, PROBE_CAP);
  const app = await createPublicApp('realtime', createLogger({ level: 'silent', name: 'probe' }), new Registry(), {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnectionsPerIp: cap,
    trustProxy: Array.isArray(trust) ? [...trust, '127.0.0.1'] : trust,
    accessLog: false,
  });
  // an exchange held open, as an event stream is
  app.get('/held', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write(':\n\n');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/held`;
  const held: ClientRequest[] = [];
  const open = (client: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { agent: false, headers: { 'x-forwarded-for': client } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
      held.push(req);
    });
  const problems: string[] = [];
  try {
    const distinct: number[] = [];
    for (let i = 0; i < 2 * cap + 1; i++) distinct.push(await open(`203.0.113.${i + 1}`));
    const refused = distinct.filter((status) => status !== 200).length;
    if (refused > 0) {
      problems.push(
        `${layout}: ${refused} of ${distinct.length} connections of distinct clients through the balancer refused: ` +
          `MAX_CONNECTIONS_PER_IP (${max}) counts the balancer (TRUST_PROXY=${env.TRUST_PROXY ?? 'unset'}), which one user fills`,
      );
    }
    const same: number[] = [];
    for (let i = 0; i < cap + 1; i++) same.push(await open('198.51.100.7'));
    if (same.at(-1) !== 429) problems.push(`${layout}: one forwarded client's connection past the cap was not refused (statuses ${same.join(',')})`);
  } finally {
    for (const req of held) req.destroy();
    await app.close();
  }
  return problems;
}
