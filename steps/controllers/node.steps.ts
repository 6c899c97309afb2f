/**
 * Steps about nodes, heartbeats and taint-based eviction (features/controllers/node.feature, the
 * eviction half of features/scheduler/taints.feature, overview/controller-manager.feature).
 * Nodes are registered through the API with no kubelet behind them: the test is their kubelet,
 * and decides when a heartbeat (a Lease renewal in kube-node-lease, or a NodeStatus write) comes.
 */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expectSuccess } from '../kube/api.ts';
import { eventually, get, isDeleting, labelsOf, nodePath, podsPath, UNSCHEDULED } from './support.ts';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';

function now(world: KubespecWorld): number {
  return world.session.clock?.now_ms() ?? Date.now();
}
const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const microStamp = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '000Z');

function conditions(world: KubespecWorld, spec: string): any[] {
  const t = stamp(now(world));
  return spec.split(' and ').map((c) => {
    const [type, status] = c.split('=') as [string, string];
    return { type, status, reason: 'KubespecTest', message: 'set by the test', lastHeartbeatTime: t, lastTransitionTime: t };
  });
}

async function registerNode(world: KubespecWorld, name: string, conds: any[], labels?: Record<string, string>): Promise<void> {
  const kube = world.kube();
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name, ...(labels ? { labels } : {}) }, status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, conditions: conds } };
  const created = expectSuccess(await kube.request({ method: 'POST', path: nodePath(kube), body: node }), `register Node "${name}"`);
  world.onCleanup(() => kube.request({ method: 'DELETE', path: nodePath(kube, name) }));
  // A kubelet registers with its status; a server that drops status on create gets it written after.
  if (!created.status?.conditions?.length) {
    const fresh = await get(world, nodePath(kube, name), `Node "${name}"`);
    expectSuccess(await kube.request({ method: 'PUT', path: `${nodePath(kube, name)}/status`, body: { ...fresh, status: node.status } }), `set Node "${name}" status`);
  }
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microStamp(now(world)) } };
  expectSuccess(await kube.request({ method: 'POST', path: LEASES, body: lease }), `create Lease "${name}"`);
  world.onCleanup(() => kube.request({ method: 'DELETE', path: `${LEASES}/${name}` }));
}

const heartbeating = (world: KubespecWorld) => world.recallOr<string[]>('heartbeating nodes', []);
function setHeartbeating(world: KubespecWorld, name: string, on: boolean): void {
  world.note('heartbeating nodes', [...heartbeating(world).filter((n) => n !== name), ...(on ? [name] : [])]);
}
async function renewHeartbeating(world: KubespecWorld): Promise<void> {
  for (const n of heartbeating(world)) await renewLease(world, n);
}

/** "Nodes "a1", "a2" and "a3"" → the names. */
const names = (list: string) => [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);

async function renewLease(world: KubespecWorld, name: string): Promise<void> {
  const lease = await get(world, `${LEASES}/${name}`, `Lease "${name}"`);
  lease.spec.renewTime = microStamp(now(world));
  expectSuccess(await world.kube().request({ method: 'PUT', path: `${LEASES}/${name}`, body: lease }), `renew Lease "${name}"`);
}

/** Let `ms` of virtual time pass, renewing the Leases of `renewing` every 10 s as their kubelets would. */
async function passRenewing(world: KubespecWorld, ms: number, renewing: string[]): Promise<void> {
  const end = now(world) + ms;
  while (now(world) < end) {
    await world.clock().advance(Math.min(10_000, end - now(world)));
    for (const n of renewing) await renewLease(world, n);
  }
}

async function node(world: KubespecWorld, name: string): Promise<any> {
  return get(world, nodePath(world.kube(), name), `Node "${name}"`);
}
const condition = (n: any, type: string) => (n.status?.conditions ?? []).find((c: any) => c.type === type);
const hasTaint = (n: any, key: string, effect?: string) => (n.spec?.taints ?? []).some((t: any) => t.key === key && (!effect || t.effect === effect));

Given(/^Node "([^"]*)" registered through the API with condition Ready=True and no kubelet behind it$/, async function (this: KubespecWorld, name: string) {
  await registerNode(this, name, conditions(this, 'Ready=True'));
});

