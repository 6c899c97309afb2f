/** Schemas shared by every kind: ObjectMeta, LabelSelector, the top-level envelope. */
import { arr, bool, free, int64, mergeList, obj, setList, str, strMap, strs, time, type Schema } from '../../schema/types.ts';

export const ownerReference = obj(
  { apiVersion: str(), kind: str(), name: str(), uid: str(), controller: bool(), blockOwnerDeletion: bool() },
  ['apiVersion', 'kind', 'name', 'uid'],
);

export const objectMeta: Schema = obj({
  name: str(),
  generateName: str(),
  namespace: str(),
  selfLink: str(),
  uid: str(),
  resourceVersion: str(),
  generation: int64(),
  creationTimestamp: time(),
  deletionTimestamp: time(),
  deletionGracePeriodSeconds: int64(),
  labels: strMap(),
  annotations: strMap(),
  ownerReferences: mergeList(ownerReference, 'uid'),
  finalizers: setList(),
  managedFields: arr(free()),
});

export const labelSelector: Schema = obj({
  matchLabels: strMap(),
  matchExpressions: arr(obj({ key: str(), operator: str(), values: strs() }, ['key', 'operator'])),
});

export const condition: Schema = obj({
  type: str(),
  status: str(),
  observedGeneration: int64(),
  lastTransitionTime: time(),
  lastUpdateTime: time(),
  lastProbeTime: time(),
  lastHeartbeatTime: time(),
  reason: str(),
  message: str(),
});

/** The status objects we keep open: their conditions merge by type (kubelet patches pod and node status that way). */
export function statusWithConditions(extra: Record<string, Schema> = {}): Schema {
  return { ...obj({ conditions: mergeList(condition, 'type'), ...extra }), 'x-kubernetes-preserve-unknown-fields': true };
}

/** apiVersion/kind/metadata plus the kind's own top-level fields. */
export function kindSchema(fields: Record<string, Schema>, required: string[] = []): Schema {
  return obj({ apiVersion: str(), kind: str(), metadata: objectMeta, ...fields }, required);
}

