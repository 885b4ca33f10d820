/**
 * `npx tsx test/bench/profile-top.ts <file.cpuprofile> [count]`: the functions with the most
 * self time in a V8 CPU profile (as written by `node --cpu-prof`, or by the benchmarks'
 * profiling options), with their share of the samples and of the busy (non-idle) samples.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-top.ts <file.cpuprofile> [count]\n');
  process.exit(64);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<string, number>();
for (const id of profile.samples) {
  const frame = byId.get(id)!.callFrame;
  const where = frame.url ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|libs)\//, '$1/')}:${frame.lineNumber + 1}` : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + 1);
}
const total = profile.samples.length;
const idle = self.get('(idle)') ?? 0;
const busy = total - idle;
process.stdout.write(`${file}: ${total} samples, ${((busy / total) * 100).toFixed(1)} % busy\n`);
for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(countArg ?? 25))) {
  if (key === '(idle)') continue;
  process.stdout.write(`${((hits / busy) * 100).toFixed(1).padStart(5)} %  ${key}\n`);
}
