/**
 * Rows added to the resource table (registry.ts RESOURCES) for the identity reviews and the
 * storage-and-validation-only kinds. Names, short names and categories are upstream's, as
 * `kubectl api-resources` prints them on a v1.31 cluster.
 */
import type { ResourceDef } from './registry.ts';
import * as reviews from './schemas/reviews.ts';
import * as more from './schemas/storage-only.ts';

type Row = Partial<ResourceDef> & Pick<ResourceDef, 'group' | 'version' | 'resource' | 'kind' | 'namespaced' | 'schema'>;

const STATUS = { name: 'status', verbs: ['get', 'patch', 'update'] } as const;
const status = (kind: string) => ({ ...STATUS, kind, verbs: [...STATUS.verbs] });
const scale = { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] } as const;
const workload = { categories: ['all'], generationTracksSpec: true };

export const MORE_RESOURCES: Row[] = [
  { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, schema: reviews.tokenReview, verbs: ['create'], virtual: true },
  { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, schema: reviews.selfSubjectReview, verbs: ['create'], virtual: true },
  { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, schema: reviews.selfSubjectRulesReview, verbs: ['create'], virtual: true },
  { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', singular: 'endpoints', namespaced: true, shortNames: ['ep'], schema: more.endpoints },
  { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true, shortNames: ['rc'], schema: more.replicationController,
    subresources: [{ ...scale, verbs: [...scale.verbs] }, status('ReplicationController')], ...workload },
  { group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], schema: more.persistentVolume, subresources: [status('PersistentVolume')] },
  { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], schema: more.persistentVolumeClaim, subresources: [status('PersistentVolumeClaim')] },
  { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'], schema: more.resourceQuota, subresources: [status('ResourceQuota')] },
  { group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', namespaced: true, shortNames: ['limits'], schema: more.limitRange },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], schema: more.statefulSet,
    subresources: [{ ...scale, verbs: [...scale.verbs] }, status('StatefulSet')], ...workload },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], schema: more.daemonSet, subresources: [status('DaemonSet')], ...workload },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true, shortNames: ['cj'], schema: more.cronJob, subresources: [status('CronJob')], ...workload },
  { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, shortNames: ['hpa'], categories: ['all'],
    schema: more.horizontalPodAutoscaler, subresources: [status('HorizontalPodAutoscaler')] },
  { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', namespaced: true, shortNames: ['ing'], schema: more.ingress, subresources: [status('Ingress')], generationTracksSpec: true },
  { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], schema: more.networkPolicy, generationTracksSpec: true },
  { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'], schema: more.storageClass },
  { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'],
    schema: more.certificateSigningRequest, subresources: [status('CertificateSigningRequest'), { name: 'approval', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] }] },
  { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', kind: 'APIService', namespaced: false, schema: more.apiService, subresources: [status('APIService')] },
];
