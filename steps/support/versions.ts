/**
 * Version baselines. The suite checks upstream behaviour as of SUITE_BASELINE (docs/literate-model.md,
 * "Upstream baseline"); a target may report the versions it runs (Target.versions()), and a
 * scenario whose behaviour changed upstream carries a range tag — `@k8s:>=1.32`, `@etcd:<3.5` —
 * so a target running another version is judged by its own version's behaviour: a scenario
 * whose range excludes the target's version is not-applicable, with the reason.
 */

/** What the suite's scenarios assume where a target does not say what it runs. */
export const SUITE_BASELINE: Readonly<Record<string, string>> = { kubernetes: '1.34', etcd: '3.6' };

/** Tag prefix → the component name in Target.versions(). */
const COMPONENTS: Record<string, string> = { k8s: 'kubernetes', etcd: 'etcd' };

export const VERSION_TAG = /^@(k8s|etcd):(>=|<=|>|<|=)(\d+(?:\.\d+){0,2})$/;

export interface VersionRange {
  tag: string;
  component: string;
  op: '>=' | '<=' | '>' | '<' | '=';
  version: string;
}

/** Tags that look like version ranges (`@k8s:…`, `@etcd:…`); a malformed one throws. */
export function versionRanges(tags: readonly string[]): VersionRange[] {
  return tags
    .filter((t) => /^@(k8s|etcd):/.test(t))
    .map((tag) => {
      const m = VERSION_TAG.exec(tag);
      if (!m) throw new Error(`malformed version tag ${tag}: write e.g. @k8s:>=1.32 or @etcd:<3.5`);
      return { tag, component: COMPONENTS[m[1]!]!, op: m[2] as VersionRange['op'], version: m[3]! };
    });
}

/** -1, 0, 1, comparing only as many parts as the range names (1.32 matches 1.32.4). */
export function compareVersions(actual: string, range: string): number {
  const a = actual.replace(/^v/, '').split(/[.+-]/).map((p) => Number.parseInt(p, 10));
  const r = range.split('.').map(Number);
  for (let i = 0; i < r.length; i++) {
    const x = Number.isNaN(a[i] ?? 0) ? 0 : (a[i] ?? 0);
    if (x !== r[i]) return x < r[i]! ? -1 : 1;
  }
  return 0;
}

function holds(actual: string, range: VersionRange): boolean {
  const c = compareVersions(actual, range.version);
  return { '>=': c >= 0, '<=': c <= 0, '>': c > 0, '<': c < 0, '=': c === 0 }[range.op];
}

/**
 * Why a scenario does not apply to a target of these versions, or undefined when it does.
 * A component the target does not report is judged at the suite's baseline.
 */
export function versionMismatch(tags: readonly string[], versions: Readonly<Record<string, string>>): string | undefined {
  const reasons = versionRanges(tags)
    .map((range) => {
      const actual = versions[range.component] ?? SUITE_BASELINE[range.component]!;
      const reported = versions[range.component] ? 'runs' : 'is judged at the suite baseline';
      return holds(actual, range) ? undefined : `target ${reported} ${range.component} ${actual}; this scenario checks ${range.component} ${range.op}${range.version} (${range.tag})`;
    })
    .filter(Boolean);
  return reasons.length ? reasons.join('; ') : undefined;
}
