import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { Registry } from 'prom-client';
import { METRIC_ROWS, createInternalServer, listen } from '@rtm/ops';
import {
  checkAlertRules,
  checkCnpgClusters,
  checkCompose,
  checkDockerfile,
  checkEnvFile,
  checkGrafanaDashboard,
  checkHaproxy,
  checkKubernetes,
  checkNatsValues,
  checkProcfile,
  checkPrometheusConfig,
  checkSystemdUnit,
  defaultMetrics,
  parseStandbyNames,
  read,
} from './helpers/deploy-checks.ts';
import { checkClientConnectionCap, deployFiles, gatewayLayouts } from './helpers/deploy-checks-balancer.ts';

/** What a process's internal server answers on each path (no dependency checks: a healthy process). */
async function servedPaths(paths: string[]): Promise<Record<string, number>> {
  const server = createInternalServer({ registry: new Registry(), checks: [] });
  const port = await listen(server, 0, '127.0.0.1');
  try {
    const answers: Record<string, number> = {};
    for (const path of paths) answers[path] = (await fetch(`http://127.0.0.1:${port}${path}`)).status;
    return answers;
  } finally {
    server.close();
  }
}

const k8sFiles = () =>
  Object.fromEntries(
    readdirSync(new URL('../deploy/k8s/', import.meta.url))
      .filter((f) => f.endsWith('.yaml') && f !== 'nats-values.yaml')
      .map((f) => [f, read(`deploy/k8s/${f}`)]),
  );

/** `text` with `from` replaced once by `to`; the replacement must happen, or the broken copy would be the original. */
function broken(text: string, from: string | RegExp, to: string): string {
  const result = text.replace(from, to);
  assert.notEqual(result, text, `nothing to break: ${from} not found`);
  return result;
}

