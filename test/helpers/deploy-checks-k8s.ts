/**
 * Checks of the Kubernetes manifests under deploy/k8s/ (re-exported by deploy-checks.ts): every
 * document against the validators kubernetes-models generates from the Kubernetes OpenAPI
 * schemas, then the rules the processes need (commands, variables, probes, drain, budgets).
 */
import YAML from 'yaml';
import { DRAIN_TIMEOUT_MS } from '@rtm/ops';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { KINDS, checkCommand, unknownVariables } from './deploy-command.ts';
import { checkCnpgClusters } from './deploy-checks-postgres.ts';

const MODELS: Record<string, { validate(): void }> & Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Namespace': Namespace,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
} as any;

/** Kinds of operators the manifests need, which kubernetes-models has no schema for: checked by hand. */
const CNPG_CLUSTER = 'postgresql.cnpg.io/v1 Cluster';

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
    if (`${doc.apiVersion} ${doc.kind}` === CNPG_CLUSTER) continue;
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
    problems.push(
      ...unknownVariables(
        where,
        kind,
        (container.env ?? []).map((e: { name: string }) => e.name),
      ),
    );
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
    if (container.livenessProbe?.httpGet?.path === '/internal/ready')
      problems.push(`${where}: liveness on /internal/ready would restart every pod while Postgres or NATS is down`);
    const preStop = container.lifecycle?.preStop?.exec?.command as string[] | undefined;
    const pause = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
    const needed = DRAIN_TIMEOUT_MS / 1000 + pause;
    const grace = spec.terminationGracePeriodSeconds ?? 30;
    if (grace <= needed || grace > needed + 15)
      problems.push(
        `${where}: terminationGracePeriodSeconds ${grace} does not match the drain (${DRAIN_TIMEOUT_MS / 1000} s) plus the pre-stop pause (${pause} s)`,
      );
    if (!of('PodDisruptionBudget').some((p) => selects(p.spec.selector.matchLabels))) problems.push(`${where}: no PodDisruptionBudget`);
    if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${where}: may run as root`);
    if (kind === 'gateway') {
      if (!of('HorizontalPodAutoscaler').some((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === 'gateway'))
        problems.push('k8s: no HorizontalPodAutoscaler for the gateways');
      const service = of('Service').find((s) => selects(s.spec.selector ?? {}));
      if (!service?.spec.ports.some((p: { targetPort: string | number }) => port(p.targetPort) === 8081))
        problems.push("k8s: no Service in front of the gateways' realtime port");
    }
  }
  for (const service of of('Service')) {
    if (!deployments.some((d) => Object.entries(service.spec.selector ?? {}).every(([k, v]) => d.spec.template.metadata.labels[k] === v)))
      problems.push(`k8s Service ${service.metadata.name}: selects no Deployment`);
  }
  // Postgres: the Cluster the processes' DATABASE_URL (config.yaml's instructions) names
  problems.push(
    ...checkCnpgClusters(
      docs.filter((d) => `${d.doc.apiVersion} ${d.doc.kind}` === CNPG_CLUSTER).map((d) => d.doc),
      files['config.yaml'] ?? '',
      deployments[0]?.metadata.namespace,
    ),
  );
  const job = of('Job').find((j) => j.metadata.name.includes('migrate'));
  if (!job) problems.push('k8s: no migrate Job');
  else {
    const container = job.spec.template.spec.containers[0];
    const { kind } = checkCommand('k8s Job migrate', [...(container.command ?? []), ...(container.args ?? [])]);
    if (kind !== 'migrate') problems.push('k8s Job migrate: does not run build/scripts/migrate.js');
  }
  // the probes ask what the processes serve
  const answers = await servedPaths([...probePaths]);
  for (const [path, status] of Object.entries(answers))
    if (status !== 200) problems.push(`k8s: probe path ${path} answers ${status} on a process's internal server`);
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
