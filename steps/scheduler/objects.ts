/**
 * What the scheduler steps write and read through the API: Node objects with stated capacity
 * (registered like a kubelet would, so on a real cluster they are cleaned up afterwards), pods
 * built from a feature's words ("requesting 500m CPU and 512Mi memory", "with nodeSelector
 * "disk=ssd"", "tolerating "dedicated=gpu:NoSchedule"", …), and waits on where pods end up.
 */
import assert from 'node:assert/strict';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess } from '../kube/api.ts';

export const POD_IMAGE = 'registry.k8s.io/pause:3.9';

/** A pod's path: in the scenario's namespace, unless a step created it elsewhere and noted "namespace of <name>". */
export function podPath(world: KubespecWorld, name = ''): string {
  let namespace = world.kube().namespace;
  if (name) {
    try {
      namespace = world.recall<string>(`namespace of ${name}`);
    } catch {
      // made in the scenario's own namespace
    }
  }
  return `/api/v1/namespaces/${namespace}/pods${name ? `/${encodeURIComponent(name)}` : ''}`;
}

/** A Node as its kubelet registers it; `pods` is its pod capacity (kubelet's --max-pods, 110 by default). */
export async function createNode(world: KubespecWorld, name: string, cpu: string, memory: string, labels: Record<string, string> = {}, pods = '110'): Promise<void> {
  const allocatable = { cpu, memory, pods };
  const res = await world.kube().request({
    method: 'POST',
    path: '/api/v1/nodes',
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: {}, status: { capacity: allocatable, allocatable } },
  });
  expectSuccess(res, `register Node "${name}"`);
  world.note(`no kubelet on ${name}`, true);
  world.onCleanup(() => world.kube().request({ method: 'DELETE', path: `/api/v1/nodes/${name}` }));
}

/**
 * A bound pod's deletion is finished by its node's kubelet once the containers stop. On a Node
 * the test registered as a plain API object no kubelet runs, so the test does that last delete
 * (grace period 0) in the kubelet's place — a stand-in for the kubelet, never for the scheduler.
 */
export async function finishDeletionWithoutKubelet(world: KubespecWorld, podPathOf: string): Promise<void> {
  const pod = (await world.kube().request({ method: 'GET', path: podPathOf })).json;
  const node: string | undefined = pod?.spec?.nodeName;
  if (!pod?.metadata?.deletionTimestamp || node === undefined || !world.recallOr(`no kubelet on ${node}`, false)) return;
  await world.kube().request({ method: 'DELETE', path: `${podPathOf}?gracePeriodSeconds=0` });
}

/** A JSON merge patch of a node (labels, taints, unschedulable), as `kubectl label/taint/cordon` would. */
export async function patchNode(world: KubespecWorld, name: string, patch: unknown): Promise<void> {
  const res = await world.kube().request({ method: 'PATCH', path: `/api/v1/nodes/${name}`, body: patch, headers: { 'content-type': 'application/merge-patch+json' } });
  expectSuccess(res, `patch Node "${name}"`);
}

export async function getNode(world: KubespecWorld, name: string): Promise<any> {
  return expectSuccess(await world.kube().request({ method: 'GET', path: `/api/v1/nodes/${name}` }), `get Node "${name}"`);
}

/** "dedicated=gpu:NoSchedule" or "node-role.kubernetes.io/control-plane:NoSchedule". */
export function parseTaint(text: string): { key: string; value?: string; effect: string } {
  const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(text);
  assert.ok(m, `say a taint as key[=value]:Effect, not "${text}"`);
  return { key: m[1]!, ...(m[2] ? { value: m[2] } : {}), effect: m[3]! };
}

export async function addTaint(world: KubespecWorld, node: string, text: string): Promise<void> {
  const current = await getNode(world, node);
  await patchNode(world, node, { spec: { taints: [...(current.spec?.taints ?? []), parseTaint(text)] } });
}

export async function addLabel(world: KubespecWorld, node: string, text: string): Promise<void> {
  const [key, value = ''] = text.split('=');
  await patchNode(world, node, { metadata: { labels: { [key!]: value } } });
}

/**
 * "metadata.name In (n1) and zone In (a)" → a NodeSelectorTerm: requirements on "metadata.name"
 * go to matchFields (the only field a term may select on), the others to matchExpressions.
 */
