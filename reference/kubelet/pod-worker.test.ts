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
  const clock = new VirtualClock();
  const patches: any[] = [];
  const answer = async () => (await nextTurn(), { status: 200 });
  const api = { patchPodStatus: async (_ns: string, _name: string, _uid: string, status: any) => (patches.push(status), answer()), createEvent: answer, deletePod: answer } as unknown as KubeletApi;
  const w = new PodWorker('uid-p', {
    nodeName: 'n', hostIp: '127.0.0.1', api, runtime: new FakeRuntime({ clock, node: 'n', sandboxIp: () => '10.0.0.2' }), runtimeName: 'fake', podLogsDir: '/var/log/pods',
    clock, network: {} as any, backoff: new CrashBackoff(), imageBackoff: new CrashBackoff(), faults: NO_FAULTS, enqueue: () => {}, event: () => {}, log: () => {},
    ...(defer ? { defer } : {}),
  });
  return { w, patches };
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
