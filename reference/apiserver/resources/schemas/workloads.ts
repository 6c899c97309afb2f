/** apps/v1 Deployment and ReplicaSet, batch/v1 Job (k8s.io/api/apps/v1, batch/v1 types.go). */
import { bool, free, int, int64, intOrString, obj, str, type Schema } from '../../schema/types.ts';
import { kindSchema, labelSelector, statusWithConditions } from './meta.ts';
import { podTemplateSpec } from './pod.ts';

/** DeploymentSpec.strategy carries patchStrategy "retainKeys" upstream: switching type drops rollingUpdate. */
const deploymentStrategy: Schema = {
  ...obj({ type: str(), rollingUpdate: obj({ maxUnavailable: intOrString(), maxSurge: intOrString() }) }),
  'x-kubernetes-patch-strategy': 'retainKeys',
};

export const deployment = kindSchema({
  spec: obj(
    {
      replicas: int(),
      selector: labelSelector,
      template: podTemplateSpec,
      strategy: deploymentStrategy,
      minReadySeconds: int(),
      revisionHistoryLimit: int(),
      paused: bool(),
      progressDeadlineSeconds: int(),
    },
    ['selector', 'template'],
  ),
  status: statusWithConditions({
    observedGeneration: int64(),
    replicas: int(),
    updatedReplicas: int(),
    readyReplicas: int(),
    availableReplicas: int(),
    unavailableReplicas: int(),
  }),
});

export const replicaSet = kindSchema({
  spec: obj({ replicas: int(), minReadySeconds: int(), selector: labelSelector, template: podTemplateSpec }, ['selector']),
  status: statusWithConditions({ replicas: int(), fullyLabeledReplicas: int(), readyReplicas: int(), availableReplicas: int(), observedGeneration: int64() }),
});

export const job = kindSchema({
  spec: obj(
    {
      parallelism: int(),
      completions: int(),
      activeDeadlineSeconds: int64(),
      podFailurePolicy: free(),
      successPolicy: free(),
      backoffLimit: int(),
      backoffLimitPerIndex: int(),
      maxFailedIndexes: int(),
      selector: labelSelector,
      manualSelector: bool(),
      template: podTemplateSpec,
      ttlSecondsAfterFinished: int(),
      completionMode: str(),
      suspend: bool(),
      podReplacementPolicy: str(),
      managedBy: str(),
    },
    ['template'],
  ),
  status: statusWithConditions({ startTime: str(), completionTime: str(), active: int(), succeeded: int(), failed: int(), ready: int() }),
});

/** autoscaling/v1 Scale, the view the /scale subresource serves. */
export const scale = kindSchema({
  spec: obj({ replicas: int() }),
  status: obj({ replicas: int(), selector: str() }),
});
