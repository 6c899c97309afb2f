/**
 * Steps about where the scheduler puts pods and what it tells about those it cannot place: the
 * pod's spec.nodeName, its PodScheduled condition, status.nominatedNodeName, preemption's
 * deletions, and the binding requests in the request trace (`kube.audit`).
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, LAST_RESPONSE, traceSinceMark } from '../kube/api.ts';
import { boundNode, createPod, finishDeletionWithoutKubelet, getPod, isPending, passTime, podObject, podPath, podScheduled } from './objects.ts';

When(/^Pod "([^"]*)" is created ((?!with no containers$)(?:with|requesting|tolerating) .+)$/, async function (this: KubespecWorld, name: string, words: string) {
  // Kept, not asserted: some scenarios are about the refusal ("Then the response status is 403").
  const res = await this.kube().request({ method: 'POST', path: podPath(this, ''), body: podObject(this, name, words) });
  this.note(LAST_RESPONSE, res);
  this.note('last created pod', name);
  if (res.status >= 300) this.note(`refused ${name}`, res.text.slice(0, 400));
});

When(/^Pod "([^"]*)" ((?:with|requesting) .+) was created (?:first|second)$/, async function (this: KubespecWorld, name: string, words: string) {
  await createPod(this, name, words);
});

When(/^Pod "([^"]*)" is created, refused or not, ((?:with|requesting|tolerating) .+)$/, async function (this: KubespecWorld, name: string, words: string) {
  this.note(LAST_RESPONSE, await this.kube().request({ method: 'POST', path: podPath(this), body: podObject(this, name, words) }));
});

When(/^(\d+) pods are created, one at a time, each requesting (\S+) CPU and (\S+) memory$/, async function (this: KubespecWorld, count: string, cpu: string, memory: string) {
  for (let i = 1; i <= Number(count); i++) {
    await createPod(this, `spread-${i}`, `requesting ${cpu} CPU and ${memory} memory`);
    await boundNode(this, `spread-${i}`, 10);
  }
});

When(/^(\d+) pods are created, one at a time, each (with .+)$/, async function (this: KubespecWorld, count: string, words: string) {
  const nodes: string[] = [];
  for (let i = 1; i <= Number(count); i++) {
    await createPod(this, `spread-${i}`, words);
    nodes.push(await boundNode(this, `spread-${i}`, 10));
  }
  this.note('spread nodes', nodes);
});

Then(/^exactly (\d+) of them (?:is|are) on Node "([^"]*)"$/, function (this: KubespecWorld, count: string, node: string) {
  const placed = this.recall<string[]>('spread nodes');
  assert.equal(placed.filter((n) => n === node).length, Number(count), `placed: ${JSON.stringify(placed)}`);
});

When(/^I create (\d+) pods with no tolerations$/, async function (this: KubespecWorld, count: string) {
  for (let i = 1; i <= Number(count); i++) await createPod(this, `biz-${i}`, 'requesting 100m CPU');
});

When(/^I create pod "([^"]*)" (with no tolerations|tolerating .+)$/, async function (this: KubespecWorld, name: string, words: string) {
  await createPod(this, name, words);
});

When('a Binding of Pod {string} to Node {string} is posted', async function (this: KubespecWorld, name: string, node: string) {
  const body = { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
  this.note(LAST_RESPONSE, await this.kube().request({ method: 'POST', path: `${podPath(this, name)}/binding`, body }));
});

// ---- where pods are -------------------------------------------------------------------------

Then(/^within (\d+) (?:s|seconds) (?:Pod|pod) "([^"]*)" is (?:on|bound to) (?:Node|node) "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, name: string, node: string) {
  assert.equal(await boundNode(this, name, Number(seconds)), node, `Pod "${name}" was bound to another node`);
});

Then(/^within (\d+) s Pod "([^"]*)" is bound to a node$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await boundNode(this, name, Number(seconds));
});

Then(/^Pod "([^"]*)" is on Node "([^"]*)"$/, async function (this: KubespecWorld, name: string, node: string) {
  assert.equal((await getPod(this, name))?.spec?.nodeName, node);
});

Then(/^after (\d+) s Pod "([^"]*)" is (?:still )?(?:on Node "([^"]*)"|(Pending))$/, async function (this: KubespecWorld, seconds: string, name: string, node?: string, _pending?: string) {
  await passTime(this, Number(seconds));
  const pod = await getPod(this, name);
  if (node) assert.equal(pod?.spec?.nodeName, node, `Pod "${name}" should be on Node "${node}": ${JSON.stringify(pod?.status)}`);
  else assert.ok(isPending(pod), `Pod "${name}" should still be Pending, but is ${JSON.stringify({ node: pod?.spec?.nodeName, phase: pod?.status?.phase })}`);
});

Then(/^Pod "([^"]*)" is still Pending(?: with reason "([^"]*)")?$/, async function (this: KubespecWorld, name: string, reason?: string) {
  let pod: any;
  await this.eventually(`Pod "${name}" marked ${reason ?? 'Pending'}`, async () => isPending((pod = await getPod(this, name))) && (!reason || podScheduled(pod)?.reason === reason), 10_000);
});

Then(/^(?:Pod "([^"]*)"|its) (?:has condition |)PodScheduled(?: condition|=)(True|False)?(?: with reason "([^"]*)")?(?: and a message (containing|starting) "([^"]*)")?$/, async function (this: KubespecWorld, name: string | undefined, want: string | undefined, reason?: string, how?: string, text?: string) {
  const podName = name ?? this.recall<string>('pod in question');
  let condition: any;
  const ok = (c: any) => Boolean(c) && (!want || c.status === want) && (!reason || c.reason === reason) && (!text || (how === 'starting' ? String(c.message).startsWith(text) : String(c.message).includes(text)));
  await this.eventually(`Pod "${podName}" PodScheduled=${want} ${reason ?? ''} ${text ?? ''}`, async () => ok((condition = podScheduled(await getPod(this, podName)))), 10_000).catch((e) => {
    throw new Error(`${(e as Error).message}; the condition is ${JSON.stringify(condition)}`);
  });
  this.note('pod in question', podName);
  this.note('scheduled condition', condition);
});

Then(/^its PodScheduled condition message starts "([^"]*)"$/, async function (this: KubespecWorld, text: string) {
  const name = this.recall<string>('last created pod');
  let condition: any;
  await this.eventually(`PodScheduled message of "${name}"`, async () => String((condition = podScheduled(await getPod(this, name)))?.message ?? '').startsWith(text), 10_000).catch((e) => {
    throw new Error(`${(e as Error).message}; the condition is ${JSON.stringify(condition)}`);
  });
  this.note('scheduled condition', condition);
});

Then(/^that message mentions "([^"]*)" and "([^"]*)"$/, function (this: KubespecWorld, a: string, b: string) {
  const message = String(this.recall<any>('scheduled condition')?.message);
  assert.ok(message.includes(a) && message.includes(b), `message: ${message}`);
});

Then(/^[Pp]od "([^"]*)" has condition "PodScheduled" with status "(True|False)" and a message containing "([^"]*)"$/, async function (this: KubespecWorld, name: string, status: string, text: string) {
  let condition: any;
  await this.eventually(`Pod "${name}" PodScheduled=${status} mentioning ${text}`, async () => {
    condition = podScheduled(await getPod(this, name));
    return condition?.status === status && String(condition.message).includes(text);
  }, 10_000).catch((e) => {
    throw new Error(`${(e as Error).message}; the condition is ${JSON.stringify(condition)}`);
  });
});

Then(/^within (\d+) seconds all (\d+) pods are bound to "([^"]*)" or "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, count: string, a: string, b: string) {
  for (let i = 1; i <= Number(count); i++) assert.ok([a, b].includes(await boundNode(this, `biz-${i}`, Number(seconds))), `biz-${i} went elsewhere`);
});

Then(/^within (\d+) s all (\d+) pods are bound$/, async function (this: KubespecWorld, seconds: string, count: string) {
  const nodes: string[] = [];
  for (let i = 1; i <= Number(count); i++) nodes.push(await boundNode(this, `spread-${i}`, Number(seconds)));
  this.note('spread nodes', nodes);
});

Then(/^no node holds more than (\d+) of them and none fewer than (\d+)$/, function (this: KubespecWorld, most: string, least: string) {
  const counts = new Map<string, number>();
  for (const n of this.recall<string[]>('spread nodes')) counts.set(n, (counts.get(n) ?? 0) + 1);
  const values = [...counts.values()];
  assert.ok(values.length === 3 && Math.max(...values) <= Number(most) && Math.min(...values) >= Number(least), `spread: ${JSON.stringify(Object.fromEntries(counts))}`);
});

Then(/^within (\d+) s the (\d+) pods are on (\d+) different nodes$/, async function (this: KubespecWorld, seconds: string, count: string, distinct: string) {
  const nodes = new Set<string>();
  for (let i = 1; i <= Number(count); i++) nodes.add(await boundNode(this, `ha-${i}`, Number(seconds)));
  assert.equal(nodes.size, Number(distinct));
});

// ---- priority and preemption ----------------------------------------------------------------

Then(/^Pod "([^"]*)" has spec\.priority (\d+)$/, async function (this: KubespecWorld, name: string, value: string) {
  assert.equal((await getPod(this, name))?.spec?.priority, Number(value));
});

Then(/^within (\d+) s Pod "([^"]*)" is marked for deletion$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await this.eventually(`Pod "${name}" marked for deletion`, async () => {
    const pod = await getPod(this, name);
    return !pod || Boolean(pod.metadata.deletionTimestamp);
  }, Number(seconds) * 1000);
});

Then(/^Pod "([^"]*)" is not marked for deletion$/, async function (this: KubespecWorld, name: string) {
  const pod = await getPod(this, name);
  assert.ok(pod && !pod.metadata.deletionTimestamp, `Pod "${name}": ${JSON.stringify(pod?.metadata)}`);
});

Then(/^Pod "([^"]*)" has status\.nominatedNodeName "([^"]*)"$/, async function (this: KubespecWorld, name: string, node: string) {
  let pod: any;
  await this.eventually(`Pod "${name}" nominated to ${node}`, async () => (pod = await getPod(this, name))?.status?.nominatedNodeName === node || pod?.spec?.nodeName === node, 10_000);
  if (!pod.spec?.nodeName) assert.equal(pod.status.nominatedNodeName, node);
});

Then(/^once Pod "([^"]*)" is gone, within (\d+) s Pod "([^"]*)" is on Node "([^"]*)"$/, async function (this: KubespecWorld, victim: string, seconds: string, name: string, node: string) {
  await finishDeletionWithoutKubelet(this, podPath(this, victim));
  await this.eventually(`Pod "${victim}" gone`, async () => !(await getPod(this, victim)), 60_000);
  assert.equal(await boundNode(this, name, Number(seconds)), node);
});

/** Deleted through the API; on a node with no kubelet the test finishes the deletion in its place. */
When(/^Pod "([^"]*)" is deleted$/, async function (this: KubespecWorld, name: string) {
  const res = await this.kube().request({ method: 'DELETE', path: podPath(this, name) });
  assert.ok(res.status < 300, `delete Pod "${name}": ${res.status} ${res.text.slice(0, 200)}`);
  await finishDeletionWithoutKubelet(this, podPath(this, name));
  await this.eventually(`Pod "${name}" gone`, async () => !(await getPod(this, name)), 60_000);
});

