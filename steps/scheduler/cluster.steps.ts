/**
 * Steps that set the scene for the scheduler: nodes with stated capacity, labels, taints,
 * cordons and images, written through the API (as kubelets and `kubectl label/taint/cordon` do),
 * pods already on a node, and PriorityClasses.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess } from '../kube/api.ts';
import { addLabel, addTaint, createNode, createPod, getNode, parseTaint, passTime, patchNode } from './objects.ts';

/** `"a1" and "a2" labelled "zone=a" and "b1" labelled "zone=b"`: each label applies to the names since the last one. */
function namesWithLabels(text: string): { name: string; labels: Record<string, string> }[] {
  const out: { name: string; labels: Record<string, string> }[] = [];
  let pending: string[] = [];
  for (const m of text.matchAll(/(labelled )?"([^"]*)"/g)) {
    if (!m[1]) {
      pending.push(m[2]!);
      continue;
    }
    const [k, v = ''] = m[2]!.split('=');
    for (const name of pending) out.push({ name, labels: { [k!]: v } });
    pending = [];
  }
  for (const name of pending) out.push({ name, labels: {} });
  return out;
}

Given(/^a cluster with the controllers running and (nodes? .+)$/, async function (this: KubespecWorld, rest: string) {
  assert.ok([...this.target.capabilities].some((c) => c === 'cluster.controllers' || c.startsWith('controllers.')), 'this target runs no controllers');
  const one = /^node "([^"]*)" with (\S+) CPU and (\S+) memory$/.exec(rest);
  const many = /^nodes (.+), each with (\S+) CPU and (\S+) memory$/.exec(rest);
  assert.ok(one || many, `say the nodes as 'node "n1" with 4 CPU and 8Gi memory' or 'nodes "n1" and "n2", each with …', not "${rest}"`);
  if (one) await createNode(this, one[1]!, one[2]!, one[3]!);
  else for (const n of namesWithLabels(many![1]!)) await createNode(this, n.name, many![2]!, many![3]!, n.labels);
});

Given('a cluster with no node registered', async function (this: KubespecWorld) {
  const nodes = expectSuccess(await this.kube().request({ method: 'GET', path: '/api/v1/nodes' }), 'list Nodes');
  assert.deepEqual((nodes.items ?? []).map((n: any) => n.metadata.name), [], 'this cluster already has nodes');
});

Given(/^a cluster with (\d+) nodes "([^"]*)-1" to "\2-\1", each with (\S+) CPU and (\S+) memory, registered in that order$/, async function (this: KubespecWorld, count: string, prefix: string, cpu: string, memory: string) {
  for (let i = 1; i <= Number(count); i++) await createNode(this, `${prefix}-${i}`, cpu, memory);
});

Given(/^a cluster with nodes (.+), each with (\S+) CPU and (\S+) memory$/, async function (this: KubespecWorld, names: string, cpu: string, memory: string) {
  for (const n of namesWithLabels(names)) await createNode(this, n.name, cpu, memory, n.labels);
});

Given(/^a cluster with node "([^"]*)" with (\S+) CPU and (\S+) memory(, cordoned)?$/, async function (this: KubespecWorld, name: string, cpu: string, memory: string, cordoned?: string) {
  await createNode(this, name, cpu, memory);
  if (cordoned) await patchNode(this, name, { spec: { unschedulable: true } });
});

Given(/^a cluster with node "([^"]*)" with (\S+) CPU and (\S+) memory and room for (\d+) pods?$/, async function (this: KubespecWorld, name: string, cpu: string, memory: string, pods: string) {
  await createNode(this, name, cpu, memory, {}, pods);
});

Given(/^a cluster with node "([^"]*)" with (\S+) CPU and (\S+) memory and node "([^"]*)" with (\S+) CPU and (\S+) memory$/, async function (this: KubespecWorld, a: string, cpuA: string, memA: string, b: string, cpuB: string, memB: string) {
  await createNode(this, a, cpuA, memA);
  await createNode(this, b, cpuB, memB);
});

Given(/^a cluster with node "([^"]*)" with (\S+) CPU and node "([^"]*)" with (\S+) CPU, each with (\S+) memory$/, async function (this: KubespecWorld, a: string, cpuA: string, b: string, cpuB: string, memory: string) {
  await createNode(this, a, cpuA, memory);
  await createNode(this, b, cpuB, memory);
});

Given(/^a cluster with (?:only )?node "([^"]*)" tainted "([^"]*)"(?: and worker nodes (.+))?$/, async function (this: KubespecWorld, master: string, taint: string, workers?: string) {
  await createNode(this, master, '4', '8Gi', { 'node-role.kubernetes.io/control-plane': '' });
  await addTaint(this, master, taint);
  for (const n of namesWithLabels(workers ?? '')) await createNode(this, n.name, '4', '8Gi');
});

// A node that registers after the pods were created: the scheduler's NodeAdd event, which moves
// back the pods its plugins rejected (EventsToRegister in each plugin, scheduling_queue.go).
When(/^Node "([^"]*)" with (\S+) CPU and (\S+) memory(?:, labelled "([^"]*)",)? joins the cluster$/, async function (this: KubespecWorld, name: string, cpu: string, memory: string, label?: string) {
  const [key, value = ''] = label ? label.split('=') : [];
  await createNode(this, name, cpu, memory, key ? { [key]: value } : {});
});

