/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go): a pod
 * created or updated without a toleration of node.kubernetes.io/not-ready:NoExecute, or of
 * node.kubernetes.io/unreachable:NoExecute, gets one — operator Exists, tolerationSeconds 300
 * (--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds). A
 * toleration with an empty key or an empty effect already covers the taint. This is where the
 * "five minutes" before a lost node's pods are evicted comes from: the taint eviction controller
 * honours these tolerations like any other. Subresources (status, binding, …) are left alone.
 */
import type { AdmissionAttributes, MutatingPlugin } from '../../pipeline.ts';

export const DEFAULT_TOLERATION_SECONDS_PLUGIN_NAME = 'DefaultTolerationSeconds';
export const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function covers(t: any, key: string): boolean {
  return (t?.key === key || !t?.key) && (t?.effect === 'NoExecute' || !t?.effect);
}

/** A create or update of a pod itself: the only requests this plugin changes. */
function podWrite(attrs: AdmissionAttributes): boolean {
  return (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') && attrs.resource.group === '' && attrs.resource.resource === 'pods' && attrs.subresource === '';
}

export function defaultTolerationSeconds(seconds = { notReady: DEFAULT_TOLERATION_SECONDS, unreachable: DEFAULT_TOLERATION_SECONDS }): MutatingPlugin {
  return {
    name: DEFAULT_TOLERATION_SECONDS_PLUGIN_NAME,
    handles: podWrite,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      if (!podWrite(attrs)) return;
      const spec = attrs.object?.spec;
      if (!spec || typeof spec !== 'object') return;
      const tolerations: any[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
      const added: any[] = [];
      if (!tolerations.some((t) => covers(t, NOT_READY))) added.push({ key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds.notReady });
      if (!tolerations.some((t) => covers(t, UNREACHABLE))) added.push({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds.unreachable });
      if (added.length > 0) spec.tolerations = [...tolerations, ...added];
    },
  };
}
