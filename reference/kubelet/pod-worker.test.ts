import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PodWorker } from './pod-worker.ts';
import { CrashBackoff } from './backoff.ts';
import { FakeRuntime } from '../cri/fake/runtime.ts';
import { VirtualClock } from '../wiring/virtual-clock.ts';
import { NO_FAULTS } from '../faults.ts';
import type { KubeletApi } from './types.ts';

const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'uid-p' }, spec: { nodeName: 'n', containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] }, status: { phase: 'Pending' } };

/** A pod worker on the fake runtime whose API records the status patches; each patch answers on a later turn. */
function worker(defer?: (fn: () => void) => void) {
  const { w, patches } = workerWithClock(defer);
  return { w, patches };
}

function workerWithClock(defer?: (fn: () => void) => void) {
  const clock = new VirtualClock();
  const runtime = new FakeRuntime({ clock, node: 'n', sandboxIp: () => '10.0.0.2' });
  const patches: any[] = [];
  const answer = async () => (await nextTurn(), { status: 200 });
  const api = { patchPodStatus: async (_ns: string, _name: string, _uid: string, status: any) => (patches.push(status), answer()), createEvent: answer, deletePod: answer } as unknown as KubeletApi;
  const w = new PodWorker('uid-p', {
    nodeName: 'n', hostIp: '127.0.0.1', api, runtime, runtimeName: 'fake', podLogsDir: '/var/log/pods',
    clock, network: {} as any, backoff: new CrashBackoff(), imageBackoff: new CrashBackoff(), faults: NO_FAULTS, enqueue: () => {}, event: () => {}, log: () => {},
    ...(defer ? { defer } : {}),
  });
  return { w, patches, clock, runtime };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await nextTurn();
}

test('a status superseded before its write went out is not sent: a start the runtime finishes at once is one patch, Running', async () => {
  const { w, patches } = worker(setImmediate);
  w.update(pod);
  await settle();
  assert.deepEqual(patches.map((s) => s.phase), ['Running']);
});

test('without deferral each status a sync sets is written, one after the other, the latest last', async () => {
  const { w, patches } = worker();
  w.update(pod);
  await settle();
  assert.deepEqual(patches.map((s) => s.phase), ['Pending', 'Running']);
  assert.equal(patches[0].containerStatuses[0].state.waiting.reason, 'ContainerCreating');
});

test('an evicted pod is Failed at once; a container that ignores SIGTERM runs out the grace given, and only then does the sandbox stop', async () => {
  const { w, patches, clock, runtime } = workerWithClock();
  w.update({ ...pod, spec: { ...pod.spec, terminationGracePeriodSeconds: 120, containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 3600'] }] } });
  await settle();
  const evicted = w.evict('Evicted', 'The node was low on resource: memory. ', 20);
  await settle();
  const first = patches.at(-1);
  assert.equal(first.phase, 'Failed');
  assert.ok(first.containerStatuses[0].state.running, 'still running within its grace');
  await clock.advance(19_000);
  await settle();
  assert.equal((await runtime.listContainers({})).containers[0]?.state, 'CONTAINER_RUNNING');
  await clock.advance(1_000);
  await evicted;
  await settle();
  const last = patches.at(-1);
  assert.equal(last.containerStatuses[0].state.terminated.exitCode, 137);
  const since = last.conditions.find((c: any) => c.type === 'DisruptionTarget').lastTransitionTime;
  assert.equal(Date.parse(last.containerStatuses[0].state.terminated.finishedAt) - Date.parse(since), 20_000, 'DisruptionTarget dates from the eviction, not from the last report');
});

test('a change of the pod status alone starts no sync (a reconcile, config.go podsDifferSemantically); a change of its spec or labels does', async () => {
  const { w, runtime } = workerWithClock(setImmediate);
  w.update(pod);
  await settle();
  const syncs = () => runtime.calls.filter((c) => c.method.endsWith('ListPodSandbox')).length;
  const before = syncs();
  w.update({ ...pod, metadata: { ...pod.metadata, resourceVersion: '7' }, status: { phase: 'Running' } });
  await settle();
  assert.equal(syncs(), before, 'the echo of a status write is not a reason to sync');
  assert.equal(w.pod.status.phase, 'Running', 'the worker still holds the newest pod');
  w.update({ ...pod, metadata: { ...pod.metadata, labels: { app: 'x' } }, status: { phase: 'Running' } });
  await settle();
  assert.ok(syncs() > before, 'a label change is an update');
});

test('a status patch the API refuses (429, 5xx) is sent again a second later; one answered 404 or 409 is not', async () => {
  for (const refusal of [429, 500, 404, 409]) {
    const clock = new VirtualClock();
    const runtime = new FakeRuntime({ clock, node: 'n', sandboxIp: () => '10.0.0.2' });
    const answers: number[] = [];
    let refuse = true;
    const api = {
      patchPodStatus: async () => {
        await nextTurn();
        answers.push(refuse ? refusal : 200);
        return { status: answers.at(-1)! };
      },
      createEvent: async () => ({ status: 201 }),
      deletePod: async () => ({ status: 200 }),
    } as unknown as KubeletApi;
    let w: PodWorker;
    w = new PodWorker('uid-p', {
      nodeName: 'n', hostIp: '127.0.0.1', api, runtime, runtimeName: 'fake', podLogsDir: '/var/log/pods',
      clock, network: {} as any, backoff: new CrashBackoff(), imageBackoff: new CrashBackoff(), faults: NO_FAULTS, enqueue: () => w.kick(), event: () => {}, log: () => {},
      defer: setImmediate,
    });
    w.update(pod);
    await settle();
    assert.deepEqual(answers, [refusal], `${refusal}: one write, refused`);
    refuse = false;
    await clock.advance(1_000);
    await settle();
    assert.deepEqual(answers, refusal === 404 || refusal === 409 ? [refusal] : [refusal, 200], `${refusal}: ${refusal === 404 || refusal === 409 ? 'given up' : 'sent again'}`);
  }
});
