/**
 * The pod status the kubelet reports, computed from the runtime's view of the pod, as
 * pkg/kubelet/kubelet_pods.go does (generateAPIPodStatus, convertToAPIContainerStatuses,
 * getPhase) with the conditions of pkg/kubelet/status/generate.go. Pure: no clock, no I/O.
 */
import type { ContainerStatus as CriContainerStatus } from '../../contract/cri.ts';

export interface ContainerView {
  /** This container's runtime instances, newest (highest attempt) first. */
  instances: CriContainerStatus[];
  /** Why the container waits, when the kubelet knows better than the runtime (ErrImagePull, CrashLoopBackOff, ...). */
  waiting?: { reason: string; message?: string };
  ready: boolean;
  started: boolean;
}

export interface PodView {
  pod: any;
  podIp?: string;
  hostIp: string;
  runtimeName: string;
  init: Map<string, ContainerView>;
  app: Map<string, ContainerView>;
  startTime?: string;
  /** The sandbox is up (PodReadyToStartContainers). */
  sandboxReady: boolean;
}

import { rfc3339 } from '../timestamps.ts';
export { rfc3339 };
const fromNs = (ns: number) => rfc3339(Math.floor(ns / 1_000_000));

function stateOf(c: CriContainerStatus, runtimeName: string): any {
  if (c.state === 'CONTAINER_RUNNING') return { running: { startedAt: fromNs(c.startedAt) } };
  if (c.state === 'CONTAINER_EXITED') {
    return { terminated: { exitCode: c.exitCode, reason: c.reason || (c.exitCode === 0 ? 'Completed' : 'Error'), startedAt: fromNs(c.startedAt), finishedAt: fromNs(c.finishedAt), containerID: `${runtimeName}://${c.id}` } };
  }
  return { waiting: { reason: 'ContainerCreating' } };
}

export function containerStatus(name: string, spec: any, view: ContainerView | undefined, runtimeName: string): any {
  const [latest, previous] = view?.instances ?? [];
  const base = { name, image: spec.image, imageID: latest?.imageRef ?? '', ready: !!view?.ready, restartCount: latest?.metadata.attempt ?? 0, started: !!view?.started };
  if (!latest) return { ...base, state: { waiting: view?.waiting ?? { reason: 'ContainerCreating' } }, lastState: {} };
  const withId = { ...base, containerID: `${runtimeName}://${latest.id}` };
  // A waiting reason overrides an exited instance: it is the last state, the container waits to restart.
  if (view?.waiting && latest.state === 'CONTAINER_EXITED') return { ...withId, state: { waiting: view.waiting }, lastState: stateOf(latest, runtimeName) };
  return { ...withId, state: stateOf(latest, runtimeName), lastState: previous && previous.state === 'CONTAINER_EXITED' ? stateOf(previous, runtimeName) : {} };
}

/** kubelet_pods.go getPhase, for a pod whose sandbox exists or is being made. */
export function phaseOf(pod: any, init: any[], app: any[]): string {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  let pendingInit = 0;
  for (const s of init) {
    if (s.state.terminated?.exitCode === 0) continue;
    const failed = s.state.terminated || s.lastState?.terminated;
    if (failed && policy === 'Never') return 'Failed';
    pendingInit++;
  }
  let running = 0, waiting = 0, stopped = 0, failed = 0, succeeded = 0;
  for (const s of app) {
    if (s.state.running) running++;
    else if (s.state.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
      else failed++;
    } else if (s.state.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    }
  }
  if (pendingInit > 0 || waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (policy === 'Always') return 'Running';
    if (policy === 'OnFailure') return stopped === succeeded ? 'Succeeded' : 'Running';
    return failed > 0 ? 'Failed' : 'Succeeded';
  }
  return 'Pending';
}

function condition(type: string, ok: boolean, now: string, previous: any[], reason?: string, message?: string): any {
  const status = ok ? 'True' : 'False';
  const old = previous.find((c) => c?.type === type);
  const c: any = { type, status, lastProbeTime: null, lastTransitionTime: old?.status === status ? old.lastTransitionTime : now };
  if (!ok && reason) c.reason = reason;
  if (!ok && message) c.message = message;
  return c;
}

/** The status the kubelet writes; `now` is for condition transitions. */
export function podStatus(v: PodView, now_ms: number): any {
  const now = rfc3339(now_ms);
  const spec = v.pod.spec ?? {};
  const initStatuses = (spec.initContainers ?? []).map((c: any) => containerStatus(c.name, c, v.init.get(c.name), v.runtimeName));
  const appStatuses = (spec.containers ?? []).map((c: any) => containerStatus(c.name, c, v.app.get(c.name), v.runtimeName));
  const phase = phaseOf(v.pod, initStatuses, appStatuses);
  const previous: any[] = v.pod.status?.conditions ?? [];
  const initDone = initStatuses.every((s: any) => s.state.terminated?.exitCode === 0);
  const unready = appStatuses.filter((s: any) => !s.ready).map((s: any) => s.name);
  const incomplete = initStatuses.filter((s: any) => s.state.terminated?.exitCode !== 0).map((s: any) => s.name);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const containersReady = unready.length === 0 && !terminal;
  // generate.go: a finished pod is not ready, with reason PodCompleted.
  const readyReason = terminal ? 'PodCompleted' : 'ContainersNotReady';
  const readyMessage = terminal ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const conditions = [
    condition('PodReadyToStartContainers', v.sandboxReady, now, previous),
    condition('Initialized', initDone || terminal, now, previous, 'ContainersNotInitialized', `containers with incomplete status: [${incomplete.join(' ')}]`),
    condition('Ready', containersReady, now, previous, readyReason, readyMessage),
    condition('ContainersReady', containersReady, now, previous, readyReason, readyMessage),
    condition('PodScheduled', true, now, previous),
  ];
  const status: any = { phase, conditions, hostIP: v.hostIp, hostIPs: [{ ip: v.hostIp }], containerStatuses: appStatuses, qosClass: v.pod.status?.qosClass ?? 'BestEffort' };
  if (initStatuses.length > 0) status.initContainerStatuses = initStatuses;
  if (v.podIp) {
    status.podIP = v.podIp;
    status.podIPs = [{ ip: v.podIp }];
  }
  if (v.startTime) status.startTime = v.startTime;
  return status;
}

/**
 * The status of a pod the kubelet killed to reclaim a resource (eviction_manager.go evictPod):
 * Failed with the eviction's reason and message, not ready (generate.go: a finished pod's Ready
 * is False with reason PodCompleted), and DisruptionTarget=True with reason TerminationByKubelet
 * since `evicted_ms`, when the kubelet evicted it (its containers may stop later, within their grace).
 */
export function evictedStatus(status: any, reason: string, message: string, now_ms: number, evicted_ms: number): any {
  const now = rfc3339(now_ms);
  const previous: any[] = status.conditions ?? [];
  const notReady = (type: string) => ({ ...condition(type, false, now, previous, 'PodCompleted'), reason: 'PodCompleted' });
  const conditions = previous.filter((c: any) => c.type !== 'DisruptionTarget').map((c: any) => (c.type === 'Ready' || c.type === 'ContainersReady' ? notReady(c.type) : c));
  conditions.push({ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(evicted_ms), reason: 'TerminationByKubelet', message });
  return { ...status, phase: 'Failed', reason, message, conditions };
}
