/** core/v1 kinds other than Pod. Field lists follow k8s.io/api/core/v1/types.go. */
import { arr, bool, free, int, int64, intOrString, mapOf, mergeList, obj, quantity, str, strMap, strs, time } from '../../schema/types.ts';
import { condition, kindSchema, statusWithConditions } from './meta.ts';

export const namespace = kindSchema({
  spec: obj({ finalizers: strs() }),
  status: obj({ phase: str(), conditions: mergeList(condition, 'type') }),
});

const taint = obj({ key: str(), value: str(), effect: str(), timeAdded: time() }, ['key', 'effect']);
export const node = kindSchema({
  spec: obj({
    podCIDR: str(),
    podCIDRs: { ...strs(), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' },
    providerID: str(),
    unschedulable: bool(),
    taints: arr(taint),
    configSource: free(),
    externalID: str(),
  }),
  status: statusWithConditions({
    capacity: mapOf(quantity()),
    allocatable: mapOf(quantity()),
    phase: str(),
    addresses: mergeList(obj({ type: str(), address: str() }, ['type', 'address']), 'type'),
  }),
});

const servicePort = obj(
  { name: str(), protocol: str(), appProtocol: str(), port: int(), targetPort: intOrString(), nodePort: int() },
  ['port'],
);
export const service = kindSchema({
  spec: obj({
    ports: mergeList(servicePort, 'port', ['port', 'protocol']),
    selector: strMap(),
    clusterIP: str(),
    clusterIPs: strs(),
    type: str(),
    externalIPs: strs(),
    sessionAffinity: str(),
    loadBalancerIP: str(),
    loadBalancerSourceRanges: strs(),
    externalName: str(),
    externalTrafficPolicy: str(),
    healthCheckNodePort: int(),
    publishNotReadyAddresses: bool(),
    sessionAffinityConfig: free(),
    ipFamilies: strs(),
    ipFamilyPolicy: str(),
    allocateLoadBalancerNodePorts: bool(),
    loadBalancerClass: str(),
    internalTrafficPolicy: str(),
    trafficDistribution: str(),
  }),
  status: statusWithConditions({ loadBalancer: free() }),
});

export const configMap = kindSchema({ immutable: bool(), data: strMap(), binaryData: strMap() });
export const secret = kindSchema({ immutable: bool(), data: strMap(), stringData: strMap(), type: str() });

export const serviceAccount = kindSchema({
  secrets: mergeList(free(), 'name'),
  imagePullSecrets: arr(obj({ name: str() })),
  automountServiceAccountToken: bool(),
});

export const event = kindSchema(
  {
    involvedObject: free(),
    reason: str(),
    message: str(),
    source: obj({ component: str(), host: str() }),
    firstTimestamp: time(),
    lastTimestamp: time(),
    count: int(),
    type: str(),
    eventTime: str(),
    series: free(),
    action: str(),
    related: free(),
    reportingComponent: str(),
    reportingInstance: str(),
  },
  ['involvedObject'],
);


/** authentication.k8s.io/v1 TokenRequest, which only the serviceaccounts/token subresource speaks. */
export const tokenRequest = kindSchema({
  spec: obj({
    audiences: strs(),
    expirationSeconds: int64(),
    boundObjectRef: obj({ kind: str(), apiVersion: str(), name: str(), uid: str() }),
  }),
  status: obj({ token: str(), expirationTimestamp: str() }),
});
