/**
 * The remaining kinds: discovery, coordination, scheduling, policy, RBAC, authorization and
 * admissionregistration (k8s.io/api/<group>/v1/types.go).
 */
import { arr, bool, free, int, int64, intOrString, mapOf, mergeList, obj, open, str, strMap, strs, time, type Schema } from '../../schema/types.ts';
import { kindSchema, labelSelector, statusWithConditions } from './meta.ts';

const endpoint = obj(
  {
    addresses: strs(),
    conditions: obj({ ready: bool(), serving: bool(), terminating: bool() }),
    hostname: str(),
    targetRef: free(),
    nodeName: str(),
    zone: str(),
    hints: free(),
    deprecatedTopology: strMap(),
  },
  ['addresses'],
);
export const endpointSlice = kindSchema(
  { addressType: str(), endpoints: arr(endpoint), ports: arr(obj({ name: str(), protocol: str(), port: int(), appProtocol: str() })) },
  ['addressType'],
);

export const lease = kindSchema({
  spec: obj({
    holderIdentity: str(),
    leaseDurationSeconds: int(),
    acquireTime: str(),
    renewTime: str(),
    leaseTransitions: int(),
    strategy: str(),
    preferredHolder: str(),
  }),
});

export const priorityClass = kindSchema({ value: int(), globalDefault: bool(), description: str(), preemptionPolicy: str() }, ['value']);

export const podDisruptionBudget = kindSchema({
  spec: obj({ minAvailable: intOrString(), maxUnavailable: intOrString(), selector: labelSelector, unhealthyPodEvictionPolicy: str() }),
  status: statusWithConditions({
    observedGeneration: int64(),
    disruptedPods: mapOf(time()),
    disruptionsAllowed: int(),
    currentHealthy: int(),
    desiredHealthy: int(),
    expectedPods: int(),
  }),
});

const policyRule = obj({ verbs: strs(), apiGroups: strs(), resources: strs(), resourceNames: strs(), nonResourceURLs: strs() }, ['verbs']);
const subject = obj({ kind: str(), apiGroup: str(), name: str(), namespace: str() }, ['kind', 'name']);
const roleRef = obj({ apiGroup: str(), kind: str(), name: str() }, ['apiGroup', 'kind', 'name']);
export const role = kindSchema({ rules: arr(policyRule) });
export const clusterRole = kindSchema({ rules: arr(policyRule), aggregationRule: free() });
export const roleBinding = kindSchema({ subjects: arr(subject), roleRef }, ['roleRef']);
export const clusterRoleBinding = roleBinding;

const resourceAttributes = obj({
  namespace: str(),
  verb: str(),
  group: str(),
  version: str(),
  resource: str(),
  subresource: str(),
  name: str(),
  fieldSelector: free(),
  labelSelector: free(),
});
const accessReviewStatus = obj({ allowed: bool(), denied: bool(), reason: str(), evaluationError: str() });
const nonResourceAttributes = obj({ path: str(), verb: str() });
export const selfSubjectAccessReview = kindSchema(
  { spec: obj({ resourceAttributes, nonResourceAttributes }), status: accessReviewStatus },
  ['spec'],
);
export const subjectAccessReview = kindSchema(
  {
    spec: obj({ resourceAttributes, nonResourceAttributes, user: str(), groups: strs(), extra: mapOf(strs()), uid: str() }),
    status: accessReviewStatus,
  },
  ['spec'],
);

/** Webhook entries are kept as written apart from their name, which lists merge on. */
const webhook: Schema = open({ name: str(), clientConfig: free(), rules: arr(free()), failurePolicy: str(), sideEffects: str(), admissionReviewVersions: strs() }, ['name']);
export const mutatingWebhookConfiguration = kindSchema({ webhooks: mergeList(webhook, 'name') });
export const validatingWebhookConfiguration = kindSchema({ webhooks: mergeList(webhook, 'name') });

