/**
 * A Deployment's status (pkg/controller/deployment/sync.go calculateStatus, progress.go
 * syncRolloutStatus): counts summed over its ReplicaSets, and the two conditions `kubectl
 * rollout status` reads —
 *
 * - Available: True ("MinimumReplicasAvailable", "Deployment has minimum availability.") while
 *   at least replicas - maxUnavailable pods are available, else False
 *   ("MinimumReplicasUnavailable", "Deployment does not have minimum availability.").
 * - Progressing: True "NewReplicaSetAvailable" once the rollout is complete; True
 *   "ReplicaSetUpdated" while it makes progress (lastUpdateTime moves with each step); False
 *   "ProgressDeadlineExceeded" when no progress was made for progressDeadlineSeconds (600 by
 *   default). Messages as upstream: `ReplicaSet "x" has successfully progressed.`,
 *   `ReplicaSet "x" is progressing.`, `ReplicaSet "x" has timed out progressing.`.
 *
 * A condition's lastUpdateTime changes when any of its fields does, lastTransitionTime only when
 * its status does (util.SetDeploymentCondition), so a converged Deployment's status is stable.
 */
import { parseTime, rfc3339 } from '../shared/objects.ts';

export interface Counts {
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export const DEFAULT_PROGRESS_DEADLINE_S = 600;

function setCondition(conditions: Condition[], next: Omit<Condition, 'lastUpdateTime' | 'lastTransitionTime'>, now_ms: number, touch: boolean): Condition[] {
  const old = conditions.find((c) => c.type === next.type);
  const same = old && old.status === next.status && old.reason === next.reason && old.message === next.message;
  if (same && !touch) return conditions;
  const stamp = rfc3339(now_ms);
  const cond: Condition = {
    ...next,
    lastUpdateTime: stamp,
    lastTransitionTime: old && old.status === next.status ? (old.lastTransitionTime ?? stamp) : stamp,
  };
  return [...conditions.filter((c) => c.type !== next.type), cond];
}

export interface StatusInput {
  deployment: any;
  counts: Counts;
  newRsName: string | undefined;
  maxUnavailable: number;
  now_ms: number;
}

/** The next status, and when (ms from now) the progress deadline would pass if nothing changes. */
export function nextStatus({ deployment: d, counts, newRsName, maxUnavailable, now_ms }: StatusInput): { status: any; deadlineIn_ms?: number } {
  const want = d.spec?.replicas ?? 1;
  const old = d.status ?? {};
  let conditions: Condition[] = [...(old.conditions ?? [])];
  const available = counts.availableReplicas >= want - maxUnavailable;
  conditions = setCondition(conditions, available
    ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
    : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }, now_ms, false);
  const generation = d.metadata?.generation ?? 0;
  const complete = counts.updatedReplicas === want && counts.replicas === want && counts.availableReplicas === want;
  const progressed = counts.updatedReplicas > (old.updatedReplicas ?? 0) || counts.readyReplicas > (old.readyReplicas ?? 0)
    || counts.availableReplicas > (old.availableReplicas ?? 0) || counts.replicas - counts.updatedReplicas < (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const deadline_s = d.spec?.progressDeadlineSeconds ?? DEFAULT_PROGRESS_DEADLINE_S;
  const rs = newRsName ?? '';
  const progressing = conditions.find((c) => c.type === 'Progressing');
  let deadlineIn_ms: number | undefined;
  if (complete) {
    conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rs}" has successfully progressed.` }, now_ms, false);
  } else if (!progressing || progressed || (progressing.message !== `ReplicaSet "${rs}" is progressing.` && progressing.reason !== 'ProgressDeadlineExceeded')) {
    conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rs}" is progressing.` }, now_ms, true);
    deadlineIn_ms = deadline_s * 1000;
  } else if (progressing.status === 'True') {
    const since = parseTime(progressing.lastUpdateTime) ?? now_ms;
    const left = since + deadline_s * 1000 - now_ms;
    if (left <= 0) {
      conditions = setCondition(conditions, { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${rs}" has timed out progressing.` }, now_ms, false);
    } else deadlineIn_ms = left;
  }
  const order = ['Available', 'Progressing'];
  conditions.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  const status: any = {
    ...old,
    observedGeneration: generation,
    replicas: counts.replicas,
    updatedReplicas: counts.updatedReplicas,
    readyReplicas: counts.readyReplicas,
    availableReplicas: counts.availableReplicas,
    unavailableReplicas: Math.max(0, want - counts.availableReplicas),
    conditions,
  };
  return deadlineIn_ms === undefined ? { status } : { status, deadlineIn_ms };
}