/**
 * The pod's phase written through pods/status, as the kubelet of its node reports a finished pod.
 * Only for pods on nodes the test registered without a kubelet (the kubelet's stand-in, as
 * finishDeletionWithoutKubelet is).
 */
When(/^Pod "([^"]*)" reports phase (Succeeded|Failed), as its kubelet would$/, async function (this: KubespecWorld, name: string, phase: string) {
  const node: string | undefined = (await getPod(this, name))?.spec?.nodeName;
  assert.ok(node && this.recallOr(`no kubelet on ${node}`, false), `Pod "${name}" is not on a node the test registered without a kubelet`);
  const res = await this.kube().request({ method: 'PATCH', path: `${podPath(this, name)}/status`, body: { status: { phase } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.ok(res.status < 300, `report phase ${phase} of Pod "${name}": ${res.status} ${res.text.slice(0, 200)}`);
});

/** After "N pods are created, one at a time": every named node took at least one of them. */
Then(/^each of Nodes ((?:"[^"]*"(?:, | and )?)+) holds at least one of them$/, function (this: KubespecWorld, list: string) {
  const placed = this.recall<string[]>('spread nodes');
  for (const [, node] of list.matchAll(/"([^"]*)"/g)) assert.ok(placed.includes(node!), `no pod on Node "${node}": ${JSON.stringify(placed)}`);
});

// ---- the request trace ----------------------------------------------------------------------

Then(/^the request trace holds no binding for Pod "([^"]*)"$/, async function (this: KubespecWorld, name: string) {
  const bindings = (await traceSinceMark(this)).filter((t) => t.path === `${podPath(this, name)}/binding`);
  assert.deepEqual(bindings.map((t) => `${t.method} ${t.path} ${t.code}`), []);
});