Given(/^Node "([^"]*)" registered through the API with conditions ((?:\w+=\w+(?: and )?)+), heartbeating$/, async function (this: KubespecWorld, name: string, spec: string) {
  await registerNode(this, name, conditions(this, spec));
  setHeartbeating(this, name, true);
});

Given(/^Nodes? ((?:"[^"]*"(?:, | and )?)+) registered through the API in zone "([^"]*)" with condition Ready=True, heartbeating$/, async function (this: KubespecWorld, list: string, zone: string) {
  for (const name of names(list)) {
    await registerNode(this, name, conditions(this, 'Ready=True'), { 'topology.kubernetes.io/zone': zone });
    setHeartbeating(this, name, true);
  }
});

When('the test renews the Lease {string} in Namespace {string} every 10 s of virtual time for {int} minutes, and never updates the node\'s status', async function (this: KubespecWorld, name: string, _ns: string, minutes: number) {
  await passRenewing(this, minutes * 60_000, [name]);
});

When('for {int} s of virtual time the test renews the Lease of Node {string} every 10 s, and Node {string} sends nothing', async function (this: KubespecWorld, seconds: number, alive: string, _silent: string) {
  await passRenewing(this, seconds * 1000, [alive]);
});

When(/^Node "([^"]*)"'s last heartbeat is at virtual time T and no further heartbeat comes$/, async function (this: KubespecWorld, name: string) {
  setHeartbeating(this, name, false);
  await renewLease(this, name);
  await renewHeartbeating(this);
  this.note('T', now(this));
});

When(/^heartbeats from Nodes? ((?:"[^"]*"(?:, | and )?)+) stop(?: too)?$/, function (this: KubespecWorld, list: string) {
  // Only the test renews these nodes' Leases, and it stops now.
  for (const name of names(list)) setHeartbeating(this, name, false);
  this.note('T', now(this));
});

When(/^(\d+) (s|minutes) of virtual time pass, Node "([^"]*)" still heartbeating$/, async function (this: KubespecWorld, amount: string, unit: string, name: string) {
  assert.ok(heartbeating(this).includes(name), `Node "${name}" is not heartbeating in this scenario`);
  await passRenewing(this, Number(amount) * (unit === 'minutes' ? 60_000 : 1000), heartbeating(this));
});

When(/^Nodes? ((?:"[^"]*"(?:, | and )?)+) reports? Ready=False, (?:its|their) Leases? still renewed$/, async function (this: KubespecWorld, list: string) {
  for (const name of names(list)) {
    const n = await node(this, name);
    n.status.conditions = n.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, status: 'False', reason: 'KubeletNotReady', lastHeartbeatTime: stamp(now(this)), lastTransitionTime: stamp(now(this)) } : c));
    expectSuccess(await this.kube().request({ method: 'PUT', path: `${nodePath(this.kube(), name)}/status`, body: n }), `set Node "${name}" not ready`);
    setHeartbeating(this, name, true);
  }
});

When('the test updates Node {string}\'s status to condition Ready=False and keeps renewing its Lease', async function (this: KubespecWorld, name: string) {
  const n = await node(this, name);
  n.status.conditions = n.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, status: 'False', reason: 'KubeletNotReady', lastHeartbeatTime: stamp(now(this)), lastTransitionTime: stamp(now(this)) } : c));
  expectSuccess(await this.kube().request({ method: 'PUT', path: `${nodePath(this.kube(), name)}/status`, body: n }), `set Node "${name}" not ready`);
  setHeartbeating(this, name, true);
});

When(/^Node "([^"]*)"'s condition (\w+) is set to (True|False)$/, async function (this: KubespecWorld, name: string, type: string, status: string) {
  const n = await node(this, name);
  n.status.conditions = n.status.conditions.map((c: any) => (c.type === type ? { ...c, status, lastHeartbeatTime: stamp(now(this)), lastTransitionTime: stamp(now(this)) } : c));
  expectSuccess(await this.kube().request({ method: 'PUT', path: `${nodePath(this.kube(), name)}/status`, body: n }), `set ${type}=${status} on Node "${name}"`);
});

When(/^Node "([^"]*)" comes back: its kubelet reports Ready=True again$/, async function (this: KubespecWorld, name: string) {
  const n = await node(this, name);
  const t = stamp(now(this));
  n.status.conditions = n.status.conditions.map((c: any) => ({ ...c, status: c.type === 'Ready' ? 'True' : 'False', reason: 'KubespecTest', lastHeartbeatTime: t, lastTransitionTime: t }));
  expectSuccess(await this.kube().request({ method: 'PUT', path: `${nodePath(this.kube(), name)}/status`, body: n }), `Node "${name}" back`);
  await renewLease(this, name);
  setHeartbeating(this, name, true);
});

