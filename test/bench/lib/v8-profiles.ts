/**
 * Readings of V8's profilers through a process's inspector, for the connect benchmark's
 * diagnostics (BENCH_CPU_PROFILE, BENCH_HEAP_SAMPLING): a CPU profile's top frames and files by
 * self time, and the allocation sites holding the most of a sampled heap.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Inspector } from '../gateway-memory.ts';
import { fmt } from './figures.ts';

/** A CPU profile taken between `start` and `stop`; `stop` writes it to the temp directory and gives its summary. */
export interface Profiler {
  start(): Promise<void>;
  stop(label: string): Promise<string>;
}

/** What is still allocated from `start` to `retained` (after a GC), as a summary. */
export interface HeapSampler {
  start(): Promise<void>;
  retained(): Promise<string>;
}

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface SamplingNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: SamplingNode[];
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(fileURLToPath(new URL('../../../', import.meta.url)), '')
    .replace(/^.*node_modules\//, '');

/** The allocation sites (function and its caller) holding the most of a sampled heap profile. */
export function summariseHeap(head: SamplingNode): string {
  const sites = new Map<string, number>();
  let total = 0;
  const frame = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'}${f.url ? ` ${shortUrl(f.url)}:${f.lineNumber + 1}` : ''}`;
  const walk = (node: SamplingNode, parent: SamplingNode | undefined) => {
    if (node.selfSize > 0) {
      const key = `${frame(node.callFrame)}${parent ? ` ← ${frame(parent.callFrame)}` : ''}`;
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, node);
  };
  walk(head, undefined);
  const top = [...sites.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([key, bytes]) => `    ${fmt(bytes).padStart(12)} B  ${key}`)
    .join('\n');
  return `  ${fmt(total)} B sampled in all\n${top}\n`;
}

/** The top frames of a CPU profile by self time, and the top files. */
export function summarise(profile: { nodes: ProfileNode[]; samples: number[] }, file: string): string {
  const short = shortUrl;
  const total = profile.samples.length || 1;
  const frames = new Map<string, number>();
  const files = new Map<string, number>();
  for (const node of profile.nodes) {
    if (!node.hitCount) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${short(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    frames.set(key, (frames.get(key) ?? 0) + node.hitCount);
    const fileKey = url ? short(url) : functionName.startsWith('(') ? functionName : '(native)';
    files.set(fileKey, (files.get(fileKey) ?? 0) + node.hitCount);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, hits]) => `    ${((hits / total) * 100).toFixed(1).padStart(5)} %  ${key}`)
      .join('\n');
  return `  cpu profile ${file} (${total} samples)\n  top frames by self time:\n${top(frames, 20)}\n  by file:\n${top(files, 12)}\n`;
}

/** CPU profiles of one process through its inspector, when BENCH_CPU_PROFILE=1. */
export function profiler(inspector: Inspector | undefined, who: string, enabled: boolean): Profiler | undefined {
  if (!enabled || !inspector) return undefined;
  return {
    start: async () => {
      await inspector.send('Profiler.enable');
      await inspector.send('Profiler.start');
    },
    stop: async (label) => {
      const { profile } = await inspector.send<{ profile: { nodes: ProfileNode[]; samples: number[] } }>('Profiler.stop');
      await inspector.send('Profiler.disable');
      const file = join(tmpdir(), `connect-${who}-${label.replace(/\W+/g, '')}-${process.pid}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return summarise(profile, file);
    },
  };
}

/** The sampling heap profiler of one process through its inspector. */
export function heapSampler(inspector: Inspector): HeapSampler {
  return {
    start: async () => {
      await inspector.send('HeapProfiler.enable');
      await inspector.send('HeapProfiler.startSampling', { samplingInterval: 4096 });
    },
    retained: async () => {
      const { profile } = await inspector.send<{ profile: { head: SamplingNode } }>('HeapProfiler.getSamplingProfile');
      await inspector.send('HeapProfiler.stopSampling');
      await inspector.send('HeapProfiler.disable');
      return summariseHeap(profile.head);
    },
  };
}