Then(/^the request trace holds exactly (\d+) POST to "([^"]*)", with target Node "([^"]*)"$/, async function (this: KubespecWorld, count: string, rawPath: string, node: string) {
  const path = expandNs(this.kube(), rawPath);
  const posts = (await traceSinceMark(this)).filter((t) => t.method === 'POST' && t.path === path);
  assert.equal(posts.length, Number(count), `POSTs to ${path}: ${JSON.stringify(posts)}`);
  assert.equal(posts[0]!.code, 201);
  assert.equal(posts[0]!.user, 'system:kube-scheduler', 'the scheduler binds as system:kube-scheduler');
  assert.equal((await getPod(this, path.split('/')[6]!))?.spec?.nodeName, node);
});

// ---- groups of pods -------------------------------------------------------------------------

When(/^Pods ((?:"[^"]*"(?:, | and )?)+) are created ((?:labelled|with) .+)$/, async function (this: KubespecWorld, names: string, words: string) {
  for (const m of names.matchAll(/"([^"]*)"/g)) await createPod(this, m[1]!, words);
});

Then(/^within (\d+) s Pods ((?:"[^"]*"(?:, | and )?)+) are on (\d+) different nodes$/, async function (this: KubespecWorld, seconds: string, names: string, distinct: string) {
  const nodes = new Set<string>();
  for (const m of names.matchAll(/"([^"]*)"/g)) nodes.add(await boundNode(this, m[1]!, Number(seconds)));
  assert.equal(nodes.size, Number(distinct), `nodes: ${[...nodes].join(', ')}`);
});

// ---- Deployments (`cluster.controllers`) ----------------------------------------------------

When(/^Deployment "([^"]*)" is created with (\d+) replicas labelled "([^"]*)" and required anti-affinity to "([^"]*)" on "([^"]*)"$/, async function (this: KubespecWorld, name: string, replicas: string, label: string, selector: string, key: string) {
  const template = podObject(this, name, `labelled "${label}" with required anti-affinity to "${selector}" on "${key}"`);
  const [k, v = ''] = label.split('=');
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: Number(replicas), selector: { matchLabels: { [k!]: v } }, template: { metadata: { labels: template.metadata.labels }, spec: template.spec } } };
  const res = await this.kube().request({ method: 'POST', path: `/apis/apps/v1/namespaces/${this.kube().namespace}/deployments`, body });
  assert.equal(res.status, 201, res.text.slice(0, 400));
  this.note(`deployment ${name}`, label);
});

