/**
 * The ResourceQuota admission plugin, object counts (plugin/pkg/admission/resourcequota and
 * pkg/quota/v1/evaluator/core in kubernetes/kubernetes). On a create in a namespace, every
 * ResourceQuota of that namespace whose spec.hard names a count the object adds to — the
 * legacy names (`pods`, `services`, `configmaps`, `secrets`, `persistentvolumeclaims`,
 * `replicationcontrollers`, `resourcequotas`) or `count/<resource>[.<group>]` — must still
 * hold with the new object counted; otherwise the request is 403 with upstream's message:
 *   configmaps "c" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2
 *
 * Upstream reads usage from the quota's status.used, kept by the resource quota controller;
 * the reference counts the namespace's objects at admission time instead (what a controller
 * that is never behind would report).
 *
 * A pod also counts against the compute resources (pkg/quota/v1/evaluator/core/pods.go):
 * `requests.cpu` and `cpu`, `requests.memory` and `memory`, `limits.cpu`, `limits.memory` — the
 * sum over its containers, or its largest init container if that is more; pods that finished
 * (Succeeded, Failed) use nothing. A quota that limits one of these makes every container say it
 * (the evaluator's Constraints: `failed quota: q: must specify requests.cpu for: app`).
 */
import type { AdmissionAttributes, ValidatingPlugin } from '../../pipeline.ts';
import { admissionForbidden } from '../errors.ts';
import { add, formatQuantity, parseQuantity, ZERO, type Quantity } from './quantity.ts';

export const RESOURCE_QUOTA_PLUGIN_NAME = 'ResourceQuota';

/** pkg/quota/v1/evaluator/core: the object counts with a legacy (pre-`count/`) name. */
const LEGACY_COUNT_NAMES = new Set(['pods', 'services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas']);

/** Compute resource names a pod's usage has, and where each comes from in a container. */
const COMPUTE: Record<string, ['requests' | 'limits', 'cpu' | 'memory']> = {
  cpu: ['requests', 'cpu'],
  'requests.cpu': ['requests', 'cpu'],
  memory: ['requests', 'memory'],
  'requests.memory': ['requests', 'memory'],
  'limits.cpu': ['limits', 'cpu'],
  'limits.memory': ['limits', 'memory'],
};

export interface ResourceQuotaOptions {
  /** The namespace's ResourceQuota objects (a plain list when cached). */
  listQuotas(namespace: string): any[] | Promise<any[]>;
  /** How many objects of the resource the namespace holds now. */
  countObjects(resource: string, namespace: string): Promise<number>;
  /** The namespace's pods, for compute resources; without it those are not evaluated. */
  listPods?(namespace: string): any[] | Promise<any[]>;
}

/** The quota resource names a create of this resource counts against. */
export function countNames(group: string, resource: string): string[] {
  const names = [group ? `count/${resource}.${group}` : `count/${resource}`];
  if (!group && LEGACY_COUNT_NAMES.has(resource)) names.push(resource);
  return names;
}

type Usage = Map<string, Quantity>;

const ONE: Quantity = { milli: 1000n, binary: false };

/** A container's value for a resource; a request left out defaults to the limit, as SetDefaults_Pod does. */
function containerValue(c: any, [kind, name]: ['requests' | 'limits', 'cpu' | 'memory']): Quantity | undefined {
  const res = c?.resources ?? {};
  const v = res[kind]?.[name] ?? (kind === 'requests' ? res.limits?.[name] : undefined);
  return v === undefined ? undefined : parseQuantity(v);
}

/** A pod's compute usage: its containers' sum, or its largest init container if more (PodUsageFunc). */
export function podComputeUsage(pod: any): Usage {
  const usage: Usage = new Map();
  const phase = pod?.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return usage;
  for (const [name, from] of Object.entries(COMPUTE)) {
    let sum = ZERO;
    let any = false;
    for (const c of pod?.spec?.containers ?? []) {
      const q = containerValue(c, from);
      if (q) (sum = add(sum, q)), (any = true);
    }
    for (const c of pod?.spec?.initContainers ?? []) {
      const q = containerValue(c, from);
      if (q && q.milli > sum.milli) (sum = q), (any = true);
    }
    if (any) usage.set(name, sum);
  }
  return usage;
}

