/**
 * Flow steps about the node's side (features/flow/): the CRI calls the kubelet made for each pod
 * (`cri`: the node's call log), and the timestamps a person reads back to find the slow stage —
 * conditions, Events and `kubectl describe pod`.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { CriCallRecord } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, expectSuccess } from '../kube/api.ts';
import { runKubectl, type KubectlRun } from '../kube/kubectl.steps.ts';
import { eventually, seconds } from '../kubelet/support.ts';
import { thosePods } from './support.ts';

const short = (method: string) => method.slice(method.lastIndexOf('/') + 1);

async function callsOf(world: KubespecWorld, node: string, uid: string): Promise<CriCallRecord[]> {
  const nodes = world.nodes();
  assert.ok(nodes.criCalls, 'this target declares cri but offers no criCalls()');
  return (await nodes.criCalls(node)).filter((c) => c.podUid === uid);
}

Then('for each of those pods the CRI calls of node {string} hold one {string}, then {string}, then {string}', async function (this: KubespecWorld, node: string, first: string, second: string, third: string) {
  for (const pod of thosePods(this)) {
    const calls = (await callsOf(this, node, pod.metadata.uid)).map((c) => short(c.method));
    const shown = `CRI calls for pod ${pod.metadata.name}: ${calls.join(', ')}`;
    assert.equal(calls.filter((m) => m === first).length, 1, shown);
    const [a, b, c] = [calls.indexOf(first), calls.indexOf(second), calls.indexOf(third)];
    assert.ok(a >= 0 && b > a && c > b, shown);
  }
});

Then('the sandbox each CreateContainer names is the one RunPodSandbox returned for that pod', async function (this: KubespecWorld) {
  const node = thosePods(this)[0]?.spec?.nodeName;
  for (const pod of thosePods(this)) {
    const calls = await callsOf(this, pod.spec.nodeName ?? node, pod.metadata.uid);
    const sandbox = calls.find((c) => short(c.method) === 'RunPodSandbox')?.podSandboxId;
    assert.ok(sandbox, `the call log names no sandbox RunPodSandbox returned for pod ${pod.metadata.name}`);
    const creates = calls.filter((c) => short(c.method) === 'CreateContainer');
    assert.ok(creates.length > 0, `no CreateContainer for pod ${pod.metadata.name}`);
    assert.deepEqual(creates.map((c) => c.podSandboxId), creates.map(() => sandbox), `pod ${pod.metadata.name}`);
  }
});

// ---- stage timestamps -------------------------------------------------------------------------

Then('each of those pods has a lastTransitionTime on conditions {string}, {string}, {string} and {string}, none before its creationTimestamp', async function (this: KubespecWorld, a: string, b: string, c: string, d: string) {
  const types = [a, b, c, d];
  for (const listed of thosePods(this)) {
    const pod = expectSuccess(await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${this.kube().namespace}/pods/${listed.metadata.name}` }), 'get pod');
    const created = Date.parse(pod.metadata.creationTimestamp);
    for (const type of types) {
      const c = (pod.status?.conditions ?? []).find((x: any) => x.type === type);
      const at = Date.parse(c?.lastTransitionTime ?? '');
      assert.ok(Number.isFinite(at), `pod ${pod.metadata.name} condition ${type}: ${JSON.stringify(c)}`);
      assert.ok(at >= created, `pod ${pod.metadata.name} condition ${type} at ${c.lastTransitionTime}, before its creation at ${pod.metadata.creationTimestamp}`);
    }
  }
});

/**
 * An Event's time: events.k8s.io writers (the scheduler) set eventTime, core/v1 recorders (the
 * kubelet) firstTimestamp/lastTimestamp. Compared at whole seconds, the precision of the latter.
 */
function eventSecond(e: any): number {
  const at = Date.parse(e.eventTime || e.firstTimestamp || e.lastTimestamp || '');
  return Number.isFinite(at) ? Math.floor(at / 1000) : NaN;
}