/**
 * Wait for a condition that a timer brings about (a grace period, a toleration): on virtual time,
 * check once per virtual second — the claims are about seconds, and 10 ms steps over minutes would
 * cost thousands of polls — renewing the heartbeating nodes' Leases every 10 s; in real time, poll.
 */
async function waitSeconds(world: KubespecWorld, what: string, condition: () => Promise<boolean>, budget_ms: number): Promise<void> {
  const clock = world.session.clock;
  if (!clock) return waitHeartbeating(world, what, condition, budget_ms);
  const end = now(world) + budget_ms;
  let renewed = now(world);
  await renewHeartbeating(world);
  for (;;) {
    if (await condition()) return;
    if (now(world) >= end) throw new Error(`timed out after ${budget_ms} ms of virtual time waiting for ${what}`);
    await clock.advance(Math.min(1000, end - now(world)));
    if (now(world) - renewed >= 10_000) {
      renewed = now(world);
      await renewHeartbeating(world);
    }
  }
}

/** The condition holds at every check over `budget_ms` (once a second), heartbeating nodes renewing; virtual or real time. */
async function holdSeconds(world: KubespecWorld, what: string, condition: () => Promise<boolean>, budget_ms: number): Promise<void> {
  const end = now(world) + budget_ms;
  let renewed = now(world);
  for (;;) {
    assert.ok(await condition(), `${what} stopped holding ${Math.round((budget_ms - (end - now(world))) / 1000)} s in`);
    if (now(world) >= end) return;
    if (world.session.clock) await world.session.clock.advance(Math.min(1000, end - now(world)));
    else await new Promise((resolve) => setTimeout(resolve, 1000));
    if (now(world) - renewed >= 10_000) {
      renewed = now(world);
      await renewHeartbeating(world);
    }
  }
}

/** Wait with virtual time moving, renewing the heartbeating nodes' Leases every 10 s. */
async function waitHeartbeating(world: KubespecWorld, what: string, condition: () => Promise<boolean>, budget_ms: number): Promise<void> {
  let last = now(world);
  await eventually(world, what, async () => {
    if (now(world) - last >= 10_000) {
      last = now(world);
      await renewHeartbeating(world);
    }
    return condition();
  }, budget_ms);
}

Then(/^at T \+ (\d+) s Node "([^"]*)" still has condition Ready=True$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await passRenewing(this, Math.max(0, this.recall<number>('T') + Number(seconds) * 1000 - now(this)), heartbeating(this));
  assert.equal(condition(await node(this, name), 'Ready')?.status, 'True');
});

Then(/^by T \+ (\d+) s Node "([^"]*)" has condition Ready=Unknown with reason "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, name: string, reason: string) {
  const budget = this.recall<number>('T') + Number(seconds) * 1000 - now(this);
  await waitSeconds(this, `Node "${name}" Ready=Unknown`, async () => condition(await node(this, name), 'Ready')?.status === 'Unknown', Math.max(0, budget));
  assert.equal(condition(await node(this, name), 'Ready')?.reason, reason);
});

Then(/^Node "([^"]*)" has condition Ready=(True|Unknown|False)(?: with reason "([^"]*)")?$/, async function (this: KubespecWorld, name: string, status: string, reason?: string) {
  const c = condition(await node(this, name), 'Ready');
  assert.equal(c?.status, status, JSON.stringify(c));
  if (reason) assert.equal(c?.reason, reason);
});

Then(/^(?:within (\d+) s(?: of virtual time)? )?Node "([^"]*)" has taint "([^"]*)" with effect "([^"]*)"$/, async function (this: KubespecWorld, seconds: string | undefined, name: string, key: string, effect: string) {
  await waitSeconds(this, `Node "${name}" to have taint ${key}:${effect}`, async () => hasTaint(await node(this, name), key, effect), Number(seconds ?? 10) * 1000);
});