function nodeSelectorTerm(text: string): { matchExpressions?: any[]; matchFields?: any[] } {
  const term: { matchExpressions?: any[]; matchFields?: any[] } = {};
  for (const part of text.split(' and ')) {
    const r = requirement(part);
    (r.key === 'metadata.name' ? (term.matchFields ??= []) : (term.matchExpressions ??= [])).push(r);
  }
  return term;
}

/** "key In (a, b)", "key NotIn (a)", "key Exists" → a NodeSelectorRequirement. */
function requirement(text: string): { key: string; operator: string; values?: string[] } {
  const m = /^(\S+) (In|NotIn|Exists|DoesNotExist)(?: \(([^)]*)\))?$/.exec(text.trim());
  assert.ok(m, `say a node requirement as "key In (a, b)", not "${text}"`);
  return { key: m[1]!, operator: m[2]!, ...(m[3] !== undefined ? { values: m[3].split(',').map((v) => v.trim()) } : {}) };
}

function labelSelector(text: string): any {
  const [k, v = ''] = text.split('=');
  return { matchLabels: { [k!]: v } };
}

type Spec = Record<string, any>;
/** The clauses a pod description may hold; each adds to the pod. The words must all be understood. */
const CLAUSES: [RegExp, (m: RegExpExecArray, pod: { metadata: any; spec: Spec }, world: KubespecWorld) => void][] = [
  [/requesting (\S+) CPU(?: and (\S+) memory)?/, (m, p) => (p.spec.containers[0].resources = { requests: { cpu: m[1], ...(m[2] ? { memory: m[2] } : {}) } })],
  // One term or several, ORed: with required node affinity "zone In (a)", or
  // with required node affinity terms "metadata.name In (n1) and zone In (a)" or "zone In (b)".
  [/with required node affinity(?: terms?)? ("[^"]*"(?: or "[^"]*")*)/, (m, p) => ((p.spec.affinity ??= {}).nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [...m[1]!.matchAll(/"([^"]*)"/g)].map((t) => nodeSelectorTerm(t[1]!)) } })],
  // Each clause adds one preferred term, so a pod may carry several of different weights.
  [/with preferred node affinity "([^"]*)" of weight (\d+)/, (m, p) => (((p.spec.affinity ??= {}).nodeAffinity ??= {}).preferredDuringSchedulingIgnoredDuringExecution ??= []).push({ weight: Number(m[2]), preference: { matchExpressions: [requirement(m[1]!)] } })],
  [/with required pod affinity to "([^"]*)" on topology key "([^"]*)"/, (m, p) => ((p.spec.affinity ??= {}).podAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: labelSelector(m[1]!), topologyKey: m[2] }] })],
  [/with required anti-affinity to "([^"]*)" on "([^"]*)"/, (m, p) => ((p.spec.affinity ??= {}).podAntiAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: labelSelector(m[1]!), topologyKey: m[2] }] })],
  [/with nodeSelector "([^"]*)"/, (m, p) => (p.spec.nodeSelector = { [m[1]!.split('=')[0]!]: m[1]!.split('=')[1] ?? '' })],
  [/(?:with )?toleration key "([^"]*)" operator (Equal|Exists)(?: value "([^"]*)")?(?: effect "([^"]*)")?/, (m, p) => (p.spec.tolerations ??= []).push({ key: m[1], operator: m[2], ...(m[3] ? { value: m[3] } : {}), ...(m[4] ? { effect: m[4] } : {}) })],
  // No operator at all: the API stores none, and a toleration without one compares values (Equal).
  [/(?:with )?toleration key "([^"]*)" value "([^"]*)"(?: effect "([^"]*)")? and no operator/, (m, p) => (p.spec.tolerations ??= []).push({ key: m[1], value: m[2], ...(m[3] ? { effect: m[3] } : {}) })],
  // An operator sent as the empty string: upstream's ToleratesTaint (staging/src/k8s.io/api/core/v1/toleration.go)
  // takes "" as Equal, and validation admits it.
  [/(?:with )?toleration key "([^"]*)" value "([^"]*)"(?: effect "([^"]*)")? and an empty operator/, (m, p) => (p.spec.tolerations ??= []).push({ key: m[1], operator: '', value: m[2], ...(m[3] ? { effect: m[3] } : {}) })],
  [/with toleration operator Exists and no key(?: effect "([^"]*)")?/, (m, p) => (p.spec.tolerations ??= []).push({ operator: 'Exists', ...(m[1] ? { effect: m[1] } : {}) })],
  [/tolerating "([^"]*)"(?: with effect "([^"]*)")?/, (m, p) => {
    const t = m[2] ? { key: m[1]!, effect: m[2] } : parseTaint(m[1]!);
    (p.spec.tolerations ??= []).push({ key: t.key, operator: 'value' in t && t.value ? 'Equal' : 'Exists', ...('value' in t && t.value ? { value: t.value } : {}), effect: t.effect });
  }],
  [/and tolerationSeconds (\d+)/, (m, p) => (p.spec.tolerations.at(-1).tolerationSeconds = Number(m[1]))],
  [/ for (\d+) s(?= |$)/, (m, p) => (p.spec.tolerations.at(-1).tolerationSeconds = Number(m[1]))],
  [/with priorityClassName "([^"]*)"/, (m, p, w) => (p.spec.priorityClassName = expandNs(w.kube(), m[1]!))],
  [/with spec\.nodeName "([^"]*)"/, (m, p) => (p.spec.nodeName = m[1])],
  [/with image "([^"]*)"/, (m, p) => (p.spec.containers[0].image = m[1])],
  [/with one container named "([^"]*)"/, (m, p) => (p.spec.containers[0].name = m[1])],
  [/with label "([^"]*)"/, (m, p) => (p.metadata.labels = { ...(p.metadata.labels ?? {}), [m[1]!.split('=')[0]!]: m[1]!.split('=')[1] ?? '' })],
  [/labelled "([^"]*)"/, (m, p) => (p.metadata.labels = { ...(p.metadata.labels ?? {}), [m[1]!.split('=')[0]!]: m[1]!.split('=')[1] ?? '' })],
  [/with schedulerName "([^"]*)"/, (m, p) => (p.spec.schedulerName = m[1])],
  [/with no (?:priorityClassName|tolerations)(?: of its own)?|and no tolerations of its own/, () => undefined],
];