/** The containers that leave out a compute resource a quota limits, by resource (the evaluator's Constraints). */
function missingConstraints(pod: any, limited: string[]): string[] {
  const errs: string[] = [];
  for (const name of [...limited].sort()) {
    const missing = (pod?.spec?.containers ?? []).filter((c: any) => !containerValue(c, COMPUTE[name]!)).map((c: any) => String(c?.name ?? ''));
    if (missing.length > 0) errs.push(`must specify ${name} for: ${[...new Set(missing)].sort().join(',')}`);
  }
  return errs;
}

/** prettyPrint: `name=value` pairs sorted by name, joined by commas. */
function prettyPrint(values: Map<string, Quantity>, names: string[]): string {
  return [...names].sort().map((k) => `${k}=${formatQuantity(values.get(k) ?? ZERO)}`).join(',');
}

function requestedUsage(attrs: AdmissionAttributes, computed: boolean): Usage {
  const usage: Usage = new Map(countNames(attrs.resource.group, attrs.resource.resource).map((n) => [n, ONE]));
  if (computed) for (const [k, v] of podComputeUsage(attrs.object)) usage.set(k, v);
  return usage;
}

async function usedIn(opts: ResourceQuotaOptions, attrs: AdmissionAttributes, names: string[], computed: boolean): Promise<Usage> {
  const used: Usage = new Map();
  const count = await opts.countObjects(attrs.resource.resource, attrs.namespace);
  for (const n of countNames(attrs.resource.group, attrs.resource.resource)) used.set(n, { milli: BigInt(count) * 1000n, binary: false });
  if (computed && names.some((n) => n in COMPUTE)) {
    for (const pod of await opts.listPods!(attrs.namespace)) {
      for (const [k, v] of podComputeUsage(pod)) used.set(k, add(used.get(k) ?? ZERO, v));
    }
  }
  return used;
}

export function resourceQuotaAdmission(opts: ResourceQuotaOptions): ValidatingPlugin {
  return {
    name: RESOURCE_QUOTA_PLUGIN_NAME,
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (attrs.operation !== 'CREATE' || attrs.subresource !== '' || attrs.namespace === '' || attrs.dryRun) return;
      const quotas = await opts.listQuotas(attrs.namespace);
      if (quotas.length === 0) return;
      const computed = attrs.resource.group === '' && attrs.resource.resource === 'pods' && opts.listPods !== undefined;
      if (computed) {
        for (const quota of quotas) {
          const errs = missingConstraints(attrs.object, Object.keys(quota.spec?.hard ?? {}).filter((n) => n in COMPUTE));
          if (errs.length > 0) throw admissionForbidden(attrs, `failed quota: ${quota.metadata.name}: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`, RESOURCE_QUOTA_PLUGIN_NAME);
        }
      }
      const requested = requestedUsage(attrs, computed);
      let used: Usage | undefined;
      for (const quota of quotas) {
        const hard: Record<string, unknown> = quota.spec?.hard ?? {};
        const limited = [...requested.keys()].filter((n) => hard[n] !== undefined);
        if (limited.length === 0) continue;
        used ??= await usedIn(opts, attrs, [...requested.keys()], computed);
        const hardOf = (n: string) => parseQuantity(hard[n]) ?? ZERO;
        const over = limited.filter((n) => (used!.get(n) ?? ZERO).milli + requested.get(n)!.milli > hardOf(n).milli);
        if (over.length === 0) continue;
        const limits: Usage = new Map(over.map((n) => [n, hardOf(n)]));
        const detail = `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(requested, over)}, used: ${prettyPrint(used, over)}, limited: ${prettyPrint(limits, over)}`;
        throw admissionForbidden(attrs, detail, RESOURCE_QUOTA_PLUGIN_NAME);
      }
    },
  };
}
