/**
 * Where the chat example finds the service: its environment first, then what `npm start` recorded
 * in its state file (.data/dev-environment.json, or the file RTM_STATE_FILE names, as
 * `npm start -- --state-file PATH` does), then the service's default ports.
 *
 * `npm start` keeps the dev environment's keys in that file, and, while it runs, a `running`
 * record of where its gateway listens (written by scripts/dev-environment.ts, `recordRunning`):
 *
 *   "running": { "pid": 4242, "controlUrl": "http://127.0.0.1:9080", "realtimeUrl": "http://127.0.0.1:9081" }
 *
 * The record counts only while the process `pid` (the `npm start` supervisor) is alive: a record
 * left by a start that has ended names ports nothing may listen on any more.
 */

/** What the example's server needs to know. */
export interface ChatSettings {
  controlUrl: string;
  realtimeUrl: string;
  secretKey: string;
  tokenTtlSeconds: number;
  port: number;
  /** Where the URLs came from, for the start-up line. */
  source: 'environment' | 'npm start' | 'defaults';
}

/** The `running` record of a state file, as far as it is well formed. */
export interface RunningRecord {
  pid: number;
  controlUrl: string;
  realtimeUrl: string;
}

export const DEFAULT_CONTROL_PORT = 8080;
export const DEFAULT_REALTIME_PORT = 8081;
export const DEFAULT_CHAT_PORT = 3000;

/** A configuration the example cannot run with; its message names the variable or file. */
export class SettingsError extends Error {}

export interface SettingsInput {
  /** process.env */
  env: Record<string, string | undefined>;
  /** The parsed state file, or undefined when there is none (or it is not JSON). */
  state: unknown;
  /** The state file's path, for messages. */
  stateFile: string;
  /** Whether the process `pid` is running. */
  alive: (pid: number) => boolean;
}

/**
 * The settings of the chat example. Pure: no file, network or process is touched.
 *
 * For each URL: RTM_CONTROL_URL / RTM_REALTIME_URL, else CONTROL_PORT / REALTIME_PORT (on
 * 127.0.0.1), else the running `npm start`'s record, else ports 8080 / 8081. The secret key:
 * RTM_SECRET_KEY, else the state file's.
 */
export function resolveChatSettings({ env, state, stateFile, alive }: SettingsInput): ChatSettings {
  const running = runningRecord(state);
  const recorded = running && alive(running.pid) ? running : undefined;
  const control = url(env, 'RTM_CONTROL_URL', 'CONTROL_PORT', recorded?.controlUrl, DEFAULT_CONTROL_PORT);
  const realtime = url(env, 'RTM_REALTIME_URL', 'REALTIME_PORT', recorded?.realtimeUrl, DEFAULT_REALTIME_PORT);
  const sources = [control.source, realtime.source];
  return {
    controlUrl: control.value,
    realtimeUrl: realtime.value,
    secretKey: secretKey(env, state, stateFile),
    tokenTtlSeconds: integer(env, 'CHAT_TOKEN_TTL', 600, 60, 86_400),
    port: integer(env, 'CHAT_PORT', DEFAULT_CHAT_PORT, 0, 65_535),
    source: sources.includes('environment') ? 'environment' : sources.includes('npm start') ? 'npm start' : 'defaults',
  };
}

/** The `running` record of a parsed state file, or undefined when it is missing or malformed. */
export function runningRecord(state: unknown): RunningRecord | undefined {
  const running = (state as { running?: Partial<RunningRecord> } | null | undefined)?.running;
  if (!running || typeof running !== 'object') return undefined;
  const { pid, controlUrl, realtimeUrl } = running;
  if (!Number.isInteger(pid) || typeof controlUrl !== 'string' || typeof realtimeUrl !== 'string') return undefined;
  if (!isHttpUrl(controlUrl) || !isHttpUrl(realtimeUrl)) return undefined;
  return { pid: pid!, controlUrl, realtimeUrl };
}

function url(
  env: Record<string, string | undefined>,
  urlName: string,
  portName: string,
  recorded: string | undefined,
  defaultPort: number,
): { value: string; source: ChatSettings['source'] } {
  const explicit = env[urlName];
  if (explicit) {
    const value = explicit.replace(/\/+$/, '');
    if (!isHttpUrl(value)) throw new SettingsError(`${urlName} must be an http(s) URL, not ${JSON.stringify(explicit)}`);
    return { value, source: 'environment' };
  }
  if (env[portName]) return { value: `http://127.0.0.1:${integer(env, portName, defaultPort, 1, 65_535)}`, source: 'environment' };
  if (recorded) return { value: recorded.replace(/\/+$/, ''), source: 'npm start' };
  return { value: `http://127.0.0.1:${defaultPort}`, source: 'defaults' };
}

function secretKey(env: Record<string, string | undefined>, state: unknown, stateFile: string): string {
  if (env.RTM_SECRET_KEY) return env.RTM_SECRET_KEY;
  const saved = (state as { secretKey?: unknown } | null | undefined)?.secretKey;
  if (typeof saved === 'string' && saved) return saved;
  throw new SettingsError(`no secret key: run \`npm start\` first (it keeps one in ${stateFile}) or set RTM_SECRET_KEY=sk_…`);
}

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new SettingsError(`${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  return value;
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