Then(/^(?:within (\d+) s )?Node "([^"]*)" has no taint "([^"]*)"$/, async function (this: KubespecWorld, seconds: string | undefined, name: string, key: string) {
  if (seconds) await waitSeconds(this, `Node "${name}" to lose taint ${key}`, async () => !hasTaint(await node(this, name), key), Number(seconds) * 1000);
  assert.ok(!hasTaint(await node(this, name), key), JSON.stringify((await node(this, name)).spec?.taints));
});

const taintOf = (n: any, key: string, effect: string) => (n.spec?.taints ?? []).find((t: any) => t.key === key && t.effect === effect);

Then(/^within (\d+) s Nodes ((?:"[^"]*"(?:, | and )?)+) have taint "([^"]*)" with effect "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, list: string, key: string, effect: string) {
  const all = names(list);
  await waitSeconds(this, `Nodes ${all.join(', ')} to have taint ${key}:${effect}`, async () => (await Promise.all(all.map((n) => node(this, n)))).every((n) => taintOf(n, key, effect)), Number(seconds) * 1000);
});

Then(/^(?:within (\d+) s )?Nodes? ((?:"[^"]*"(?:, | and )?)+) (?:has|have) no taint "([^"]*)" with effect "([^"]*)"$/, async function (this: KubespecWorld, seconds: string | undefined, list: string, key: string, effect: string) {
  const none = async () => (await Promise.all(names(list).map((n) => node(this, n)))).every((n) => !taintOf(n, key, effect));
  if (seconds) await waitSeconds(this, `no taint ${key}:${effect} on ${list}`, none, Number(seconds) * 1000);
  assert.ok(await none(), `a taint ${key}:${effect} on ${list}`);
});

Then(/^for (\d+) s at most one of Nodes ((?:"[^"]*"(?:, | and )?)+) has taint "([^"]*)" with effect "([^"]*)"$/, async function (this: KubespecWorld, seconds: string, list: string, key: string, effect: string) {
  const tainted = async () => (await Promise.all(names(list).map((n) => node(this, n)))).filter((n) => taintOf(n, key, effect)).map((n) => n.metadata.name);
  await holdSeconds(this, `at most one of ${list} tainted ${key}:${effect}`, async () => (await tainted()).length <= 1, Number(seconds) * 1000);
});

Then(/^within (\d+) s each of Nodes ((?:"[^"]*"(?:, | and )?)+) has taint "([^"]*)" with effect "([^"]*)", added at least (\d+) s apart$/, async function (this: KubespecWorld, seconds: string, list: string, key: string, effect: string, gap: string) {
  const all = names(list);
  let added: number[] = [];
  await waitSeconds(this, `each of ${list} tainted ${key}:${effect}`, async () => {
    const taints = (await Promise.all(all.map((n) => node(this, n)))).map((n) => taintOf(n, key, effect));
    added = taints.filter(Boolean).map((t) => Date.parse(t.timeAdded)).sort((a, b) => a - b);
    return added.length === all.length;
  }, Number(seconds) * 1000);
  const gaps = added.slice(1).map((t, i) => (t - added[i]!) / 1000);
  assert.ok(gaps.every((g) => g >= Number(gap)), `the taints were added ${gaps.join(' s, ')} s apart (timeAdded ${added.map((t) => new Date(t).toISOString()).join(', ')})`);
});

// ---- pods on nodes, and their eviction -------------------------------------------------------

function tolerationsFrom(text: string): any[] {
  if (text === 'with the default tolerations') return [];
  let m = /^tolerating "([^"]*)" with effect "([^"]*)" and no tolerationSeconds$/.exec(text);
  if (m) return [{ key: m[1], operator: 'Exists', effect: m[2] }];
  m = /^tolerating "([^=":]*)(?:=([^":]*))?:([^"]*)"(?: for (\d+) s)?$/.exec(text);
  assert.ok(m, `say the tolerations as 'with the default tolerations', 'tolerating "k=v:Effect"' or 'tolerating "k=v:Effect" for N s', not "${text}"`);
  const t: any = { key: m[1], operator: m[2] === undefined ? 'Exists' : 'Equal', effect: m[3] };
  if (m[2] !== undefined) t.value = m[2];
  if (m[4]) t.tolerationSeconds = Number(m[4]);
  return [t];
}

Given(/^Pod "([^"]*)" was bound to Node "([^"]*)" by the test, (with the default tolerations|tolerating .+)$/, async function (this: KubespecWorld, name: string, nodeName: string, tolerations: string) {
  const kube = this.kube();
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: labelsOf(`app=${name}`) }, spec: { schedulerName: UNSCHEDULED, tolerations: tolerationsFrom(tolerations), containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } };
  expectSuccess(await kube.request({ method: 'POST', path: podsPath(kube), body: pod }), `create Pod "${name}"`);
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
  expectSuccess(await kube.request({ method: 'POST', path: `${podsPath(kube, name)}/binding`, body: binding }), `bind Pod "${name}"`);
});