export function podObject(world: KubespecWorld, name: string, words: string): any {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name } as any, spec: { containers: [{ name: 'main', image: POD_IMAGE }] } as Spec };
  let rest = ` ${words} `;
  for (const [re, apply] of CLAUSES) {
    for (let m = re.exec(rest); m; m = re.exec(rest)) {
      apply(m, pod, world);
      rest = rest.replace(m[0], ' ');
    }
  }
  assert.ok(/^[\s,]*(?:(?:and|with)[\s,]*)*$/.test(rest), `these words about Pod "${name}" are not understood: "${rest.trim()}"`);
  return pod;
}

export async function createPod(world: KubespecWorld, name: string, words = ''): Promise<any> {
  const res = await world.kube().request({ method: 'POST', path: podPath(world), body: podObject(world, name, words) });
  world.note('last created pod', name);
  return expectSuccess(res, `create Pod "${name}"`);
}

export async function getPod(world: KubespecWorld, name: string): Promise<any | undefined> {
  const res = await world.kube().request({ method: 'GET', path: podPath(world, name) });
  return res.status === 200 ? res.json : undefined;
}

/** Wait until the pod is bound; returns its node. */
export async function boundNode(world: KubespecWorld, name: string, seconds: number): Promise<string> {
  let node: string | undefined;
  const refused = (() => { try { return world.recall<string>(`refused ${name}`); } catch { return undefined; } })();
  assert.equal(refused, undefined, `Pod "${name}" was refused when created: ${refused}`);
  await world.eventually(`Pod "${name}" bound to a node`, async () => Boolean((node = (await getPod(world, name))?.spec?.nodeName)), seconds * 1000);
  return node!;
}

/** Let time pass: virtual time on the reference, real time elsewhere. */
export async function passTime(world: KubespecWorld, seconds: number): Promise<void> {
  if (world.session.clock) await world.session.clock.advance(seconds * 1000);
  else await new Promise((r) => setTimeout(r, seconds * 1000));
}

export function isPending(pod: any): boolean {
  return Boolean(pod) && !pod.spec?.nodeName && (pod.status?.phase ?? 'Pending') === 'Pending';
}

export function podScheduled(pod: any): any {
  return (pod?.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled');
}