async function deploymentPods(world: KubespecWorld, name: string): Promise<any[]> {
  const label = world.recall<string>(`deployment ${name}`);
  const res = await world.kube().request({ method: 'GET', path: `${podPath(world)}?labelSelector=${encodeURIComponent(label)}` });
  return (res.json?.items ?? []).filter((p: any) => !p.metadata.deletionTimestamp);
}

Then(/^within (\d+) s (?:the )?(\d+) pods of Deployment "([^"]*)" are (?:on|bound to) (\d+) different nodes$/, async function (this: KubespecWorld, seconds: string, count: string, name: string, distinct: string) {
  let nodes: string[] = [];
  await this.eventually(`${count} pods of Deployment "${name}" bound`, async () => (nodes = (await deploymentPods(this, name)).map((p) => p.spec.nodeName).filter(Boolean)).length >= Number(count), Number(seconds) * 1000);
  assert.equal(new Set(nodes).size, Number(distinct), `nodes: ${nodes.join(', ')}`);
});

Then(/^after a further (\d+) s exactly (\d+) pods? of Deployment "([^"]*)" (?:is|are) Pending with reason "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, count: string, name: string, reason: string) {
  await passTime(this, Number(seconds));
  const pending = (await deploymentPods(this, name)).filter((p) => isPending(p) && podScheduled(p)?.reason === reason);
  assert.equal(pending.length, Number(count));
});

