/**
 * What the benchmarks share to start and stop the service's processes: a gateway and a
 * channel-node side by side, the V8 CPU profile option (BENCH_CPU_PROF_DIR: each process writes a
 * profile there as it stops; test/bench/profile-top.ts reads it), stopping rather than killing
 * when profiling (the profile is written on exit). Dropping the JetStream streams a run leaves
 * under its NATS prefix is the test helpers' `dropNatsPrefix` (test/helpers/cluster.ts).
 */
import { fileURLToPath } from 'node:url';
import { startProcess, waitReady, type RunningProcess } from '../../helpers/cluster.ts';

const PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR;
const CPU_PROFILE_HOOK = fileURLToPath(new URL('../cpu-profile-hook.mjs', import.meta.url));

/** `--import` of the profile hook, or nothing when BENCH_CPU_PROF_DIR is unset. */
export const profileImport = (): string | undefined => (PROFILE_DIR ? `--import ${CPU_PROFILE_HOOK}` : undefined);

/** The environment that makes a process write its CPU profile to BENCH_CPU_PROF_DIR (empty when unset). */
export function profilingEnv(): Record<string, string> {
  return PROFILE_DIR ? { NODE_OPTIONS: profileImport()!, RTM_CPU_PROFILE_DIR: PROFILE_DIR } : {};
}

/** Stops every process; stopped, not killed, when profiling: the profiles are written as they exit. */
export function stopAll(processes: readonly RunningProcess[]): Promise<unknown> {
  return Promise.all(processes.map((p) => (PROFILE_DIR ? p.stop() : p.kill())));
}

/**
 * A gateway and a channel-node started side by side, added to `processes` (for the caller's
 * clean-up) before they are waited for, and ready when this resolves. `started` sees them before
 * they are ready (to watch their output from the first line).
 */
export async function startGatewayAndNode(
  processes: RunningProcess[],
  gatewayEnv: Record<string, string>,
  nodeEnv: Record<string, string>,
  started?: (gateway: RunningProcess, node: RunningProcess) => void,
): Promise<[RunningProcess, RunningProcess]> {
  const [gateway, node] = await Promise.all([startProcess('gateway', gatewayEnv), startProcess('channel-node', nodeEnv)]);
  processes.push(gateway, node);
  started?.(gateway, node);
  await Promise.all([waitReady(gateway), waitReady(node)]);
  return [gateway, node];
}
