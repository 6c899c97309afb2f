/**
 * A small seeded PRNG (mulberry32, public domain, by Tommy Ettinger). Every random choice in
 * a simulation comes from one of these, ultimately from one uint32 seed, so a seed replays
 * the same run exactly. Not for cryptography; statistically good enough for fault schedules.
 */
import type { RandomSource } from '../raft/types.ts';

export class Prng implements RandomSource {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  intBelow(n: number): number {
    if (!(n >= 1)) throw new Error(`intBelow needs n >= 1, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi], both inclusive. */
  intBetween(lo: number, hi: number): number {
    return lo + this.intBelow(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.intBelow(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** An independent stream, so one consumer's draws don't shift another's. */
  fork(): Prng {
    return new Prng(this.nextUint32());
  }
}