When(/^the node lifecycle controller taints Node "([^"]*)" "([^":]*):([^"]*)", at virtual time U$/, async function (this: KubespecWorld, name: string, key: string, effect: string) {
  await waitSeconds(this, `Node "${name}" to be tainted ${key}:${effect}`, async () => hasTaint(await node(this, name), key, effect), 120_000);
  this.note('U', now(this));
});

When(/^the test taints Node "([^"]*)" "([^"=:]*)=([^":]*):([^"]*)"$/, async function (this: KubespecWorld, name: string, key: string, value: string, effect: string) {
  const n = await node(this, name);
  n.spec = { ...(n.spec ?? {}), taints: [...(n.spec?.taints ?? []), { key, value, effect }] };
  expectSuccess(await this.kube().request({ method: 'PUT', path: nodePath(this.kube(), name), body: n }), `taint Node "${name}"`);
  this.note('U', now(this));
});

When(/^the test removes the taint "([^"]*)" from Node "([^"]*)"$/, async function (this: KubespecWorld, key: string, name: string) {
  const n = await node(this, name);
  n.spec = { ...(n.spec ?? {}), taints: (n.spec?.taints ?? []).filter((t: any) => t.key !== key) };
  expectSuccess(await this.kube().request({ method: 'PUT', path: nodePath(this.kube(), name), body: n }), `untaint Node "${name}"`);
});

async function podGoneOrMarked(world: KubespecWorld, name: string): Promise<boolean> {
  const res = await world.kube().request({ method: 'GET', path: podsPath(world.kube(), name) });
  return res.status === 404 || isDeleting(res.json);
}

Then(/^at U \+ (\d+) s Pod "([^"]*)" is still there, not marked for deletion$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await passRenewing(this, Math.max(0, this.recall<number>('U') + Number(seconds) * 1000 - now(this)), heartbeating(this));
  assert.ok(!(await podGoneOrMarked(this, name)), `Pod "${name}" was evicted before U + ${seconds} s`);
});

Then(/^by U \+ (\d+) s Pod "([^"]*)" is deleted or marked for deletion$/, async function (this: KubespecWorld, seconds: string, name: string) {
  const budget = this.recall<number>('U') + Number(seconds) * 1000 - now(this);
  await waitSeconds(this, `Pod "${name}" to be evicted`, () => podGoneOrMarked(this, name), Math.max(0, budget));
});

Then(/^within (\d+) s of virtual time Pod "([^"]*)" is deleted or marked for deletion$/, async function (this: KubespecWorld, seconds: string, name: string) {
  await waitSeconds(this, `Pod "${name}" to be evicted`, () => podGoneOrMarked(this, name), Number(seconds) * 1000);
});

Then(/^(?:after (\d+) (s|minutes) of virtual time )?Pod "([^"]*)" is still there, not marked for deletion$/, async function (this: KubespecWorld, amount: string | undefined, unit: string | undefined, name: string) {
  if (amount) await passRenewing(this, Number(amount) * (unit === 'minutes' ? 60_000 : 1000), heartbeating(this));
  assert.ok(!(await podGoneOrMarked(this, name)), `Pod "${name}" was evicted`);
});

Then(/^a BestEffort pod created with no tolerations of its own is still Pending after (\d+) s$/, async function (this: KubespecWorld, seconds: string) {
  const kube = this.kube();
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'besteffort' }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] } };
  expectSuccess(await kube.request({ method: 'POST', path: podsPath(kube), body: pod }), 'create a BestEffort pod');
  const until = now(this) + Number(seconds) * 1000;
  await waitHeartbeating(this, `${seconds} s to pass`, async () => now(this) >= until, Number(seconds) * 1000 + 1000);
  const got = await get(this, podsPath(kube, 'besteffort'), 'Pod "besteffort"');
  assert.ok(!got.spec.nodeName, `the pod was bound to ${got.spec.nodeName}`);
});
