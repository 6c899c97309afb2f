/**
 * Kinds the reference stores and validates but runs no controller for (yet): StatefulSet,
 * DaemonSet, ReplicationController, CronJob, Endpoints, Ingress, HorizontalPodAutoscaler,
 * PersistentVolume(Claim), StorageClass, ResourceQuota, LimitRange, NetworkPolicy,
 * CertificateSigningRequest, APIService. Fields and required lists after k8s.io/api
 * <group>/<version>/types.go (and kube-aggregator's apiregistration/v1); nested parts that no
 * check here reads are kept as free objects.
 */
import { arr, bool, free, int, int64, mapOf, obj, quantity, str, strMap, strs, type Schema } from '../../schema/types.ts';
import { kindSchema, labelSelector, statusWithConditions } from './meta.ts';
import { podTemplateSpec } from './pod.ts';

const status = (extra: Record<string, Schema> = {}) => statusWithConditions({ observedGeneration: int64(), ...extra });
const resourceList = mapOf(quantity());

export const statefulSet = kindSchema({
  spec: obj(
    {
      replicas: int(), selector: labelSelector, template: podTemplateSpec, volumeClaimTemplates: arr(free()), serviceName: str(),
      podManagementPolicy: str(), updateStrategy: free(), revisionHistoryLimit: int(), minReadySeconds: int(),
      persistentVolumeClaimRetentionPolicy: free(), ordinals: obj({ start: int() }),
    },
    ['selector', 'template'],
  ),
  status: status({ replicas: int(), readyReplicas: int(), currentReplicas: int(), updatedReplicas: int(), currentRevision: str(), updateRevision: str(), collisionCount: int(), availableReplicas: int() }),
});

export const daemonSet = kindSchema({
  spec: obj({ selector: labelSelector, template: podTemplateSpec, updateStrategy: free(), minReadySeconds: int(), revisionHistoryLimit: int() }, ['selector', 'template']),
  status: status({
    currentNumberScheduled: int(), numberMisscheduled: int(), desiredNumberScheduled: int(), numberReady: int(), updatedNumberScheduled: int(),
    numberAvailable: int(), numberUnavailable: int(), collisionCount: int(),
  }),
});

export const replicationController = kindSchema({
  spec: obj({ replicas: int(), minReadySeconds: int(), selector: strMap(), template: podTemplateSpec }),
  status: status({ replicas: int(), fullyLabeledReplicas: int(), readyReplicas: int(), availableReplicas: int() }),
});

export const cronJob = kindSchema({
  spec: obj(
    {
      schedule: str(), timeZone: str(), startingDeadlineSeconds: int64(), concurrencyPolicy: str(), suspend: bool(),
      jobTemplate: obj({ metadata: free(), spec: free() }), successfulJobsHistoryLimit: int(), failedJobsHistoryLimit: int(),
    },
    ['schedule', 'jobTemplate'],
  ),
  status: obj({ active: arr(free()), lastScheduleTime: str(), lastSuccessfulTime: str() }),
});

export const endpoints = kindSchema({
  subsets: arr(obj({ addresses: arr(free()), notReadyAddresses: arr(free()), ports: arr(obj({ name: str(), port: int(), protocol: str(), appProtocol: str() })) })),
});

const ingressBackend = obj({ service: obj({ name: str(), port: obj({ name: str(), number: int() }) }, ['name']), resource: free() });
export const ingress = kindSchema({
  spec: obj({
    ingressClassName: str(),
    defaultBackend: ingressBackend,
    tls: arr(obj({ hosts: strs(), secretName: str() })),
    rules: arr(obj({ host: str(), http: obj({ paths: arr(obj({ path: str(), pathType: str(), backend: ingressBackend }, ['pathType', 'backend'])) }, ['paths']) })),
  }),
  status: obj({ loadBalancer: free() }),
});

export const horizontalPodAutoscaler = kindSchema({
  spec: obj(
    { scaleTargetRef: obj({ kind: str(), name: str(), apiVersion: str() }, ['kind', 'name']), minReplicas: int(), maxReplicas: int(), metrics: arr(free()), behavior: free() },
    ['scaleTargetRef', 'maxReplicas'],
  ),
  status: statusWithConditions({ observedGeneration: int64(), lastScaleTime: str(), currentReplicas: int(), desiredReplicas: int(), currentMetrics: arr(free()) }),
});

export const persistentVolume = kindSchema({
  spec: { ...obj({ capacity: resourceList, accessModes: strs(), claimRef: free(), persistentVolumeReclaimPolicy: str(), storageClassName: str(), mountOptions: strs(), volumeMode: str(), nodeAffinity: free() }), 'x-kubernetes-preserve-unknown-fields': true },
  status: obj({ phase: str(), message: str(), reason: str(), lastPhaseTransitionTime: str() }),
});

export const persistentVolumeClaim = kindSchema({
  spec: obj({
    accessModes: strs(), selector: labelSelector, resources: obj({ limits: resourceList, requests: resourceList }), volumeName: str(),
    storageClassName: str(), volumeMode: str(), dataSource: free(), dataSourceRef: free(), volumeAttributesClassName: str(),
  }),
  status: statusWithConditions({ phase: str(), accessModes: strs(), capacity: resourceList, allocatedResources: resourceList, allocatedResourceStatuses: strMap() }),
});

export const storageClass = kindSchema(
  { provisioner: str(), parameters: strMap(), reclaimPolicy: str(), mountOptions: strs(), allowVolumeExpansion: bool(), volumeBindingMode: str(), allowedTopologies: arr(free()) },
  ['provisioner'],
);

export const resourceQuota = kindSchema({
  spec: obj({ hard: resourceList, scopes: strs(), scopeSelector: free() }),
  status: obj({ hard: resourceList, used: resourceList }),
});

export const limitRange = kindSchema({
  spec: obj({ limits: arr(obj({ type: str(), max: resourceList, min: resourceList, default: resourceList, defaultRequest: resourceList, maxLimitRequestRatio: resourceList }, ['type'])) }, ['limits']),
});

export const networkPolicy = kindSchema({
  spec: obj({ podSelector: labelSelector, ingress: arr(free()), egress: arr(free()), policyTypes: strs() }),
});

export const certificateSigningRequest = kindSchema(
  {
    spec: obj(
      { request: str(), signerName: str(), expirationSeconds: int(), usages: strs(), username: str(), uid: str(), groups: strs(), extra: mapOf(strs()) },
      ['request', 'signerName'],
    ),
    status: statusWithConditions({ certificate: str() }),
  },
  ['spec'],
);

export const apiService = kindSchema({
  spec: obj({
    service: obj({ namespace: str(), name: str(), port: int() }), group: str(), version: str(), insecureSkipTLSVerify: bool(), caBundle: str(),
    groupPriorityMinimum: int(), versionPriority: int(),
  }, ['groupPriorityMinimum', 'versionPriority']),
  status: statusWithConditions(),
});


