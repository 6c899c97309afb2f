/**
 * The pure core: a pod's metadata and spec + a level and version → the violations, in upstream's
 * order (policy/registry.go EvaluatePod): privileged allows everything; baseline runs the
 * baseline checks, then the overlapping ones; restricted runs the baseline checks without a
 * stricter twin, then the restricted ones. A check applies from its first policy version on.
 */
import { CHECKS, type Violation } from './checks.ts';
import type { LevelVersion } from './policy.ts';
import { atLeast } from './policy.ts';

export type { Violation } from './checks.ts';

export function evaluatePod(lv: LevelVersion, meta: any, spec: any): Violation[] {
  if (lv.level === 'privileged') return [];
  const applies = (c: (typeof CHECKS)[number]) => atLeast(lv.version, c.sinceMinor);
  const plain = CHECKS.filter((c) => c.level === 'baseline' && !c.overlap);
  const rest = lv.level === 'baseline' ? CHECKS.filter((c) => c.level === 'baseline' && c.overlap) : CHECKS.filter((c) => c.level === 'restricted');
  const violations: Violation[] = [];
  for (const c of [...plain, ...rest]) {
    if (!applies(c)) continue;
    const v = c.check(meta, spec, lv.version);
    if (v) violations.push(v);
  }
  return violations;
}

/** upstream's AggregateCheckResult.ForbiddenDetail: `reason (detail), reason, ...`. */
export function forbiddenDetail(violations: Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}