test('deploy - Dockerfile: multi-stage on node:24, the compiled build, npm ci --omit=dev, non-root, tini, healthcheck, node directly', () => {
  const text = read('deploy/Dockerfile');
  assert.deepEqual(checkDockerfile(text), []);
  assert.match(checkDockerfile(broken(text, /^USER .*$/m, '')).join('\n'), /runs as root/);
  assert.match(checkDockerfile(broken(text, /^USER .*$/m, 'USER root')).join('\n'), /USER is root/);
  assert.match(checkDockerfile(broken(text, /^HEALTHCHECK[^\n]*\\\n[^\n]*$/m, '')).join('\n'), /HEALTHCHECK/);
  assert.match(checkDockerfile(broken(text, /^ENTRYPOINT .*$/m, '')).join('\n'), /init process/);
  assert.match(checkDockerfile(broken(text, /--no-install-recommends tini/, '--no-install-recommends curl')).join('\n'), /not installed/);
  assert.match(checkDockerfile(broken(text, /^CMD .*$/m, 'CMD ["npm", "run", "gateway"]')).join('\n'), /package manager/);
  assert.match(checkDockerfile(broken(text, /^CMD .*$/m, 'CMD node build/apps/gateway/src/main.js')).join('\n'), /exec form/);
  assert.match(checkDockerfile(broken(text, 'npm ci --omit=dev', 'npm ci')).join('\n'), /--omit=dev/);
  assert.match(checkDockerfile(broken(text, /^FROM node:24-slim AS build$/m, 'FROM node:20-slim AS build')).join('\n'), /node:24/);
  assert.match(checkDockerfile(broken(text, /&& npm run build \\\n/, '')).join('\n'), /no `npm run build`/);
  assert.match(checkDockerfile(broken(text, /^COPY --from=build --chown.*$/m, 'COPY --from=deps /app /app')).join('\n'), /copies no build\//);
  assert.match(
    checkDockerfile(broken(text, /^COPY --from=build --chown.*$/m, 'COPY . .\nCOPY --from=build /app/build /app/build')).join('\n'),
    /copies the sources/,
  );
  const tsx = broken(text, /^CMD .*$/m, 'CMD ["node", "--initial-old-space-size=192", "--import", "tsx", "apps/gateway/src/main.ts"]');
  assert.match(checkDockerfile(tsx).join('\n'), /loads code before the entry point \(tsx\?\)/);
  assert.match(checkDockerfile(broken(text, 'build/apps/gateway/src/main.js"]', 'build/apps/gateway/src/nothing.js"]')).join('\n'), /not built from anything/);
});

test('deploy - compose.yaml: valid against the Compose schema, the production shape, node started directly', () => {
  const text = read('deploy/compose.yaml');
  assert.deepEqual(checkCompose(text), []);
  // the schema: an unknown service key, a wrong type
  assert.match(checkCompose(broken(text, '  haproxy:\n    image:', '  haproxy:\n    imagee: x\n    image:')).join('\n'), /additional propert/);
  assert.match(checkCompose(broken(text, 'replicas: 3', 'replicas: three')).join('\n'), /must be integer/);
  // the shape
  assert.match(checkCompose(broken(text, 'replicas: 3', 'replicas: 2')).join('\n'), /2 channel-node processes, expected 3/);
  const withoutNats3 = checkCompose(broken(text, /^  nats-3:\n(    .*\n|              .*\n)*/m, '')).join('\n');
  assert.match(withoutNats3, /2 NATS servers/);
  assert.match(withoutNats3, /depends on nats-3, which is not a service/);
  assert.match(
    checkCompose(broken(text, '"--routes", "nats://nats-1:6222,nats://nats-2:6222"', '"--port", "4222"')).join('\n'),
    /nats-3: not a clustered JetStream/,
  );
  assert.match(checkCompose(broken(text, 'condition: service_completed_successfully', 'condition: service_started')).join('\n'), /does not wait for migrate/);
  assert.match(checkCompose(broken(text, 'stop_grace_period: 20s', 'stop_grace_period: 10s')).join('\n'), /not above the drain timeout/);
  // commands and variables
  assert.match(checkCompose(broken(text, '["node", "build/apps/dispatcher/src/main.js"]', '["npm", "run", "dispatcher"]')).join('\n'), /package manager/);
  assert.match(
    checkCompose(broken(text, 'NATS_PREFIX: rtm', 'NATS_PREFIX: rtm\n  NATS_SUBJECT_PREFIX: rtm')).join('\n'),
    /NATS_SUBJECT_PREFIX is not a configuration variable/,
  );
});

test('deploy - compose.yaml Postgres: a synchronous standby made with pg_basebackup, DATABASE_URL listing both servers', () => {
  const text = read('deploy/compose.yaml');
  const scripts = { primary: read('deploy/postgres/primary-replication.sh'), standby: read('deploy/postgres/standby-entrypoint.sh') };
  const withScripts = (primary: string, standby: string) => (path: string) =>
    ({ 'postgres/primary-replication.sh': primary, 'postgres/standby-entrypoint.sh': standby })[path];
  assert.deepEqual(checkCompose(text, withScripts(scripts.primary, scripts.standby)), []);
  const problems = (compose: string, primary = scripts.primary, standby = scripts.standby) => checkCompose(compose, withScripts(primary, standby)).join('\n');
  // the standby: missing, not made with pg_basebackup, not from the primary's slot, not a hot standby
  assert.match(problems(broken(text, /^  postgres-standby:\n(    .*\n)*/m, '')), /no Postgres standby/);
  assert.match(problems(text, scripts.primary, broken(scripts.standby, /pg_basebackup/g, 'pg_dumpall')), /2 Postgres primaries/);
  assert.match(problems(text, scripts.primary, broken(scripts.standby, ' --write-recovery-conf', '')), /pg_basebackup without -R/);
  assert.match(problems(text, scripts.primary, broken(scripts.standby, ' --slot="$REPLICATION_SLOT"', '')), /does not stream through the slot/);
  assert.match(
    problems(text, scripts.primary, broken(scripts.standby, 'if [ ! -s "$PGDATA/PG_VERSION" ]', 'if true')),
    /even when its data directory is not empty/,
  );
  assert.match(
    problems(broken(text, /REPLICATION_SLOT: postgres_standby\n(?![\s\S]*REPLICATION_SLOT)/, 'REPLICATION_SLOT: standby_1\n')),
    /REPLICATION_SLOT standby_1 is not the slot postgres creates/,
  );
  assert.match(
    problems(broken(text, '"-c", "max_connections=200", "-c", "hot_standby=on"', '"-c", "hot_standby=on"')),
    /max_connections 100 below the primary's 200/,
  );
  // the primary: its set-up script, synchronous replication that names the standby
  assert.match(problems(text, broken(scripts.primary, /^ALTER SYSTEM .*\n/m, '')), /does not set synchronous_standby_names/);
  assert.match(problems(text, broken(scripts.primary, /^SELECT pg_create_physical_replication_slot.*\n.*\n/m, '')), /creates no physical replication slot/);
  assert.match(problems(text, broken(scripts.primary, /^grep .*pg_hba.*\n/m, '')), /lets no replication connection in/);
  assert.match(
    problems(broken(text, `SYNCHRONOUS_STANDBY_NAMES: '"postgres-standby"'`, `SYNCHRONOUS_STANDBY_NAMES: '"postgres-replica"'`)),
    /synchronous_standby_names "\\"postgres-replica\\"" does not name its application_name postgres-standby/,
  );
  assert.match(problems(broken(text, '"-c", "cluster_name=postgres-standby"', '"-c", "cluster_name=standby"')), /does not name its application_name standby/);
  assert.match(
    problems(broken(text, `SYNCHRONOUS_STANDBY_NAMES: '"postgres-standby"'`, 'SYNCHRONOUS_STANDBY_NAMES: postgres-standby')),
    /not a synchronous_standby_names Postgres takes/,
  );
  assert.match(
    problems(broken(text, `SYNCHRONOUS_STANDBY_NAMES: '"postgres-standby"'`, `SYNCHRONOUS_STANDBY_NAMES: ''`)),
    /names no standby: replication is asynchronous/,
  );
  assert.match(
    problems(broken(text, '"synchronous_commit=on"', '"synchronous_commit=local"')),
    /synchronous_commit=local: a commit would return before the standby has flushed it/,
  );
  assert.match(
    problems(broken(text, '"synchronous_commit=on"', '"synchronous_commit=on", "-c", "synchronous_standby_names=postgres_standby"')),
    /on the command line, where ALTER SYSTEM cannot clear it/,
  );
  // every process's DATABASE_URL: both servers, the writable one
  assert.match(
    problems(broken(text, '@postgres:5432,postgres-standby:5432/rtm', '@postgres:5432/rtm')),
    /DATABASE_URL lists postgres:5432, not postgres-standby/,
  );
  assert.match(problems(broken(text, 'target_session_attrs=read-write', 'target_session_attrs=any')), /target_session_attrs=any/);
  // the grammar Postgres parses synchronous_standby_names with
  assert.deepEqual(parseStandbyNames('ANY 1 ("a-1", b)'), { number: 1, names: ['a-1', 'b'] });
  assert.deepEqual(parseStandbyNames('FIRST 2 (a, "b""c", *)'), { number: 2, names: ['a', 'b"c', '*'] });
  assert.deepEqual(parseStandbyNames(' a , b '), { number: 1, names: ['a', 'b'] });
  assert.deepEqual(parseStandbyNames(''), { number: 0, names: [] });
  for (const refused of ['a-1', 'ANY (a)', 'ANY 1 (a', '1 (a) b', 'a,', '"a']) assert.equal(parseStandbyNames(refused), undefined, refused);
});

test('deploy - Kubernetes Postgres: a CloudNativePG Cluster with synchronous replication, DATABASE_URL on its rw Service', async () => {
  const files = k8sFiles();
  const cluster = files['postgres-cluster.yaml']!;
  const config = files['config.yaml']!;
  const check = async (clusterText: string, configText = config) =>
    (await checkKubernetes({ ...files, 'postgres-cluster.yaml': clusterText, 'config.yaml': configText }, servedPaths)).join('\n');
  assert.equal(await check(cluster), '');
  assert.match(
    (await checkKubernetes(Object.fromEntries(Object.entries(files).filter(([f]) => f !== 'postgres-cluster.yaml')), servedPaths)).join('\n'),
    /0 CloudNativePG Clusters/,
  );
  assert.match(
    await check(broken(cluster, 'apiVersion: postgresql.cnpg.io/v1', 'apiVersion: postgresql.cnpg.io/v2')),
    /postgresql.cnpg.io\/v2 Cluster is not a kind/,
  );
  // replication: instances, synchronous, durability, a spare standby, the deprecated form
  assert.match(await check(broken(cluster, 'instances: 3', 'instances: 1')), /1 instance\(s\): no standby/);
  assert.match(await check(broken(cluster, /    synchronous:\n(      .*\n)*/, '')), /synchronous replication off/);
  assert.match(await check(broken(cluster, 'dataDurability: required', 'dataDurability: preferred')), /dataDurability preferred/);
  assert.match(await check(broken(cluster, 'number: 1', 'number: 2')), /number 2 with 3 instances: every standby must be up for a commit/);
  assert.match(
    await check(broken(cluster, /    synchronous:\n(      .*\n)*/, '').replace('instances: 3', 'instances: 3\n  minSyncReplicas: 1\n  maxSyncReplicas: 1')),
    /minSyncReplicas\/maxSyncReplicas \(deprecated\)/,
  );
  assert.match(await check(broken(cluster, 'max_connections: "200"', 'max_connections: "200"\n      synchronous_commit: "off"')), /synchronous_commit=off/);
  assert.match(await check(broken(cluster, /  storage:\n    size: .*\n/, '')), /no storage.size/);
  // what DATABASE_URL says against the Cluster: database, owner, rw Service, the owner's Secret
  const otherOwner = await check(broken(cluster, 'owner: rtm', 'owner: app'));
  assert.match(otherOwner, /DATABASE_URL's user rtm is not the Cluster's owner app/);
  assert.match(otherOwner, /no basic-auth Secret rtm-postgres-owner with username=app/);
  assert.match(await check(broken(cluster, 'database: rtm', 'database: app')), /DATABASE_URL's database rtm is not the Cluster's app/);
  assert.match(
    await check(cluster, broken(config, '@rtm-postgres-rw:5432/rtm', '@rtm-postgres-ro:5432/rtm')),
    /host rtm-postgres-ro:5432 is not rtm-postgres-rw:5432/,
  );
  assert.match(
    await check(cluster, broken(config, '@rtm-postgres-rw:5432/rtm', '@rtm-postgres-1:5432,rtm-postgres-2:5432/rtm')),
    /is not rtm-postgres-rw:5432/,
  );
  assert.match(await check(broken(cluster, 'name: rtm-postgres\n', 'name: postgres\n')), /host rtm-postgres-rw:5432 is not postgres-rw:5432/);
  assert.match(await check(cluster, broken(config, ' --type=kubernetes.io/basic-auth', '')), /no basic-auth Secret rtm-postgres-owner with username=rtm/);
  assert.match(await check(broken(cluster, /      secret:\n        name: .*\n/, '')), /names no Secret for the owner's password/);
  assert.match(await check(broken(cluster, 'namespace: rtm', 'namespace: db')), /in namespace db, the processes in rtm/);
  // the check alone, on a Cluster with nothing but its name
  assert.match(
    checkCnpgClusters([{ metadata: { name: 'x', namespace: 'rtm' }, spec: {} }], config, 'rtm').join('\n'),
    /undefined instance\(s\)[\s\S]*synchronous replication off[\s\S]*no storage.size/,
  );
});

test('deploy - haproxy.cfg: both gateways on both public ports, readiness checks, WebSocket tunnel timeout, refusals in the service envelope', () => {
  const text = read('deploy/haproxy/haproxy.cfg');
  assert.deepEqual(checkHaproxy(text, ['gateway-1', 'gateway-2']), []);
  assert.match(
    checkHaproxy(broken(text, '  server gateway-2 gateway-2:8081\n', ''), ['gateway-1', 'gateway-2']).join('\n'),
    /gateway-2 missing from the backend of port 8081/,
  );
  assert.match(
    checkHaproxy(broken(text, /option httpchk GET \/internal\/ready/, 'option httpchk GET /'), ['gateway-1', 'gateway-2']).join('\n'),
    /does not check \/internal\/ready/,
  );
  assert.match(checkHaproxy(broken(text, /timeout tunnel 60s/, ''), ['gateway-1', 'gateway-2']).join('\n'), /timeout tunnel/);
  assert.match(checkHaproxy(broken(text, /^\s*option forwardfor$/m, ''), ['gateway-1', 'gateway-2']).join('\n'), /no `option forwardfor`/);
  assert.match(checkHaproxy(broken(text, /errorfile 503 .*/, ''), ['gateway-1', 'gateway-2']).join('\n'), /no errorfile 503/);
});

test('deploy - Kubernetes manifests: valid against the Kubernetes schemas, probes on what the processes serve, drain-long grace, PDBs, HPA, migrate Job', async () => {
  const files = k8sFiles();
  assert.deepEqual(await checkKubernetes(files, servedPaths), []);
  const breakFile = (file: string, from: string | RegExp, to: string) => ({ ...files, [file]: broken(files[file]!, from, to) });
  // the schemas: a wrong type, a missing required field, an unknown kind
  assert.match(
    (await checkKubernetes(breakFile('gateway.yaml', 'containerPort: 8081', 'containerPort: "eighty"'), servedPaths)).join('\n'),
    /containerPort must be integer/,
  );
  assert.match(
    (await checkKubernetes(breakFile('channel-node.yaml', '        - name: channel-node\n          image:', '        - image:'), servedPaths)).join('\n'),
    /must have required property '?name/,
  );
  assert.match(
    (await checkKubernetes(breakFile('gateway.yaml', 'apiVersion: autoscaling/v2', 'apiVersion: autoscaling/v9'), servedPaths)).join('\n'),
    /not a kind/,
  );
  // probes: a path the processes do not serve, liveness on readiness
  assert.match(
    (
      await checkKubernetes(
        breakFile(
          'dispatcher.yaml',
          /path: \/internal\/health\n              port: internal\n            periodSeconds: 10/,
          'path: /internal/live\n              port: internal\n            periodSeconds: 10',
        ),
        servedPaths,
      )
    ).join('\n'),
    /\/internal\/live answers 404/,
  );
  assert.match(
    (
      await checkKubernetes(
        breakFile(
          'gateway.yaml',
          /path: \/internal\/health\n              port: internal\n            periodSeconds: 10/,
          'path: /internal/ready\n              port: internal\n            periodSeconds: 10',
        ),
        servedPaths,
      )
    ).join('\n'),
    /liveness on \/internal\/ready/,
  );
  // grace shorter than the drain, a missing PDB, no HPA, root, a package manager, an unknown variable
  assert.match(
    (await checkKubernetes(breakFile('gateway.yaml', 'terminationGracePeriodSeconds: 25', 'terminationGracePeriodSeconds: 15'), servedPaths)).join('\n'),
    /terminationGracePeriodSeconds 15 does not match/,
  );
  assert.match(
    (await checkKubernetes(breakFile('channel-node.yaml', 'terminationGracePeriodSeconds: 20', 'terminationGracePeriodSeconds: 60'), servedPaths)).join('\n'),
    /terminationGracePeriodSeconds 60 does not match/,
  );
  assert.match(
    (await checkKubernetes(breakFile('dispatcher.yaml', /---\napiVersion: policy\/v1\n(.*\n)*?(?=---)/, ''), servedPaths)).join('\n'),
    /dispatcher: no PodDisruptionBudget/,
  );
  assert.match(
    (await checkKubernetes(breakFile('gateway.yaml', /---\napiVersion: autoscaling\/v2\n(.*\n)*/, ''), servedPaths)).join('\n'),
    /no HorizontalPodAutoscaler/,
  );
  assert.match((await checkKubernetes(breakFile('gateway.yaml', 'runAsNonRoot: true', 'runAsNonRoot: false'), servedPaths)).join('\n'), /may run as root/);
  assert.match(
    (await checkKubernetes(breakFile('dispatcher.yaml', '"node", "build/apps/dispatcher/src/main.js"', '"npm", "run", "dispatcher"'), servedPaths)).join('\n'),
    /package manager/,
  );
  assert.match(
    (await checkKubernetes(breakFile('config.yaml', 'LOG_LEVEL: info', 'LOGLEVEL: info'), servedPaths)).join('\n'),
    /LOGLEVEL is not a configuration variable/,
  );
  assert.match(
    (await checkKubernetes(breakFile('migrate-job.yaml', 'build/scripts/migrate.js', 'build/apps/gateway/src/main.js'), servedPaths)).join('\n'),
    /does not run build\/scripts\/migrate.js/,
  );
});

test('deploy - NATS chart values: a 3-node cluster with JetStream', () => {
  const text = read('deploy/k8s/nats-values.yaml');
  assert.deepEqual(checkNatsValues(text), []);
  assert.match(checkNatsValues(broken(text, 'replicas: 3', 'replicas: 1')).join('\n'), /3-node/);
  assert.match(checkNatsValues(broken(text, /jetstream:\n    enabled: true/, 'jetstream:\n    enabled: false')).join('\n'), /JetStream off/);
});

test('deploy - Procfile, systemd units and example.env start node directly and set only known variables', () => {
  const procfile = read('deploy/Procfile');
  assert.deepEqual(checkProcfile(procfile), []);
  assert.match(checkProcfile(broken(procfile, /^release: .*$/m, 'release: npm run migrate')).join('\n'), /package manager/);
  assert.match(checkProcfile(broken(procfile, 'INTERNAL_PORT=9091', 'INTERNAL_PORTS=9091')).join('\n'), /INTERNAL_PORTS is not a configuration variable/);
  assert.match(
    checkProcfile(broken(procfile, ' --max-semi-space-size=64', '')).join('\n'),
    /the channel-node runs with node options '--max-semi-space-size=64'/,
  );
  for (const file of readdirSync(new URL('../deploy/systemd/', import.meta.url))) {
    const text = read(`deploy/systemd/${file}`);
    assert.deepEqual(checkSystemdUnit(file, text), [], file);
    assert.match(checkSystemdUnit(file, broken(text, /^ExecStart=.*$/m, 'ExecStart=/usr/bin/npm start')).join('\n'), /package manager/);
    assert.match(checkSystemdUnit(file, broken(text, 'TimeoutStopSec=30', 'TimeoutStopSec=10')).join('\n'), /TimeoutStopSec/);
    assert.match(checkSystemdUnit(file, broken(text, /^Environment=NODE_NAME=/m, 'Environment=NODE_NAMES=')).join('\n'), /NODE_NAMES/);
  }
  const env = read('deploy/example.env');
  assert.deepEqual(checkEnvFile('example.env', env), []);
  assert.match(checkEnvFile('example.env', broken(env, 'WEBHOOK_TIMEOUT_MS=', 'WEBHOOK_TIMEOUT=')).join('\n'), /WEBHOOK_TIMEOUT is not/);
});

test('deploy - Prometheus config and alert rules read metrics the processes export; the dashboard too', async () => {
  // the catalogue's metrics (the running processes are compared with it in ops.metrics, the docs table in the unit tests)
  const known = new Set([...METRIC_ROWS.map((row) => row.name), ...(await defaultMetrics())]);

  const config = read('deploy/observability/prometheus.yaml');
  assert.deepEqual(checkPrometheusConfig(config), []);
  assert.match(checkPrometheusConfig(broken(config, 'rule_files:\n  - alerts.yaml', 'rule_files:\n  - rules.yaml')).join('\n'), /rules.yaml missing/);
  assert.match(checkPrometheusConfig(broken(config, /metrics_path: \/internal\/metrics/, 'metrics_path: /metrics')).join('\n'), /metrics_path/);

  const alerts = read('deploy/observability/alerts.yaml');
  assert.deepEqual(checkAlertRules(alerts, known), []);
  assert.match(
    checkAlertRules(broken(alerts, 'max(webhook_backlog_oldest_seconds)', 'max(webhook_backlog_age_seconds)'), known).join('\n'),
    /webhook_backlog_age_seconds is exported by no process/,
  );
  assert.match(
    checkAlertRules(broken(alerts, /      - alert: WebhookDeliveriesDropped\n(        .*\n|          .*\n)*/, ''), known).join('\n'),
    /no alert on dropped deliveries/,
  );
  assert.throws(() => checkAlertRules(broken(alerts, 'groups:', 'groups: ['), known));

  const dashboard = read('deploy/observability/grafana-dashboard.json');
  assert.deepEqual(checkGrafanaDashboard(dashboard, known), []);
  assert.match(
    checkGrafanaDashboard(broken(dashboard, 'gateway_open_sockets', 'gateway_sockets_open'), known).join('\n'),
    /gateway_sockets_open is exported by no process/,
  );
  assert.match(checkGrafanaDashboard(broken(dashboard, /\}\s*$/, ''), known).join('\n'), /JSON/);
});

test('deploy - every layout behind a balancer caps connections per forwarded client, which one user cannot fill for the others', async () => {
  const files = deployFiles();
  const layouts = gatewayLayouts(files);
  // compose's two gateways, Kubernetes', the Procfile's and the systemd unit's
  assert.equal(Object.keys(layouts).length, 5, Object.keys(layouts).join('; '));
  for (const [layout, env] of Object.entries(layouts)) assert.deepEqual(await checkClientConnectionCap(layout, env), [], layout);
  // broken copies: the balancer counted as the client, no TRUST_PROXY at all, no cap
  const composeGateway = (compose: string) => Object.entries(gatewayLayouts({ ...files, compose })).find(([name]) => name.startsWith('compose.yaml'))!;
  const [perPeer, perPeerEnv] = composeGateway(broken(files.compose, 'TRUST_PROXY: "1"', 'TRUST_PROXY: "false"'));
  assert.match((await checkClientConnectionCap(perPeer, perPeerEnv)).join('\n'), /counts the balancer \(TRUST_PROXY=false\), which one user fills/);
  const [unset, unsetEnv] = composeGateway(broken(files.compose, /\n *TRUST_PROXY: "1"/, ''));
  assert.match((await checkClientConnectionCap(unset, unsetEnv)).join('\n'), /counts the balancer \(TRUST_PROXY=unset\)/);
  const [uncapped, uncappedEnv] = composeGateway(broken(files.compose, 'TRUST_PROXY: "1"', 'TRUST_PROXY: "1"\n    MAX_CONNECTIONS_PER_IP: "0"'));
  assert.match((await checkClientConnectionCap(uncapped, uncappedEnv)).join('\n'), /no per-client cap/);
  const k8s = gatewayLayouts({ ...files, k8sGateway: broken(files.k8sGateway, /\n *- name: TRUST_PROXY\n *value: "1"/, '') });
  const [k8sName, k8sEnv] = Object.entries(k8s).find(([name]) => name.startsWith('k8s/'))!;
  assert.match((await checkClientConnectionCap(k8sName, k8sEnv)).join('\n'), /counts the balancer/);
  const plain = gatewayLayouts({ ...files, exampleEnv: broken(files.exampleEnv, /^TRUST_PROXY=.*$/m, '') });
  assert.match((await checkClientConnectionCap('Procfile', plain['Procfile gateway (with example.env)']!)).join('\n'), /counts the balancer/);
});
