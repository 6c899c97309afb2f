/**
 * What the scheduler knows of the objects that group pods — Services, ReplicationControllers,
 * ReplicaSets, StatefulSets — for the selector of a pod's default spread constraints
 * (pkg/scheduler/framework/plugins/helper/spread.go, DefaultSelector):
 * - the selectors of every Service in the pod's namespace that selects the pod, merged;
 * - then, by the pod's controller ownerReference: a ReplicationController's selector merged in,
 *   or a ReplicaSet's or StatefulSet's label selector added as requirements.
 * An empty result means "no selector": the pod gets no default constraint.
 */
import type { Pod } from './types.ts';

export type WorkloadResource = 'services' | 'replicationcontrollers' | 'replicasets' | 'statefulsets';

interface Workload {
  metadata: { name: string; namespace?: string };
  spec?: { selector?: any };
}

const OWNER_KIND: Record<string, WorkloadResource> = {
  'v1/ReplicationController': 'replicationcontrollers',
  'apps/v1/ReplicaSet': 'replicasets',
  'apps/v1/StatefulSet': 'statefulsets',
};

export class WorkloadIndex {
  /** resource → namespace → name → object. */
  private readonly byResource = new Map<WorkloadResource, Map<string, Map<string, Workload>>>();

  onObject(resource: WorkloadResource, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: Workload): void {
    const ns = object.metadata.namespace ?? '';
    let byNs = this.byResource.get(resource);
    if (!byNs) this.byResource.set(resource, (byNs = new Map()));
    let byName = byNs.get(ns);
    if (!byName) byNs.set(ns, (byName = new Map()));
    if (type === 'DELETED') byName.delete(object.metadata.name);
    else byName.set(object.metadata.name, object);
  }

  /** A metav1.LabelSelector, or undefined when nothing selects or owns the pod. */
  selectorFor(pod: Pod): { matchLabels?: Record<string, string>; matchExpressions?: any[] } | undefined {
    const ns = pod.metadata.namespace ?? '';
    const labels = pod.metadata.labels ?? {};
    const matchLabels: Record<string, string> = {};
    for (const svc of this.byResource.get('services')?.get(ns)?.values() ?? []) {
      const sel: Record<string, string> = svc.spec?.selector ?? {};
      // A Service with no selector selects nothing (GetPodServices skips it).
      if (Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v)) Object.assign(matchLabels, sel);
    }
    const matchExpressions: any[] = [];
    const owner = ((pod.metadata as any).ownerReferences ?? []).find((o: any) => o?.controller === true);
    const resource = owner ? OWNER_KIND[`${owner.apiVersion}/${owner.kind}`] : undefined;
    const controller = resource ? this.byResource.get(resource)?.get(ns)?.get(owner.name) : undefined;
    if (controller && resource === 'replicationcontrollers') Object.assign(matchLabels, controller.spec?.selector ?? {});
    else if (controller) {
      const sel = controller.spec?.selector ?? {};
      for (const [key, value] of Object.entries(sel.matchLabels ?? {})) matchExpressions.push({ key, operator: 'In', values: [value] });
      matchExpressions.push(...(sel.matchExpressions ?? []));
    }
    if (Object.keys(matchLabels).length === 0 && matchExpressions.length === 0) return undefined;
    return { ...(Object.keys(matchLabels).length > 0 ? { matchLabels } : {}), ...(matchExpressions.length > 0 ? { matchExpressions } : {}) };
  }
}
