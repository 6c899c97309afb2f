/**
 * The `nodes` facet of a reference session: kubelets with the fake CRI runtime, started in the
 * scenario's cluster on demand (reference/wiring/kubelets.ts). Exec goes through the runtime's
 * ExecSync, as the kubelet's own exec path (pods/exec → CRI Exec) ends up in the runtime.
 */
import type { CriCallRecord, NodesFacet } from '../../contract/contract.ts';
import type { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import { LABEL_CONTAINER_NAME, LABEL_POD_NAME, LABEL_POD_NAMESPACE } from '../../contract/cri.ts';

export function referenceNodes(cluster: ReferenceCluster): NodesFacet {
  const host = (node: string) => {
    const h = cluster.kubelets.get(node);
    if (!h) throw new Error(`no kubelet runs node "${node}" in this scenario (say "Given a cluster with node \\"${node}\\"")`);
    return h;
  };
  return {
    async ensureNode(name) {
      await cluster.addKubelet(name);
    },
    async exec(namespace, pod, container, command) {
      for (const h of cluster.kubelets.values()) {
        const { containers } = await h.runtime.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: { [LABEL_POD_NAMESPACE]: namespace, [LABEL_POD_NAME]: pod, [LABEL_CONTAINER_NAME]: container } } });
        const c = containers[0];
        if (!c) continue;
        const res = await h.runtime.execSync({ containerId: c.id, cmd: command, timeout: 0 });
        return { exitCode: res.exitCode, stdout: res.stdout };
      }
      throw new Error(`container "${container}" of pod ${namespace}/${pod} is not running on any node`);
    },
    runtime: (node) => host(node).runtime,
    criCalls: async (node): Promise<CriCallRecord[]> => host(node).runtime.calls.map((c) => ({ method: c.method, at_ms: c.at_ms, ...(c.podUid ? { podUid: c.podUid } : {}) })),
    killContainerProcess: async (node, id) => host(node).runtime.killProcess(id),
    holdSandboxes: async (node) => host(node).runtime.holdSandboxes(),
    releaseSandboxes: async (node) => host(node).runtime.releaseSandboxes(),
  };
}