// The kubelet reports a new allocatable (e.g. after its reserved resources were lowered): a
// status patch, as the kubelet's node status update writes it.
When(/^Node "([^"]*)" reports (\S+) CPU and (\S+) memory allocatable$/, async function (this: KubespecWorld, node: string, cpu: string, memory: string) {
  const current = await getNode(this, node);
  const allocatable = { ...(current.status?.allocatable ?? {}), cpu, memory };
  const res = await this.kube().request({ method: 'PATCH', path: `/api/v1/nodes/${node}/status`, body: { status: { capacity: allocatable, allocatable } }, headers: { 'content-type': 'application/merge-patch+json' } });
  expectSuccess(res, `report the allocatable of Node "${node}"`);
});

Given(/^Node "([^"]*)" (?:has|is given) label "([^"]*)"$/, async function (this: KubespecWorld, node: string, label: string) {
  await addLabel(this, node, label);
});

When(/^the label "([^"]*)" is removed from Node "([^"]*)"$/, async function (this: KubespecWorld, key: string, node: string) {
  await patchNode(this, node, { metadata: { labels: { [key]: null } } });
});

Given(/^Node "([^"]*)" (?:has|is given) taint "([^"]*)"$/, async function (this: KubespecWorld, node: string, taint: string) {
  await addTaint(this, node, taint);
  if (this.session.clock) this.note('tainted at', this.session.clock.now_ms());
});

When(/^the taint "([^"]*)" is removed from Node "([^"]*)"$/, async function (this: KubespecWorld, key: string, node: string) {
  const current = await getNode(this, node);
  await patchNode(this, node, { spec: { taints: (current.spec?.taints ?? []).filter((t: any) => t.key !== key) } });
});

When(/^Node "([^"]*)" is (un)?cordoned$/, async function (this: KubespecWorld, node: string, un?: string) {
  await patchNode(this, node, { spec: { unschedulable: un ? null : true } });
});

Given(/^Node "([^"]*)" reports image "([^"]*)" of (\S+) in its status$/, async function (this: KubespecWorld, node: string, image: string, size: string) {
  const bytes = Number(/^(\d+)Mi$/.exec(size)?.[1] ?? NaN) * 1024 * 1024;
  assert.ok(Number.isFinite(bytes), `say the size in Mi, not "${size}"`);
  const res = await this.kube().request({ method: 'PATCH', path: `/api/v1/nodes/${node}/status`, body: { status: { images: [{ names: [image], sizeBytes: bytes }] } }, headers: { 'content-type': 'application/merge-patch+json' } });
  expectSuccess(res, `report images of Node "${node}"`);
});

// ---- pods already on a node -----------------------------------------------------------------

Given(/^Pod "([^"]*)" ((?:with|requesting) .+) is on Node "([^"]*)"$/, async function (this: KubespecWorld, name: string, words: string, node: string) {
  await createPod(this, name, `${words} with spec.nodeName "${node}"`);
});

Given(/^Pod "([^"]*)" is on Node "([^"]*)" ((?:with|requesting|tolerating) .+)$/, async function (this: KubespecWorld, name: string, node: string, words: string) {
  await createPod(this, name, `${words} with spec.nodeName "${node}"`);
});

Given(/^pods requesting a total of (\S+) CPU(?: and (\S+) memory)? are on Node "([^"]*)"$/, async function (this: KubespecWorld, cpu: string, memory: string | undefined, node: string) {
  await createPod(this, `load-${node}`, `requesting ${cpu} CPU${memory ? ` and ${memory} memory` : ''} with spec.nodeName "${node}"`);
});

