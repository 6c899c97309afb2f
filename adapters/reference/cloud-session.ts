/**
 * The `cloud` facet of one reference session (`cluster.cloud`): a simulated cloud whose API is
 * answered by msw handlers (reference/wiring/cloud.ts), the CCM's RBAC installed through the
 * API as its manifests would, and machines that join as Nodes the way a kubelet with
 * --cloud-provider=external registers one.
 */
import type { CloudFacet, KubeFacet } from '../../contract/contract.ts';
import { ccmRbacObjects, referenceCloud, type ReferenceCloud } from '../../reference/wiring/cloud.ts';
import { UNINITIALIZED_TAINT } from '../../reference/cloud/decisions.ts';

export interface CloudSession {
  readonly cloud: CloudFacet;
  readonly reference: ReferenceCloud;
}

export async function openCloudSession(kube: KubeFacet, seed: number): Promise<CloudSession> {
  const reference = referenceCloud(`https://cloud-${seed.toString(16)}.kubespec.test`);
  for (const object of ccmRbacObjects()) {
    const plural = object.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings';
    const res = await kube.request({ method: 'POST', path: `/apis/rbac.authorization.k8s.io/v1/${plural}`, body: object });
    if (res.status !== 201 && res.status !== 409) throw new Error(`cloud session setup: ${object.kind} ${object.metadata.name}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  const model = reference.model;
  const cloud: CloudFacet = {
    async addMachine(name, opts = {}) {
      model.addInstance(name, opts.zone);
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const node = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
        spec: { ...(opts.podCIDR ? { podCIDR: opts.podCIDR, podCIDRs: [opts.podCIDR] } : {}), taints: [{ key: UNINITIALIZED_TAINT, value: 'true', effect: 'NoSchedule' }] },
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }] },
      };
      const res = await kube.request({ method: 'POST', path: '/api/v1/nodes', body: node });
      if (res.status !== 201) throw new Error(`registering Node ${name}: ${res.status} ${res.text.slice(0, 300)}`);
    },
    async deleteMachine(name) {
      model.deleteInstance(name);
    },
    machines: async () => [...model.instances.values()].map((i) => ({ name: i.name, zone: i.zone })),
    routes: async () => [...model.routes.values()].map((r) => ({ destinationCIDR: r.destinationCIDR, targetNode: r.targetNode })),
    loadBalancers: async () => [...model.loadBalancers.values()].map((lb) => ({ name: lb.name, service: lb.service, ip: lb.ip, ports: lb.ports.map((p) => ({ port: p.port, protocol: p.protocol, nodePort: p.nodePort })), nodes: [...lb.nodes] })),
  };
  return { cloud, reference };
}
