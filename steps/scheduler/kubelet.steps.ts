/**
 * Where the scheduler meets the kubelet: nodes that have a kubelet behind them (facet `kubelet`),
 * so they heartbeat through their Lease and run what is bound to them, and pods seen running.
 * A node registered by the test as a bare API object has no heartbeat: with the node lifecycle
 * controller running it goes NotReady after the grace period, and its pods are evicted.
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { createPod, getPod } from './objects.ts';

Given(/^Node "([^"]*)" with a kubelet behind it, heartbeating$/, async function (this: KubespecWorld, name: string) {
  await this.nodes().ensureNode(name);
  await this.eventually(`Node "${name}" registered and Ready`, async () => {
    const res = await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${name}` });
    return res.status === 200 && (res.json?.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
  }, 30_000);
});

Given(/^a cluster with (\d+) nodes running kubelets$/, async function (this: KubespecWorld, count: string) {
  for (let i = 1; i <= Number(count); i++) await this.nodes().ensureNode(`node-${i}`);
});

Given(/^Pod "([^"]*)" is running on Node "([^"]*)" ((?:with|requesting|tolerating) .+)$/, async function (this: KubespecWorld, name: string, node: string, words: string) {
  await createPod(this, name, `${words} with spec.nodeName "${node}"`);
  await this.eventually(`Pod "${name}" Running`, async () => (await getPod(this, name))?.status?.phase === 'Running', 30_000);
});

Then(/^(?:within (\d+) s )?Pod "([^"]*)" is Running$/, async function (this: KubespecWorld, seconds: string | undefined, name: string) {
  let phase: string | undefined;
  await this.eventually(`Pod "${name}" Running`, async () => (phase = (await getPod(this, name))?.status?.phase) === 'Running', Number(seconds ?? 0) * 1000).catch((e) => {
    throw new Error(`${(e as Error).message} (phase: ${phase})`);
  });
});

Then(/^Pod "([^"]*)"'s status\.hostIP is the address of the node named in its spec\.nodeName$/, async function (this: KubespecWorld, name: string) {
  const pod = await getPod(this, name);
  assert.ok(pod?.spec?.nodeName, `Pod "${name}" is not bound`);
  const node = (await this.kube().request({ method: 'GET', path: `/api/v1/nodes/${pod.spec.nodeName}` })).json;
  const addresses = (node?.status?.addresses ?? []).filter((a: any) => a.type === 'InternalIP').map((a: any) => a.address);
  assert.ok(addresses.length > 0, `Node "${pod.spec.nodeName}" reports no InternalIP`);
  assert.ok(addresses.includes(pod.status?.hostIP), `hostIP ${pod.status?.hostIP} is not among ${pod.spec.nodeName}'s InternalIPs ${addresses.join(', ')}`);
});

Then(/^only the runtime of the node named in Pod "([^"]*)"'s spec\.nodeName was asked to run a sandbox for it$/, async function (this: KubespecWorld, name: string) {
  const pod = await getPod(this, name);
  const nodes = (await this.kube().request({ method: 'GET', path: '/api/v1/nodes' })).json.items.map((n: any) => n.metadata.name as string);
  const nodesFacet = this.nodes();
  assert.ok(nodesFacet.criCalls, 'this target declares cri but offers no criCalls()');
  const ran: string[] = [];
  for (const node of nodes) {
    const calls = await nodesFacet.criCalls(node);
    if (calls.some((c) => c.method.endsWith('/RunPodSandbox') && c.podUid === pod.metadata.uid)) ran.push(node);
  }
  assert.deepEqual(ran, [pod.spec.nodeName], `RunPodSandbox for Pod "${name}" went to: ${ran.join(', ') || 'no node'}`);
});
