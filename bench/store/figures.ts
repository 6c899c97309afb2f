/** Turning measurements into the bench's Figures: one naming scheme for both systems. */
import type { Figure } from '../lib.ts';
import { percentile } from '../lib.ts';
import type { KvOpsMeasurement } from './ops.ts';
import type { WatchDelivery } from './watch.ts';

export type SystemName = 'reference' | 'etcd';

/** Throughput must be at least this many times real etcd's (the goal). */
export const THROUGHPUT_RATIO_GOAL = 10;

export function callersLabel(concurrency: number): string {
  return concurrency === 1 ? 'sequential' : `${concurrency}-way concurrent`;
}

export function kvFigures(system: SystemName, m: KvOpsMeasurement): Figure[] {
  const callers = callersLabel(m.concurrency);
  const figures: Figure[] = [];
  for (const op of ['put', 'get'] as const) {
    const s = m[op];
    figures.push(
      { name: `${op} (${callers})`, value: s.ops_per_s, unit: 'ops/s', system },
      { name: `${op} p50 (${callers})`, value: s.p50_ms, unit: 'ms', system },
      { name: `${op} p99 (${callers})`, value: s.p99_ms, unit: 'ms', system },
    );
    if (s.virtual) {
      figures.push(
        { name: `${op} p50 in simulated time (${callers})`, value: s.virtual.p50_ms, unit: 'virtual ms', system },
        { name: `${op} p99 in simulated time (${callers})`, value: s.virtual.p99_ms, unit: 'virtual ms', system },
      );
    }
  }
  return figures;
}

export function watchFigures(system: SystemName, w: WatchDelivery): Figure[] {
  return [
    { name: 'watch delivery (sequential puts)', value: w.events_per_s, unit: 'events/s', system },
    { name: 'watch delivery p50 (put call → event received)', value: w.p50_ms, unit: 'ms', system },
    { name: 'watch delivery p99 (put call → event received)', value: w.p99_ms, unit: 'ms', system },
  ];
}

/** reference ÷ etcd for every rate both systems report under the same name. */
export function ratioFigures(figures: readonly Figure[]): Figure[] {
  const rates = figures.filter((f) => f.system === 'reference' && (f.unit === 'ops/s' || f.unit === 'events/s'));
  return rates.flatMap((ref) => {
    const peer = figures.find((f) => f.system === 'etcd' && f.name === ref.name && f.unit === ref.unit);
    if (peer === undefined || !(peer.value > 0)) return [];
    const ratio = ref.value / peer.value;
    return [{
      name: `reference/etcd ${ref.name}`,
      value: ratio,
      unit: '×',
      goal: { text: `≥ ${THROUGHPUT_RATIO_GOAL}× real etcd`, met: ratio >= THROUGHPUT_RATIO_GOAL },
    }];
  });
}

/** Median, p90 and max of failover samples; the goal (≤ 2 election timeouts) on median and p90. */
export function failoverFigures(system: SystemName, label: string, samples_ms: number[], unit: string, election_timeout_ms: number): Figure[] {
  const bound_ms = 2 * election_timeout_ms;
  const goal = (v: number) => ({ text: `≤ 2 × election timeout (${bound_ms} ${unit})`, met: v <= bound_ms });
  const median = percentile(samples_ms, 50);
  const p90 = percentile(samples_ms, 90);
  return [
    { name: `${label} median (n=${samples_ms.length})`, value: median, unit, system, goal: goal(median) },
    { name: `${label} p90`, value: p90, unit, system, goal: goal(p90) },
    { name: `${label} max`, value: Math.max(...samples_ms), unit, system },
  ];
}
