/**
 * The large-channel benchmark's neighbour (lib/large-channel-peers.ts starts it):
 * `neighbour-process.ts <control URL> <secret key> <rate> <channel>` sends single server publishes
 * to the channel at `rate` a second (open loop) and times each, request sent → 201, per phase.
 * Driven over IPC: `phase` starts a phase, `take` answers the figures of the phase so far and
 * starts the next, `stop` waits for the publishes in flight and exits.
 */
import { performance } from 'node:perf_hooks';
import { Pool as HttpPool } from 'undici';
import { largeHistogram } from './large-channel-options.ts';

const [controlUrl, secretKey, rateArg, channelId] = process.argv.slice(2);
if (!controlUrl || !secretKey || !rateArg || !channelId || !process.send) {
  process.stderr.write('usage (forked, with IPC): neighbour-process.ts <control URL> <secret key> <rate> <channel>\n');
  process.exit(64);
}
const send = process.send.bind(process);
const http = new HttpPool(controlUrl, { connections: 8 });
const body = JSON.stringify({ content: { text: 'neighbour message' } });
const inflight = new Set<Promise<void>>();
const newPhase = () => ({ h: largeHistogram(), ok: 0, failed: new Map<string, number>() });
let current: ReturnType<typeof newPhase> | undefined;

const publish = () => {
  const phase = current;
  const t0 = performance.now();
  const failed = (key: string) => phase?.failed.set(key, (phase.failed.get(key) ?? 0) + 1);
  const p = http
    .request({
      method: 'POST',
      path: `/v1/channels/${channelId}/messages`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
      body,
    })
    .then(async (res) => {
      await res.body.text();
      if (!phase) return;
      if (res.statusCode !== 201) return void failed(`HTTP ${res.statusCode}`);
      phase.ok++;
      phase.h.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
    })
    .catch((error: Error & { code?: string }) => void failed(error.code ?? error.message))
    .finally(() => inflight.delete(p));
  inflight.add(p);
};
const timer = setInterval(publish, 1000 / Number(rateArg));

process.on('message', async (op: string) => {
  if (op === 'phase') {
    current = newPhase();
    send(null);
  } else if (op === 'take') {
    const phase = current ?? newPhase();
    current = newPhase();
    send({ ok: phase.ok, failed: [...phase.failed], p50: phase.h.getValueAtPercentile(50) / 1000, p99: phase.h.getValueAtPercentile(99) / 1000 });
  } else if (op === 'stop') {
    clearInterval(timer);
    await Promise.all(inflight);
    await http.close();
    send(null, () => process.exit(0));
  }
});
