/**
 * Priority (plugin/pkg/admission/priority/admission.go), for pod CREATE:
 * - a pod naming a class gets that class's value as spec.priority and, unless it set its own,
 *   the class's preemptionPolicy; a class that does not exist is 403
 *   `pods "x" is forbidden: no PriorityClass with name <name> was found`;
 * - a pod naming no class gets the value of the class marked globalDefault (the lowest value
 *   if several are), else 0 (DefaultPriorityWhenNoDefaultClassExists);
 * - a pod that states spec.priority differently is 403 `the integer value of priority (%d) must
 *   not be provided in pod spec; priority admission controller computed %d from the given
 *   PriorityClass name`.
 * The classes system-cluster-critical (2000000000) and system-node-critical (2000001000) are
 * created at start (pkg/apis/scheduling/v1/helpers.go SystemPriorityClasses; bootstrap.ts).
 */
import type { AdmissionAttributes, MutatingPlugin } from '../pipeline.ts';
import { admissionForbidden } from './errors.ts';

export const PRIORITY_PLUGIN_NAME = 'Priority';
export const SYSTEM_CLUSTER_CRITICAL = 2_000_000_000;
export const SYSTEM_NODE_CRITICAL = SYSTEM_CLUSTER_CRITICAL + 1000;

type MaybePromise<T> = T | Promise<T>;

export interface PriorityAdmissionOptions {
  getPriorityClass(name: string): MaybePromise<any | undefined>;
  listPriorityClasses(): MaybePromise<any[]>;
}

export function systemPriorityClasses(): any[] {
  const pc = (name: string, value: number, description: string) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description, preemptionPolicy: 'PreemptLowerPriority' });
  return [
    pc('system-node-critical', SYSTEM_NODE_CRITICAL, 'Used for system critical pods that must not be moved from their current node.'),
    pc('system-cluster-critical', SYSTEM_CLUSTER_CRITICAL, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'),
  ];
}

/** A pod's create: the only request this plugin looks at. */
function podCreate(attrs: AdmissionAttributes): boolean {
  return attrs.operation === 'CREATE' && attrs.resource.group === '' && attrs.resource.resource === 'pods' && attrs.subresource === '';
}

export function priorityAdmission(opts: PriorityAdmissionOptions): MutatingPlugin {
  return {
    name: PRIORITY_PLUGIN_NAME,
    handles: podCreate,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      if (!podCreate(attrs)) return;
      const spec = (attrs.object ??= {}).spec ?? (attrs.object.spec = {});
      let value = 0;
      let policy: string | undefined;
      if (spec.priorityClassName) {
        const pc = await opts.getPriorityClass(spec.priorityClassName);
        if (!pc) throw admissionForbidden(attrs, `no PriorityClass with name ${spec.priorityClassName} was found`, PRIORITY_PLUGIN_NAME);
        value = pc.value ?? 0;
        policy = pc.preemptionPolicy;
      } else {
        const defaults = (await opts.listPriorityClasses()).filter((pc) => pc.globalDefault === true).sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
        if (defaults[0]) {
          spec.priorityClassName = defaults[0].metadata.name;
          value = defaults[0].value ?? 0;
          policy = defaults[0].preemptionPolicy;
        }
      }
      if (typeof spec.priority === 'number' && spec.priority !== value) {
        throw admissionForbidden(attrs, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`, PRIORITY_PLUGIN_NAME);
      }
      spec.priority = value;
      if (policy && !spec.preemptionPolicy) spec.preemptionPolicy = policy;
    },
  };
}
