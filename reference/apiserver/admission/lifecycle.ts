/**
 * NamespaceLifecycle (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go).
 * Upstream it is a mutating-phase plugin (Admit) that never mutates:
 * - the immortal namespaces (default, kube-system, kube-public) may not be deleted:
 *   `namespaces "default" is forbidden: this namespace may not be deleted`;
 * - cluster-scoped objects, Namespace objects and deletions are always allowed;
 * - writing into a namespace that does not exist is 404 `namespaces "x" not found`;
 * - creating in a Terminating namespace is 403 `... is forbidden: unable to create new content
 *   in namespace x because it is being terminated`.
 */
import type { AdmissionAttributes, MutatingPlugin } from '../pipeline.ts';
import { admissionForbidden, notFound } from './errors.ts';

export const NAMESPACE_LIFECYCLE_PLUGIN_NAME = 'NamespaceLifecycle';
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

type MaybePromise<T> = T | Promise<T>;

export interface NamespaceLifecycleOptions {
  /** The Namespace object, or undefined when it does not exist. */
  getNamespace(name: string): MaybePromise<{ status?: { phase?: string } } | undefined>;
  immortalNamespaces?: string[];
}

export function namespaceLifecycle(opts: NamespaceLifecycleOptions): MutatingPlugin {
  const immortal = opts.immortalNamespaces ?? IMMORTAL_NAMESPACES;
  return {
    name: NAMESPACE_LIFECYCLE_PLUGIN_NAME,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      const isNamespace = attrs.kind.group === '' && attrs.kind.kind === 'Namespace';
      if (attrs.operation === 'DELETE' && isNamespace && immortal.includes(attrs.name)) {
        throw admissionForbidden(attrs, 'this namespace may not be deleted', NAMESPACE_LIFECYCLE_PLUGIN_NAME);
      }
      if (isNamespace || attrs.namespace === '' || attrs.operation === 'DELETE') return;
      const ns = await opts.getNamespace(attrs.namespace);
      if (!ns) throw notFound('', 'namespaces', attrs.namespace, NAMESPACE_LIFECYCLE_PLUGIN_NAME);
      if (attrs.operation === 'CREATE' && ns.status?.phase === 'Terminating') {
        throw admissionForbidden(
          attrs,
          `unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
          NAMESPACE_LIFECYCLE_PLUGIN_NAME,
        );
      }
    },
  };
}
