/**
 * The reactions benchmark's windows (test/bench/reactions.bench.ts) and how they are added up and
 * written: each window's line, and the run's figures over every alone window and every storm
 * window together (`combine`, pure).
 */
import type { Pauses } from '../process-pauses.ts';
import { describePauses } from '../process-pauses.ts';
import { fmt } from './figures.ts';
import type { PhaseFigures } from './reaction-load.ts';
import { merged, type FrameCounts } from './reaction-peers.ts';

export interface Window {
  name: string;
  publish: PhaseFigures;
  /** The storm's figures; none in an alone window. */
  storm?: PhaseFigures;
  frames: FrameCounts;
  /** CPU seconds per process group. */
  cpu: Record<string, number>;
  /** CPU seconds of the whole machine. */
  machineBusy: number;
  seconds: number;
  /** Commands the channel-node's actors handled (every outcome), a reaction sent again by the gateway counted again. */
  ownerCommands: number;
  /** The gateway's, then the channel-node's. */
  pauses: Pauses[];
}

/** The run's figures: the alone windows together against the storm windows together. */
export interface Combined {
  alone: { p50: number; p99: number; publishes: number; seconds: number };
  storm: {
    p50: number;
    p99: number;
    publishes: number;
    seconds: number;
    reactions: number;
    reactionsSent: number;
    reactionP50: number;
    reactionP99: number;
    summaries: number;
  };
  /** CPU µs per publish of each group, over the alone windows. */
  perPublish: [string, number][];
  /**
   * CPU µs per reaction of each group: what the storm windows spent beyond the alone windows'
   * rate, per reaction answered. Signed: a process may spend less during a storm (its publishes
   * then share commits).
   */
  perReaction: [string, number][];
}

const ms = (micros: number) => micros / 1000;

/** Adds the alone windows together and the storm windows together. Pure. */
export function combine(windows: readonly Window[]): Combined {
  const alone = windows.filter((w) => !w.storm);
  const storms = windows.filter((w) => w.storm);
  const sum = (list: readonly Window[], pick: (w: Window) => number) => list.reduce((total, w) => total + pick(w), 0);
  const cpuOf = (list: readonly Window[]) => {
    const out: Record<string, number> = {};
    for (const w of list) for (const [group, s] of Object.entries(w.cpu)) out[group] = (out[group] ?? 0) + s;
    return out;
  };
  const base = merged(...alone.map((w) => w.publish));
  const during = merged(...storms.map((w) => w.publish));
  const acks = merged(...storms.map((w) => w.storm!));
  const aloneSeconds = sum(alone, (w) => w.seconds);
  const stormSeconds = sum(storms, (w) => w.seconds);
  const alonePublishes = sum(alone, (w) => w.publish.ok);
  const reactions = sum(storms, (w) => w.storm!.ok);
  const aloneCpu = cpuOf(alone);
  const stormCpu = cpuOf(storms);
  return {
    alone: { p50: ms(base.getValueAtPercentile(50)), p99: ms(base.getValueAtPercentile(99)), publishes: alonePublishes, seconds: aloneSeconds },
    storm: {
      p50: ms(during.getValueAtPercentile(50)),
      p99: ms(during.getValueAtPercentile(99)),
      publishes: sum(storms, (w) => w.publish.ok),
      seconds: stormSeconds,
      reactions,
      reactionsSent: sum(storms, (w) => w.storm!.sent),
      reactionP50: ms(acks.getValueAtPercentile(50)),
      reactionP99: ms(acks.getValueAtPercentile(99)),
      summaries: sum(storms, (w) => w.frames.summaries),
    },
    perPublish: Object.entries(aloneCpu).map(([group, s]) => [group, (s * 1e6) / alonePublishes]),
    perReaction: Object.entries(stormCpu).map(([group, s]) => [group, ((s - ((aloneCpu[group] ?? 0) / aloneSeconds) * stormSeconds) * 1e6) / reactions]),
  };
}

const failures = (f: PhaseFigures) =>
  f.failed.length ? f.failed.map(([k, n]) => `${k} ×${n}`).join(', ') + (f.samples.length ? ` (${f.samples.join(' | ')})` : '') : 'none';
const perSecond = (n: number, elapsedMs: number) => ((n * 1000) / elapsedMs).toFixed(1);
const msText = (micros: number) => ms(micros).toFixed(1);