// ---- what the framework's plugins left on a pod ----------------------------------------------

Then(/^Pod "([^"]*)" has annotation "([^"]*)" "([^"]*)"$/, async function (this: KubespecWorld, name: string, key: string, value: string) {
  assert.equal((await getPod(this, name))?.metadata?.annotations?.[key], value);
});

Then(/^within (\d+) s Pod "([^"]*)" has an Event "([^"]*)" with message "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, name: string, reason: string, message: string) {
  let seen: string[] = [];
  await this.eventually(`Event ${reason} on Pod "${name}"`, async () => {
    const res = await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${this.kube().namespace}/events` });
    const events = (res.json?.items ?? []).filter((e: any) => e.involvedObject?.name === name && e.reason === reason);
    seen = events.map((e: any) => e.message);
    return seen.includes(message);
  }, Number(seconds) * 1000).catch((e) => {
    throw new Error(`${(e as Error).message}; seen: ${JSON.stringify(seen)}`);
  });
});

// ---- pods left alone, or evicted, after they were placed -------------------------------------

When(/^Pod "([^"]*)" was created (with .+) and is on Node "([^"]*)"$/, async function (this: KubespecWorld, name: string, words: string, node: string) {
  const created = await createPod(this, name, words);
  this.note(`uid ${name}`, created.metadata.uid);
  assert.equal(await boundNode(this, name, 10), node);
});

Then(/^(?:after (\d+) minutes of virtual time )?Pod "([^"]*)" is still on Node "([^"]*)"(?: and not marked for deletion| with the same uid)$/, async function (this: KubespecWorld, minutes: string | undefined, name: string, node: string) {
  if (minutes) await passTime(this, Number(minutes) * 60);
  const pod = await getPod(this, name);
  assert.ok(pod, `Pod "${name}" is gone`);
  assert.equal(pod.spec.nodeName, node);
  assert.equal(pod.metadata.deletionTimestamp, undefined, `Pod "${name}" is marked for deletion`);
  try {
    assert.equal(pod.metadata.uid, this.recall<string>(`uid ${name}`), `Pod "${name}" is a new pod of the same name`);
  } catch (e) {
    if (!(e as Error).message.startsWith('nothing was noted')) throw e;
  }
});

Then(/^Pod "([^"]*)" has no deletionTimestamp$/, async function (this: KubespecWorld, name: string) {
  assert.equal((await getPod(this, name))?.metadata?.deletionTimestamp, undefined);
});

Then(/^after (\d+) s of virtual time Pod "([^"]*)" is not marked for deletion$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await passTime(this, Number(seconds));
  const pod = await getPod(this, name);
  assert.ok(pod && !pod.metadata.deletionTimestamp, `Pod "${name}": ${JSON.stringify(pod?.metadata)}`);
});

Then(/^within (\d+) s of virtual time(?: after the taint)? Pod "([^"]*)" is marked for deletion$/, async function (this: KubespecWorld, seconds: string, name: string) {
  // "after the taint": the budget counts from when the step that tainted the node ran.
  const since = this.recall<number | undefined>('tainted at');
  const spent = since === undefined ? 0 : this.clock().now_ms() - since;
  await this.eventually(`Pod "${name}" marked for deletion`, async () => {
    const pod = await getPod(this, name);
    return !pod || Boolean(pod.metadata.deletionTimestamp);
  }, Math.max(0, Number(seconds) * 1000 - spent));
});

When(/^the label "([^"]*)" is removed from Pod "([^"]*)"$/, async function (this: KubespecWorld, key: string, name: string) {
  const res = await this.kube().request({ method: 'PATCH', path: podPath(this, name), body: { metadata: { labels: { [key]: null } } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(res.status, 200, res.text.slice(0, 400));
});
