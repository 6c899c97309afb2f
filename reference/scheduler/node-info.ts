/**
 * Per-node aggregates the plugins read (framework.NodeInfo), and the snapshot a scheduling cycle
 * runs against (pkg/scheduler/backend/cache/snapshot.go). A NodeInfo is updated incrementally as
 * pods are added or removed, so a cycle never rescans every pod of the cluster: requested and
 * non-zero-requested resources, the pods with (anti-)affinity terms, and the images on the node
 * are all kept up to date.
 */
import { bytes, milliCPU, parseQuantity, podRequests, type Resources } from './resources.ts';
import type { Node, Pod } from './types.ts';
import { podKey } from './types.ts';

export interface Allocatable extends Resources {
  pods: number;
}

export class NodeInfo {
  readonly pods = new Map<string, Pod>();
  readonly requested: Resources = { milliCPU: 0, memory: 0 };
  /** Requests with the scoring defaults for missing ones (resources.ts). */
  readonly nonZeroRequested: Resources = { milliCPU: 0, memory: 0 };
  /** Pods on the node with any pod affinity or anti-affinity term. */
  readonly podsWithAffinity = new Map<string, Pod>();
  /** Pods on the node with required anti-affinity terms, which can reject an incoming pod. */
  readonly podsWithRequiredAntiAffinity = new Map<string, Pod>();
  allocatable: Allocatable = { milliCPU: 0, memory: 0, pods: 0 };
  /** Image name → size in bytes. */
  images = new Map<string, number>();
  /** Bumped on every change, so a snapshot can tell what moved. */
  generation = 0;
  /** Sums over this node's pods remembered by `tally`, kept current as pods come and go. */
  private readonly tallies = new Map<string, { sum: number; weigh: (pod: Pod) => number }>();
  /** The node's domain key per topology key (topology.ts domainOf), until the node changes. */
  readonly domains = new Map<string, string | undefined>();

  constructor(public node: Node) {
    this.setNode(node);
  }

  get name(): string {
    return this.node.metadata.name;
  }

  setNode(node: Node): void {
    this.node = node;
    this.domains.clear();
    const a = node.status?.allocatable ?? node.status?.capacity ?? {};
    this.allocatable = { milliCPU: milliCPU(a['cpu']), memory: bytes(a['memory']), pods: Math.floor(parseQuantity(a['pods'])) || 0 };
    this.images = new Map();
    for (const image of node.status?.images ?? []) {
      for (const name of image.names ?? []) this.images.set(normalizedImageName(name), image.sizeBytes ?? 0);
    }
    this.generation++;
  }

  addPod(pod: Pod): void {
    const key = podKey(pod);
    const old = this.pods.get(key);
    // An update that leaves what tallies read alone (the kubelet's status reports) is not weighed again.
    const weighAgain = old === undefined || !countedAlike(old, pod);
    if (old) this.drop(old, weighAgain);
    this.pods.set(key, pod);
    this.account(pod, 1);
    if (weighAgain) for (const t of this.tallies.values()) t.sum += t.weigh(pod);
    if (hasPodAffinityTerms(pod)) this.podsWithAffinity.set(key, pod);
    if (hasRequiredAntiAffinity(pod)) this.podsWithRequiredAntiAffinity.set(key, pod);
    this.generation++;
  }

  removePod(pod: Pod): boolean {
    const had = this.pods.get(podKey(pod));
    if (!had) return false;
    this.drop(had, true);
    return true;
  }

  private drop(had: Pod, unweigh: boolean): void {
    const key = podKey(had);
    this.pods.delete(key);
    this.account(had, -1);
    if (unweigh) for (const t of this.tallies.values()) t.sum -= t.weigh(had);
    this.podsWithAffinity.delete(key);
    this.podsWithRequiredAntiAffinity.delete(key);
    this.generation++;
  }

  /**
   * The sum of `weigh` over the node's pods. `key` must name `weigh` completely (what it selects
   * and how it counts), and `weigh` may read only a pod's namespace, labels and deletionTimestamp
   * (countedAlike): the sum is counted once and then kept current, each pod added or removed
   * weighed against every sum remembered (a pod updated in any of those is both). The
   * cycles of one workload's pods ask the same question of every node; recounting a node's pods
   * whenever one of them changed (upstream recounts every node each cycle, in parallel) made
   * every status update cost a recount of every workload's sum on that node.
   */
  tally(key: string, weigh: (pod: Pod) => number): number {
    let t = this.tallies.get(key);
    if (t === undefined) {
      let sum = 0;
      for (const pod of this.pods.values()) sum += weigh(pod);
      this.tallies.set(key, (t = { sum, weigh }));
    }
    return t.sum;
  }