/** Each group's CPU over the window as a share of one core. */
function share(cpu: Record<string, number>, seconds: number): string {
  const parts = Object.entries(cpu).map(([group, s]) => `${group} ${((s / seconds) * 100).toFixed(1)}`);
  return `${parts.join(', ')}; total ${((Object.values(cpu).reduce((a, b) => a + b, 0) / seconds) * 100).toFixed(1)}`;
}

/** One window's lines. */
export function describe(w: Window): string {
  const p = w.publish;
  const h = merged(p);
  let text =
    `\n${w.name}: publishes ${fmt(p.ok)} at ${perSecond(p.ok, p.elapsedMs)}/s, p50 ${msText(h.getValueAtPercentile(50))} ms, p99 ${msText(h.getValueAtPercentile(99))} ms, ` +
    `max ${msText(h.maxValue)} ms, failed ${failures(p)}; publisher late p99 ${msText(p.latenessP99)} ms, loop delay p99 ${p.loopDelayP99Ms.toFixed(1)} ms, ` +
    `in flight at most ${p.mostInFlight} on ${p.connections} connections\n` +
    `  subscriber: ${fmt(w.frames.messages)} messages, ${w.frames.summaries} summaries (${(w.frames.summaries / w.seconds).toFixed(1)}/s)${w.frames.other ? `, ${w.frames.other} other` : ''}; ` +
    `machine busy ${((w.machineBusy / w.seconds / 2) * 100).toFixed(0)} % of 2 cores; the owner handled ${fmt(w.ownerCommands)} commands ` +
    `(${fmt(w.ownerCommands - w.publish.sent - (w.storm?.sent ?? 0))} beyond the window's publishes${w.storm ? ' and reactions' : ''}: repeats, and the edges of the window)\n`;
  if (w.storm) {
    const s = w.storm;
    const r = merged(s);
    text +=
      `  reactions: sent ${fmt(s.sent)} (${perSecond(s.sent, s.elapsedMs)}/s), answered 200 ${fmt(s.ok)} (${perSecond(s.ok, s.elapsedMs)}/s), failed ${failures(s)}; ` +
      `ack p50 ${msText(r.getValueAtPercentile(50))} ms, p99 ${msText(r.getValueAtPercentile(99))} ms, max ${msText(r.maxValue)} ms\n` +
      `  storm generator: sent late by p99 ${msText(s.latenessP99)} ms, max ${msText(s.latenessMax)} ms; loop delay p99 ${s.loopDelayP99Ms.toFixed(1)} ms; ` +
      `in flight at most ${s.mostInFlight} on ${s.connections} connections\n`;
  }
  return `${text}  CPU, % of a core: ${share(w.cpu, w.seconds)}\n  gateway: ${describePauses(w.pauses[0]!)}\n  channel-node: ${describePauses(w.pauses[1]!)}\n`;
}

/** The run's summary lines. */
export function describeCombined(c: Combined, asked: number, lastSummaryTotal: number): string {
  const list = (items: [string, number][]) => {
    const shown = items.filter(([, micros]) => Math.abs(micros) >= 0.05);
    return `${shown.map(([group, micros]) => `${group} ${micros.toFixed(1)}`).join(', ')}; total ${items.reduce((a, [, m]) => a + m, 0).toFixed(1)}`;
  };
  const s = c.storm;
  return (
    `\nalone windows together (${c.alone.seconds.toFixed(0)} s), CPU µs per publish: ${list(c.perPublish)}\n` +
    `storm windows together (${s.seconds.toFixed(0)} s), beyond the alone windows' rate, CPU µs per reaction: ${list(c.perReaction)}\n` +
    `reactions sent ${(s.reactionsSent / s.seconds).toFixed(1)}/s, answered ${(s.reactions / s.seconds).toFixed(1)}/s of ${asked}/s asked, ack p50 ${s.reactionP50.toFixed(1)} ms, ` +
    `p99 ${s.reactionP99.toFixed(1)} ms; summaries ${(s.summaries / s.seconds).toFixed(1)}/s; the last summary counts ${fmt(lastSummaryTotal)} reactions\n` +
    `publish p50 ${s.p50.toFixed(1)} ms during the storm, ${c.alone.p50.toFixed(1)} ms alone (×${(s.p50 / c.alone.p50).toFixed(2)}); ` +
    `p99 ${s.p99.toFixed(1)} ms, ${c.alone.p99.toFixed(1)} ms alone (×${(s.p99 / c.alone.p99).toFixed(2)})\n`
  );
}