Given(/^Pod "([^"]*)" exists with spec\.nodeName "([^"]*)"$/, async function (this: KubespecWorld, name: string, node: string) {
  await createPod(this, name, `with spec.nodeName "${node}"`);
});

// ---- PriorityClasses ------------------------------------------------------------------------

async function createPriorityClass(world: KubespecWorld, rawName: string, value: number, extra: Record<string, unknown> = {}): Promise<any> {
  const name = expandNs(world.kube(), rawName);
  const res = await world.kube().request({ method: 'POST', path: '/apis/scheduling.k8s.io/v1/priorityclasses', body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra } });
  world.onCleanup(() => world.kube().request({ method: 'DELETE', path: `/apis/scheduling.k8s.io/v1/priorityclasses/${name}` }));
  return res;
}

Given(/^PriorityClass(?:es)? "([^"]*)" with value (\d+)(?: and "([^"]*)" with value (\d+)(?: and preemptionPolicy "([^"]*)")?)?$/, async function (this: KubespecWorld, a: string, va: string, b?: string, vb?: string, policy?: string) {
  expectSuccess(await createPriorityClass(this, a, Number(va)), `create PriorityClass ${a}`);
  if (b) expectSuccess(await createPriorityClass(this, b, Number(vb), policy ? { preemptionPolicy: policy } : {}), `create PriorityClass ${b}`);
});

Given(/^PriorityClass "([^"]*)" exists with value (\d+) and globalDefault (true|false)$/, async function (this: KubespecWorld, name: string, value: string, globalDefault: string) {
  expectSuccess(await createPriorityClass(this, name, Number(value), { globalDefault: globalDefault === 'true' }), `create PriorityClass ${name}`);
});

When(/^PriorityClass "([^"]*)" is created with apiVersion "scheduling\.k8s\.io\/v1", value (\d+), globalDefault (true|false) and description "([^"]*)"$/, async function (this: KubespecWorld, name: string, value: string, globalDefault: string, description: string) {
  this.note('last response', await createPriorityClass(this, name, Number(value), { globalDefault: globalDefault === 'true', description }));
});

Given('a cluster with no PriorityClass marked globalDefault', async function (this: KubespecWorld) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: '/apis/scheduling.k8s.io/v1/priorityclasses' }), 'list PriorityClasses');
  assert.deepEqual(list.items.filter((pc: any) => pc.globalDefault).map((pc: any) => pc.metadata.name), []);
});

// ---- time -----------------------------------------------------------------------------------

When(/^(\d+) s pass(?:, so that neither pod is still in scheduling backoff)?$/, async function (this: KubespecWorld, seconds: string) {
  await passTime(this, Number(seconds));
});

// ---- reading nodes back ---------------------------------------------------------------------

Then(/^Node "([^"]*)" has exactly one taint, with key "([^"]*)", value "([^"]*)" and effect "([^"]*)"$/, async function (this: KubespecWorld, node: string, key: string, value: string, effect: string) {
  assert.deepEqual((await getNode(this, node)).spec?.taints, [{ key, value, effect }]);
});

Then(/^within (\d+) s Node "([^"]*)" has spec\.unschedulable (true|false) and (a|no) taint "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, node: string, flag: string, a: string, taint: string) {
  const t = parseTaint(taint);
  let n: any;
  await this.eventually(`Node "${node}" unschedulable=${flag}, ${a} taint ${taint}`, async () => {
    n = await getNode(this, node);
    const has = (n.spec?.taints ?? []).some((x: any) => x.key === t.key && x.effect === t.effect);
    return Boolean(n.spec?.unschedulable) === (flag === 'true') && has === (a === 'a');
  }, Number(seconds) * 1000).catch((e) => {
    throw new Error(`${(e as Error).message}; spec: ${JSON.stringify(n?.spec)}`);
  });
});

When('the nodes labelled {string} are listed', async function (this: KubespecWorld, label: string) {
  const list = expectSuccess(await this.kube().request({ method: 'GET', path: `/api/v1/nodes?labelSelector=${encodeURIComponent(label)}` }), 'list nodes');
  this.note('listed nodes', list.items);
});

Then(/^(each|none) of them has a taint with key "([^"]*)" and effect "([^"]*)"$/, function (this: KubespecWorld, which: string, key: string, effect: string) {
  for (const node of this.recall<any[]>('listed nodes')) {
    const has = (node.spec?.taints ?? []).some((t: any) => t.key === key && t.effect === effect);
    assert.equal(has, which === 'each', `Node "${node.metadata.name}" taints: ${JSON.stringify(node.spec?.taints)}`);
  }
});
