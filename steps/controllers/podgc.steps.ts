/**
 * Steps about the pod garbage collector (features/controllers/podgc.feature): pods bound by the
 * test to nodes that do or do not exist, and what became of them. Nodes here are Node objects with
 * no kubelet (cleaned up after the scenario).
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess } from '../kube/api.ts';
import { nodePath, podsPath, recorder, UNSCHEDULED } from './support.ts';

Given('Node {string} exists, with no kubelet', async function (this: KubespecWorld, raw: string) {
  const kube = this.kube();
  const name = expandNs(kube, raw);
  expectSuccess(await kube.request({ method: 'POST', path: nodePath(kube), body: { apiVersion: 'v1', kind: 'Node', metadata: { name } } }), `create Node ${name}`);
  this.onCleanup(() => kube.request({ method: 'DELETE', path: nodePath(kube, name) }));
});

Given(/^pod "([^"]+)" bound to node "([^"]+)", which does not exist, and pod "([^"]+)" bound to node "([^"]+)"$/, async function (this: KubespecWorld, a: string, nodeA: string, b: string, nodeB: string) {
  const kube = this.kube();
  await recorder(this);
  for (const [pod, node] of [[a, nodeA], [b, nodeB]] as const) {
    const spec = { nodeName: expandNs(kube, node), schedulerName: UNSCHEDULED, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] };
    expectSuccess(await kube.request({ method: 'POST', path: podsPath(kube), body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod }, spec } }), `create pod ${pod}`);
  }
});

const podStatus = async (w: KubespecWorld, pod: string) => (await w.kube().request({ method: 'GET', path: podsPath(w.kube(), pod) })).status;

Then('pod {string} still exists', async function (this: KubespecWorld, pod: string) {
  assert.equal(await podStatus(this, pod), 200, `pod ${pod} is gone`);
});

// Waits on the recorder's watch, not on a GET at every look: a GET every event-loop turn for up to
// a minute of virtual time is thousands of requests, which under load took this scenario past the
// run's wall-time watchdog (the flake hunt, issue 16). The GET at the end still has the last word.
Then('within {int} seconds pod {string} is gone', async function (this: KubespecWorld, seconds: number, pod: string) {
  const { pods } = await recorder(this);
  const deleted = () => pods.events.some((e) => e.type === 'DELETED' && e.object?.metadata?.name === pod);
  if ((await podStatus(this, pod)) !== 404) {
    await this.eventually(`pod ${pod} to be deleted`, async () => deleted() || (pods.ended && (await podStatus(this, pod)) === 404), seconds * 1000);
  }
  assert.equal(await podStatus(this, pod), 404, `pod ${pod}: the watch saw it deleted, yet a GET finds it`);
});

Then('pod {string} was Failed with condition DisruptionTarget reason {string} before it went', async function (this: KubespecWorld, pod: string, reason: string) {
  const { pods } = await recorder(this);
  const seen = pods.events.filter((e) => e.object?.metadata?.name === pod).map((e) => e.object);
  const marked = seen.find((p) => p.status?.phase === 'Failed' && (p.status?.conditions ?? []).some((c: any) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === reason));
  assert.ok(marked, `pod ${pod} was never Failed with DisruptionTarget/${reason}: ${JSON.stringify(seen.map((p) => [p.status?.phase, p.status?.conditions]))}`);
});
