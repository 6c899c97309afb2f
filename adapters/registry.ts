/**
 * The targets, by name: a flat map from name to factory (as the scheduler's plugin registry).
 * Each factory reads its own options from the environment the CLI sets, so that cucumber
 * worker processes build the same target the CLI was asked for.
 */
import type { Target } from '../contract/contract.ts';
import { createPluginTarget, type PluginLoader } from './plugin.ts';

export interface TargetInfo {
  summary: string;
  create(env: NodeJS.ProcessEnv): Promise<Target>;
  /**
   * A quick check, before any scenario runs, that the target can be used at all: what is wrong
   * and how to fix it, or undefined. Lets the CLI answer a configuration error with exit 2
   * instead of a run in which every scenario fails.
   */
  preflight?(env: NodeJS.ProcessEnv): Promise<string | undefined>;
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
    async preflight(env) {
      if (env.KUBESPEC_ETCD_ENDPOINTS) return undefined;
      const { binaryAvailable } = await import('./etcd/cluster.ts');
      return (await binaryAvailable('etcd'))
        ? undefined
        : 'etcd is not installed, so the suite cannot start a cluster: apt-get install etcd-server etcd-client, or pass --etcd-endpoints URL,...';
    },
  },
  cri: {
    summary: 'the reference control plane on real time with kubelets on a real containerd over its CRI gRPC socket (root; containerd, runc, busybox-static, containernetworking-plugins)',
    async create() {
      const { createCriTarget } = await import('./cri/index.ts');
      return createCriTarget();
    },
    async preflight() {
      const { containerdUnavailable } = await import('./cri/host/containerd.ts');
      return containerdUnavailable();
    },
  },
  kernel: {
    summary: 'the reference control plane with kube-proxy\'s iptables and nftables rules loaded into the real kernel in network namespaces, real TCP/HTTP to real backends (root; iproute2, iptables, nftables)',
    async create() {
      const { createKernelTarget } = await import('./kernel/index.ts');
      return createKernelTarget();
    },
  },
  kube: {
    summary: 'any Kubernetes cluster given by a kubeconfig (--kubeconfig PATH, or $KUBECONFIG)',
    async create(env) {
      const { createKubeTarget } = await import('./kube/index.ts');
      return createKubeTarget({ kubeconfigPath: kubeconfigPathFrom(env), ...(env.KUBESPEC_DNS_SERVER ? { dnsServer: env.KUBESPEC_DNS_SERVER } : {}) });
    },
    async preflight(env) {
      const { endpointFrom, assertReachable } = await import('./kube/index.ts');
      try {
        await assertReachable(await endpointFrom(kubeconfigPathFrom(env)));
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  },
};

function kubeconfigPathFrom(env: NodeJS.ProcessEnv): string {
  return env.KUBESPEC_KUBECONFIG ?? env.KUBECONFIG ?? `${env.HOME ?? ''}/.kube/config`;
}

export function targetNames(): string[] {
  return Object.keys(TARGETS);
}

/**
 * The target the environment names: a plug-in module when KUBESPEC_TARGET_MODULE is set (the CLI
 * resolved it), else the built-in KUBESPEC_TARGET. Used by the CLI and by every cucumber worker.
 */
export async function createTargetFromEnv(env: NodeJS.ProcessEnv): Promise<Target> {
  const name = env.KUBESPEC_TARGET ?? 'reference';
  if (env.KUBESPEC_TARGET_MODULE) {
    const options = env.KUBESPEC_TARGET_OPTIONS ? (JSON.parse(env.KUBESPEC_TARGET_OPTIONS) as Record<string, unknown>) : {};
    const loader = (env.KUBESPEC_TARGET_LOADER ?? 'tsx') as PluginLoader;
    return createPluginTarget({ module: env.KUBESPEC_TARGET_MODULE, options, loader }, name);
  }
  const info = TARGETS[name];
  if (!info) throw new Error(`unknown target "${name}"`);
  return info.create(env);
}
