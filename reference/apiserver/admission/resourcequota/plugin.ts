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
 * that is never behind would report). Compute resources (requests.cpu, limits.memory, ...)
 * are not evaluated yet.
 */
import type { AdmissionAttributes, ValidatingPlugin } from '../../pipeline.ts';
import { admissionForbidden } from '../errors.ts';

export const RESOURCE_QUOTA_PLUGIN_NAME = 'ResourceQuota';

/** pkg/quota/v1/evaluator/core: the object counts with a legacy (pre-`count/`) name. */
const LEGACY_COUNT_NAMES = new Set(['pods', 'services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas']);

export interface ResourceQuotaOptions {
  /** The namespace's ResourceQuota objects. */
  listQuotas(namespace: string): Promise<any[]>;
  /** How many objects of the resource the namespace holds now. */
  countObjects(resource: string, namespace: string): Promise<number>;
}

/** The quota resource names a create of this resource counts against. */
export function countNames(group: string, resource: string): string[] {
  const names = [group ? `count/${resource}.${group}` : `count/${resource}`];
  if (!group && LEGACY_COUNT_NAMES.has(resource)) names.push(resource);
  return names;
}

/** prettyPrint: `name=value` pairs sorted by name, joined by commas. */
function prettyPrint(values: Map<string, number | string>): string {
  return [...values.keys()].sort().map((k) => `${k}=${values.get(k)}`).join(',');
}

export function resourceQuotaAdmission(opts: ResourceQuotaOptions): ValidatingPlugin {
  return {
    name: RESOURCE_QUOTA_PLUGIN_NAME,
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (attrs.operation !== 'CREATE' || attrs.subresource !== '' || attrs.namespace === '' || attrs.dryRun) return;
      const quotas = await opts.listQuotas(attrs.namespace);
      if (quotas.length === 0) return;
      const names = countNames(attrs.resource.group, attrs.resource.resource);
      let used: number | undefined;
      for (const quota of quotas) {
        const hard: Record<string, string> = quota.spec?.hard ?? {};
        const limited = names.filter((n) => hard[n] !== undefined);
        if (limited.length === 0) continue;
        used ??= await opts.countObjects(attrs.resource.resource, attrs.namespace);
        const over = limited.filter((n) => used! + 1 > Number(hard[n]));
        if (over.length === 0) continue;
        const requested = new Map(over.map((n) => [n, 1]));
        const usedNow = new Map(over.map((n) => [n, used!]));
        const limits = new Map(over.map((n) => [n, hard[n]!]));
        const detail = `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(requested)}, used: ${prettyPrint(usedNow)}, limited: ${prettyPrint(limits)}`;
        throw admissionForbidden(attrs, detail, RESOURCE_QUOTA_PLUGIN_NAME);
      }
    },
  };
}