async function eventsOf(world: KubespecWorld, pod: any): Promise<any[]> {
  const res = await world.kube().request({ method: 'GET', path: `/api/v1/namespaces/${world.kube().namespace}/events` });
  return (expectSuccess(res, 'list events').items ?? []).filter((e: any) => e.involvedObject?.uid === pod.metadata.uid || (e.involvedObject?.kind === 'Pod' && e.involvedObject?.name === pod.metadata.name));
}

Then('within {int} seconds each of those pods has events {string}, {string} and {string} whose timestamps do not decrease in that order', async function (this: KubespecWorld, s: number, a: string, b: string, c: string) {
  const reasons = [a, b, c];
  for (const pod of thosePods(this)) {
    let events: any[] = [];
    await eventually(this, `events ${reasons.join(', ')} of pod ${pod.metadata.name}`, async () => {
      events = await eventsOf(this, pod);
      return reasons.every((r) => events.some((e) => e.reason === r));
    }, seconds(s));
    const times = reasons.map((r) => eventSecond(events.find((e) => e.reason === r)));
    const shown = `pod ${pod.metadata.name}: ${reasons.map((r, i) => `${r}@${times[i]}`).join(', ')}`;
    assert.ok(times.every(Number.isFinite), `an event without a timestamp: ${shown}`);
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! >= times[i - 1]!, `timestamps decrease: ${shown}`);
  }
});

Then('within {int} seconds every pod labelled {string} has an event {string} from {string} saying {string}', async function (this: KubespecWorld, s: number, selector: string, reason: string, component: string, rawMessage: string) {
  const pods = expectSuccess(await this.kube().request({ method: 'GET', path: `/api/v1/namespaces/${this.kube().namespace}/pods?labelSelector=${encodeURIComponent(selector)}` }), 'list pods').items ?? [];
  assert.ok(pods.length > 0, `no pod labelled ${selector}`);
  for (const pod of pods) {
    const message = expandNs(this.kube(), rawMessage).replace('<pod>', pod.metadata.name).replace('<node>', pod.spec.nodeName);
    let events: any[] = [];
    const found = () => events.some((e) => e.reason === reason && (e.reportingComponent === component || e.source?.component === component) && e.message === message);
    await eventually(this, `event ${reason} "${message}"`, async () => found() || (events = await eventsOf(this, pod), found()), seconds(s)).catch((error: Error) => {
      throw new Error(`${error.message}; events of ${pod.metadata.name}: ${JSON.stringify(events.map((e) => [e.reason, e.reportingComponent || e.source?.component, e.message]))}`);
    });
  }
});

Then('{string} of one of those pods prints its {string} and an {string} section listing {string}, {string} and {string} with their ages', { timeout: 70_000 }, async function (this: KubespecWorld, command: string, conditions: string, eventsHeading: string, a: string, b: string, c: string) {
  const reasons = [a, b, c];
  const pod = thosePods(this)[0];
  await runKubectl(this, `${command} ${pod.metadata.name} -n {ns}`);
  const r = this.recall<KubectlRun>('kubectl');
  const shown = `${r.command}\nexit ${r.code}\n${r.stdout}\n${r.stderr}`;
  assert.equal(r.code, 0, shown);
  assert.ok(r.stdout.includes(`\n${conditions}\n`), shown);
  const events = r.stdout.slice(r.stdout.indexOf(`\n${eventsHeading}`));
  assert.ok(events.length > eventsHeading.length, shown);
  for (const reason of reasons) {
    // "  Normal  Scheduled  3s  default-scheduler  Successfully assigned …": an age, not "<unknown>".
    const line = events.split('\n').find((l) => new RegExp(`^\\s+(Normal|Warning)\\s+${reason}\\s`).test(l));
    assert.ok(line, `no "${reason}" event in:\n${shown}`);
    const age = line.trim().split(/\s+/)[2];
    assert.ok(age && /^\d/.test(age), `event "${reason}" has no age (${age}):\n${shown}`);
  }
});