  /** A copy whose pods can be changed without touching this one (preemption's what-ifs). */
  clone(): NodeInfo {
    const copy = new NodeInfo(this.node);
    for (const pod of this.pods.values()) copy.addPod(pod);
    return copy;
  }

  private account(pod: Pod, sign: 1 | -1): void {
    const r = podRequests(pod);
    const nz = podRequests(pod, true);
    this.requested.milliCPU += sign * r.milliCPU;
    this.requested.memory += sign * r.memory;
    this.nonZeroRequested.milliCPU += sign * nz.milliCPU;
    this.nonZeroRequested.memory += sign * nz.memory;
  }
}

/** Whether two versions of a pod weigh the same in every tally: namespace, labels and deletionTimestamp alike. */
function countedAlike(a: Pod, b: Pod): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  return ma.namespace === mb.namespace && ma.deletionTimestamp === mb.deletionTimestamp && sameLabels(ma.labels, mb.labels);
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === b) return true;
  let count = 0;
  for (const k in a) {
    if (b?.[k] !== a[k]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

export function hasPodAffinityTerms(pod: Pod): boolean {
  const a = pod.spec.affinity;
  return Boolean(a?.podAffinity || a?.podAntiAffinity);
}

export function hasRequiredAntiAffinity(pod: Pod): boolean {
  return (pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length > 0;
}

/** `nginx` and `docker.io/library/nginx:latest` are the same image (imagelocality normalizedImageName adds the tag). */
export function normalizedImageName(name: string): string {
  const lastSlash = name.lastIndexOf('/');
  return name.slice(lastSlash + 1).includes(':') || name.includes('@') ? name : `${name}:latest`;
}

/** PodDisruptionBudget as preemption reads it. */
export interface Pdb {
  metadata: { name: string; namespace?: string };
  spec?: { selector?: any };
  status?: { disruptionsAllowed?: number };
}

/**
 * What one cycle sees: every node's info in a stable order, the PDBs, and the pods nominated to
 * a node by an earlier preemption (they count on that node for pods of lower or equal priority).
 */
export interface Snapshot {
  readonly nodes: readonly NodeInfo[];
  get(name: string): NodeInfo | undefined;
  readonly pdbs: readonly Pdb[];
  /** Pods nominated to each node and not yet bound. */
  nominated(node: string): readonly Pod[];
  /** Nodes holding at least one pod with affinity / with required anti-affinity (InterPodAffinity). */
  readonly havePodsWithAffinity: readonly NodeInfo[];
  readonly havePodsWithRequiredAntiAffinity: readonly NodeInfo[];
  /** How many nodes hold the image (normalised name). */
  nodesWithImage(image: string): number;
  /**
   * The label selector a pod's default spread constraints use (helper.DefaultSelector): what the
   * Services selecting it and the controller owning it select; undefined when nothing does.
   */
  defaultSpreadSelector?(pod: Pod): any | undefined;
}

/** A snapshot over a fixed set of NodeInfos (tests, and the cache's per-cycle view). */
export function snapshotOf(nodes: readonly NodeInfo[], opts: { pdbs?: readonly Pdb[]; nominated?: ReadonlyMap<string, readonly Pod[]> } = {}): Snapshot {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  let withAffinity: NodeInfo[] | undefined;
  let images: Map<string, number> | undefined;
  let withAnti: NodeInfo[] | undefined;
  return {
    nodes,
    get: (name) => byName.get(name),
    pdbs: opts.pdbs ?? [],
    nominated: (node) => opts.nominated?.get(node) ?? [],
    get havePodsWithAffinity() {
      return (withAffinity ??= nodes.filter((n) => n.podsWithAffinity.size > 0));
    },
    get havePodsWithRequiredAntiAffinity() {
      return (withAnti ??= nodes.filter((n) => n.podsWithRequiredAntiAffinity.size > 0));
    },
    nodesWithImage(image) {
      if (!images) {
        images = new Map();
        for (const n of nodes) for (const i of n.images.keys()) images.set(i, (images.get(i) ?? 0) + 1);
      }
      return images.get(image) ?? 0;
    },
  };
}
