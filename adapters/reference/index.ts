/**
 * The reference target: a fresh in-process reference cluster per scenario, on a virtual clock.
 * Its API is served on loopback HTTP and reached through the same HTTP client a real cluster
 * is, so the steps exercise the real wire format.
 *
 * This module says what the target offers; the sessions live in ./session.ts, loaded on the
 * first session: the CLI builds the target to read its capabilities before every run, and
 * importing the whole reference (through tsx) cost it about a second before cucumber started.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Capability } from '../../contract/capabilities.ts';
import type { Target } from '../../contract/contract.ts';

const CAPABILITIES: Capability[] = [
  'kv', 'kv.watch', 'kv.compaction', 'kv.snapshot',
  'kv.members', 'kv.members.5', 'net.partition', 'raft.observe',
  'clock.virtual',
  'kube.api', 'kube.watch', 'kube.compaction', 'kube.storage',
  'kube.rbac', 'kube.authn', 'kube.admission', 'kube.audit',
  // Anonymous authentication is on unless a scenario requires it off (one cluster per scenario).
  'kube.authn.anonymous', 'kube.authn.anonymous-off',
  // The controllers the reference runs so far (reference/controllers/registry.ts).
  'controllers.serviceaccount',
  'controllers.replicaset',
  'controllers.deployment',
  'controllers.garbagecollector',
  'controllers.nodelifecycle',
  'controllers.tainteviction',
  'controllers.job',
  'controllers.ttlafterfinished',
  'controllers.disruption',
  'controllers.stoppable',
  // One elected kube-controller-manager process (reference/wiring/controller-manager-process.ts), restartable with --controllers.
  'controllers.leader-elect', 'controllers.flags', 'controllers.podgc',
  'controllers.endpointslice', 'controllers.endpoint', 'controllers.namespace', 'controllers.clusterrole-aggregation',
  // The scheduler (reference/wiring/scheduler.ts); scenarios register their own Node objects.
  'cluster.scheduler', 'cluster.nodes', 'scheduler.recorder-profile',
  'kubelet.eviction', 'kubelet.eviction.soft', 'cri.images.retag', 'kubelet.probes.grpc',
  'kv.fault-schedules',
  'disk.latency',
  'kube.http2', 'kube.inflight-limit', 'kube.metrics', 'kube.authn.webhook', 'kube.authn.oidc', 'kubelet.cert-rotation', 'controllers.csrapproving', 'controllers.csrsigning',
  'kube.podsecurity',
  'kube.admission.quota',
  // CRD conversion webhooks, called over the admission webhook client (apiextensions/webhook-converter.ts).
  'kube.crd.conversion-webhook',
  // Leader-elected control-plane processes (reference/wiring/ha.ts).
  'cluster.ha',
  // A simulated cloud and the cloud-controller-manager (reference/cloud/), or none at all.
  'cluster.cloud', 'cluster.without-cloud',
  // kube-proxy in every mode, its rules read back and its dataplane modelled (reference/proxy/).
  // Not proxy.traffic: no real packet crosses the reference (the kernel target, adapters/kernel/, sends them).
  'proxy.rules', 'proxy.iptables', 'proxy.ipvs', 'proxy.nftables', 'proxy.dataplane',
  // Kubelets with the fake CRI runtime, started per scenario node (nodes.ts).
  'kubelet', 'kubelet.probes', 'cri',
  // The scheduler and a kubelet's node, started for a scenario that asks (steps/flow/).
  'cluster.workloads',
  // The store's client log: one logged store handle per holder (reference/store/client-log.ts).
  'kube.storage.clients',
  // The replicated store's members serve etcd's metrics (reference/sim/metrics.ts).
  'kv.metrics',
  // The fake runtime serves CRI's GetContainerEvents stream (reference/cri/fake/runtime.ts),
  // and a CRI v1 gRPC socket (reference/cri/host/grpc-server.ts) a kubelet can be pointed at (nodes.ts).
  'cri.events', 'cri.grpc', 'kubelet.runtime-endpoint',
  // The cluster DNS (CoreDNS's kubernetes plugin) on real UDP, started by a scenario's first query (reference/wiring/dns.ts).
  'cluster.dns',
];

/** The real kubectl is offered when it is on the PATH (kube-session.ts writes its kubeconfig). */
function kubectlOnPath(): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'kubectl')));
}

/** Where the reference knowingly differs from upstream; each entry fails the run if it starts passing. */
const KNOWN_DEVIATIONS = new Map<string, string>([
]);

export function createReferenceTarget(): Target {
  return {
    name: 'reference',
    capabilities: new Set<Capability>(kubectlOnPath() ? [...CAPABILITIES, 'kubectl'] : CAPABILITIES),
    knownDeviations: KNOWN_DEVIATIONS,
    async start() {},
    openSession: async (ctx) => (await sessionModule()).openReferenceSession(ctx.seed, ctx.tags),
    async stop() {},
  };
}

/**
 * The sessions' module, imported once: under tsx every import() asks its loader thread to
 * resolve the specifier again, even for a module already loaded (~0.3 ms a session).
 */
let sessions: Promise<typeof import('./session.ts')> | undefined;
function sessionModule(): Promise<typeof import('./session.ts')> {
  sessions ??= import('./session.ts');
  return sessions;
}
