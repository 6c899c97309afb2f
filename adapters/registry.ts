/**
 * The targets, by name: a flat map from name to factory (as the scheduler's plugin registry).
 * Each factory reads its own options from the environment the CLI sets, so that cucumber
 * worker processes build the same target the CLI was asked for.
 */
import type { Target } from './contract.ts';

export interface TargetInfo {
  summary: string;
  create(env: NodeJS.ProcessEnv): Promise<Target>;
}

export const TARGETS: Record<string, TargetInfo> = {
  reference: {
    summary: 'the embedded reference implementation, in-process, on a virtual clock',
    async create() {
      const { createReferenceTarget } = await import('./reference/index.ts');
      return createReferenceTarget();
    },
  },
  etcd: {
    summary: 'a real etcd cluster: started from the etcd binary on loopback, or --etcd-endpoints',
    async create(env) {
      const { createEtcdTarget } = await import('./etcd/index.ts');
      const endpoints = env.KUBESPEC_ETCD_ENDPOINTS?.split(',').filter(Boolean);
      return createEtcdTarget(endpoints?.length ? { endpoints } : {});
    },
  },
  kube: {
    summary: 'any Kubernetes cluster given by a kubeconfig (--kubeconfig PATH, or $KUBECONFIG)',
    async create(env) {
      const { createKubeTarget } = await import('./kube/index.ts');
      const kubeconfigPath = env.KUBESPEC_KUBECONFIG ?? env.KUBECONFIG ?? `${env.HOME ?? ''}/.kube/config`;
      return createKubeTarget({ kubeconfigPath });
    },
  },
};

export function targetNames(): string[] {
  return Object.keys(TARGETS);
}
