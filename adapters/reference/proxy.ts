/**
 * The `proxy` facet of a reference session: kube-proxy per node from the cluster's ProxyHost,
 * read back as text in the formats the node tools print, and connections sent through the
 * proxy's dataplane model at the virtual clock's time.
 */
import type { ProxyFacet } from '../../contract/contract.ts';
import type { ReferenceCluster } from '../../reference/wiring/cluster.ts';
import type { Clock } from '../../reference/wiring/virtual-clock.ts';

export function referenceProxyFacet(cluster: ReferenceCluster, clock: Clock): ProxyFacet {
  const host = cluster.proxies;
  const proxy = (node: string) => {
    const p = host.proxy(node);
    if (!p) throw new Error(`no kube-proxy runs on node "${node}"${host.status(node).error ? `: ${host.status(node).error}` : ''}`);
    return p;
  };
  return {
    start: (node, opts) => host.start(node, opts),
    status: async (node) => host.status(node),
    synced: async () => host.caughtUp(),
    nodeAddress: async (node) => host.address(node),
    // A node whose kube-proxy never started has programmed nothing.
    iptablesSave: async (node, table) => host.proxy(node)?.iptablesSave(table) ?? '',
    ipvsadmSave: async (node) => proxy(node).ipvsadmSave(),
    ipset: async (node, name) => proxy(node).ipset(name),
    interfaceAddresses: async (node, iface) => (iface === 'kube-ipvs0' ? proxy(node).dummyAddresses() : []),
    sysctl: async (node, name) => host.proxy(node)?.sysctl(name),
    nftList: async (node) => proxy(node).nftList(),
    connect: async (node, c) => {
      const v = proxy(node).connect({ src: c.src, dst: c.dst, proto: c.protocol ?? 'TCP', dport: c.port, now_s: Math.floor(clock.now_ms() / 1000) }, c.fromNode ?? false);
      return { outcome: v.outcome, masqueraded: v.masquerade, ...(v.backend ? { backend: v.backend } : {}) };
    },
  };
}
