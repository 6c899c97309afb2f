/**
 * A namespace's Pod Security policy, read from its labels (k8s.io/pod-security-admission
 * api/helpers.go PolicyToEvaluate; labels in api/constants.go):
 *
 *   pod-security.kubernetes.io/<mode>: privileged | baseline | restricted    (mode: enforce, audit, warn)
 *   pod-security.kubernetes.io/<mode>-version: latest | v1.<minor>
 *
 * An absent label keeps the default (privileged:latest, upstream's default configuration). A
 * level that does not parse is "restricted" for enforce (fail closed) and "privileged" for
 * audit and warn (fail open); a version that does not parse is "latest". Parse errors are
 * reported so the plugin can record them (the `error` audit annotation).
 */
export type Level = 'privileged' | 'baseline' | 'restricted';
export type Mode = 'enforce' | 'audit' | 'warn';
export const MODES: readonly Mode[] = ['enforce', 'audit', 'warn'];
export const LABEL_PREFIX = 'pod-security.kubernetes.io/';

/** `latest` or a minor version of 1.x. */
export type Version = 'latest' | { minor: number };

export interface LevelVersion {
  level: Level;
  version: Version;
}

export type Policy = Record<Mode, LevelVersion>;

export const DEFAULT_POLICY: Policy = {
  enforce: { level: 'privileged', version: 'latest' },
  audit: { level: 'privileged', version: 'latest' },
  warn: { level: 'privileged', version: 'latest' },
};

const LEVELS = new Set<string>(['privileged', 'baseline', 'restricted']);
const VERSION = /^v1\.(0|[1-9][0-9]*)$/;

/** upstream's LevelVersion.String(): `restricted:latest`, `baseline:v1.30`. */
export function describe(lv: LevelVersion): string {
  return `${lv.level}:${versionText(lv.version)}`;
}

export function versionText(v: Version): string {
  return v === 'latest' ? 'latest' : `v1.${v.minor}`;
}

/** A label that does not parse, as upstream's field.Invalid(metadata.labels[key], value, detail). */
export interface LabelError {
  field: string;
  value: string;
  detail: string;
}

/** field.ErrorList's text: `metadata.labels[k]: Invalid value: "v": detail`, joined as an aggregate. */
export function describeErrors(errors: LabelError[]): string {
  const texts = errors.map((e) => `${e.field}: Invalid value: ${JSON.stringify(e.value)}: ${e.detail}`);
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}

export function policyFromLabels(labels: Record<string, string> | undefined, defaults: Policy = DEFAULT_POLICY): { policy: Policy; errors: LabelError[] } {
  const policy: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: LabelError[] = [];
  for (const mode of MODES) {
    const level = labels?.[`${LABEL_PREFIX}${mode}`];
    if (level !== undefined) {
      if (LEVELS.has(level)) policy[mode].level = level as Level;
      else {
        policy[mode].level = mode === 'enforce' ? 'restricted' : 'privileged';
        errors.push({ field: `metadata.labels[${LABEL_PREFIX}${mode}]`, value: level, detail: 'must be one of privileged, baseline, restricted' });
      }
    }
    const version = labels?.[`${LABEL_PREFIX}${mode}-version`];
    if (version !== undefined) {
      const parsed = parseVersion(version);
      policy[mode].version = parsed ?? 'latest';
      if (parsed === undefined) errors.push({ field: `metadata.labels[${LABEL_PREFIX}${mode}-version]`, value: version, detail: 'must be "latest" or "v1.x"' });
    }
  }
  return { policy, errors };
}

export function parseVersion(text: string): Version | undefined {
  if (text === 'latest') return 'latest';
  const match = VERSION.exec(text);
  return match ? { minor: Number(match[1]) } : undefined;
}

/** How strict a level is, for "did enforce get stricter" (api.CompareLevels). */
export function strictness(level: Level): number {
  return level === 'privileged' ? 0 : level === 'baseline' ? 1 : 2;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return describe(a) === describe(b);
}

/** True when `version` is at least v1.<minor> (latest is newer than every minor). */
export function atLeast(version: Version, minor: number): boolean {
  return version === 'latest' || version.minor >= minor;
}
