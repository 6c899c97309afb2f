/**
 * NodeRestriction (plugin/pkg/admission/noderestriction/admission.go): what a kubelet may write,
 * now that the object is known. For users the Node authorizer recognises as a node:
 * - pods: create only mirror pods bound to itself; update/patch status only of pods whose
 *   spec.nodeName is itself; delete only those; no other update;
 * - nodes: create/update only its own Node;
 * - leases (kube-node-lease): only its own (the authorizer cannot see a create's name).
 * Messages are upstream's, wrapped by admission.NewForbidden as `pods "x" is forbidden: ...`.
 */
import type { AdmissionAttributes, MutatingPlugin } from '../../pipeline.ts';
import { nodeIdentity, NODE_LEASE_NAMESPACE } from '../../authz/node.ts';
import { admissionForbidden } from '../errors.ts';

export const NODE_RESTRICTION_PLUGIN_NAME = 'NodeRestriction';
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

export function nodeRestriction(): MutatingPlugin {
  return {
    name: NODE_RESTRICTION_PLUGIN_NAME,
    // Only a node's own requests are restricted.
    handles: (attrs) => nodeIdentity(attrs.user) !== undefined,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      const node = nodeIdentity(attrs.user);
      if (node === undefined) return;
      const deny = (detail: string) => admissionForbidden(attrs, detail, NODE_RESTRICTION_PLUGIN_NAME);
      const { group, resource } = attrs.resource;
      if (group === '' && resource === 'pods') admitPod(node, attrs, deny);
      else if (group === '' && resource === 'nodes') {
        if (attrs.name !== node && (attrs.object?.metadata?.name ?? attrs.name) !== node) throw deny(`node "${node}" is not allowed to modify node "${attrs.name || attrs.object?.metadata?.name}"`);
      } else if (group === 'coordination.k8s.io' && resource === 'leases' && attrs.namespace === NODE_LEASE_NAMESPACE) {
        const name = attrs.name || attrs.object?.metadata?.name;
        if (name !== node) throw deny('can only access node lease with the same name as the requesting node');
      }
    },
  };
}

function admitPod(node: string, attrs: AdmissionAttributes, deny: (detail: string) => Error): void {
  const pod = attrs.operation === 'DELETE' ? attrs.oldObject : (attrs.oldObject ?? attrs.object);
  const boundHere = pod?.spec?.nodeName === node;
  switch (attrs.subresource) {
    case '':
      if (attrs.operation === 'CREATE') {
        if (!attrs.object?.metadata?.annotations?.[MIRROR_ANNOTATION]) throw deny(`pod does not have "${MIRROR_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
        if (attrs.object?.spec?.nodeName !== node) throw deny(`node "${node}" can only create pods with spec.nodeName set to itself`);
        return;
      }
      if (attrs.operation === 'DELETE') {
        if (!boundHere) throw deny(`node "${node}" can only delete pods with spec.nodeName set to itself`);
        return;
      }
      throw deny(`unexpected operation ${attrs.operation}, node "${node}" can only create and delete mirror pods`);
    case 'status':
      if (!boundHere) throw deny(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
      return;
    case 'eviction':
      if (!boundHere) throw deny(`node "${node}" can only evict pods with spec.nodeName set to itself`);
      return;
    default:
      throw deny(`unexpected subresource ${attrs.subresource}`);
  }
}
