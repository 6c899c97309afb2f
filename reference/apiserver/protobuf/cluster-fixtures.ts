/**
 * Realistic objects of the kinds in ./schema-cluster.ts, with the fields the reference's own
 * components set (kubelet: Node, Lease, Event; node lifecycle controller: taints; endpointslice
 * controller: EndpointSlice; leader election: Lease; scheduler: Binding, Event; disruption
 * controller: PodDisruptionBudget) and the ones their clients send (TokenRequest, Eviction,
 * SubjectAccessReview). Shared by the codec and server tests.
 */

const T0 = '2024-01-01T00:00:05Z';
const T1 = '2024-01-01T00:00:15Z';

const nodeMeta = {
  name: 'node-1',
  uid: '6a1f0e5c-2b8e-4c1e-9a55-1f1d3b1c0a01',
  creationTimestamp: T0,
  labels: { 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'topology.kubernetes.io/zone': 'zone-a' },
  annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
};

const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, lastHeartbeatTime: T1, lastTransitionTime: T0, reason, message });

export const node = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: nodeMeta,
  spec: {
    podCIDR: '10.244.1.0/24',
    podCIDRs: ['10.244.1.0/24', 'fd00:10:244:1::/64'],
    providerID: 'kubespec://node-1',
    unschedulable: true,
    taints: [
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: T1 },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: T1 },
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    ],
  },
  status: {
    capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
    allocatable: { cpu: '3800m', memory: '7800Mi', pods: '110', 'ephemeral-storage': '95Gi' },
    conditions: [
      cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [{ type: 'InternalIP', address: '10.0.0.11' }, { type: 'Hostname', address: 'node-1' }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: 'node-1', systemUUID: 'node-1', bootID: 'node-1', kernelVersion: '6.8.0', osImage: 'kubespec fake node',
      containerRuntimeVersion: 'fake://0.1.0', kubeletVersion: 'v1.32.4', kubeProxyVersion: 'v1.32.4', operatingSystem: 'linux', architecture: 'amd64',
    },
    images: [{ names: ['docker.io/library/nginx@sha256:1', 'docker.io/library/nginx:1.27'], sizeBytes: 72_000_000 }],
    volumesInUse: ['kubernetes.io/csi/driver^vol-1'],
    volumesAttached: [{ name: 'kubernetes.io/csi/driver^vol-1', devicePath: '/dev/sdb' }],
  },
};

export const lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {
    name: 'node-1',
    namespace: 'kube-node-lease',
    uid: 'u-lease',
    creationTimestamp: T0,
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: nodeMeta.uid }],
  },
  spec: {
    holderIdentity: 'node-1',
    leaseDurationSeconds: 40,
    acquireTime: '2024-01-01T00:00:05.000000Z',
    renewTime: '2024-01-01T00:00:15.123456Z',
    leaseTransitions: 0,
  },
};

export const event = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-1.17a1b2c3d4e5f600', namespace: 'default', uid: 'u-ev', creationTimestamp: T0 },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-pod', apiVersion: 'v1', resourceVersion: '42', fieldPath: 'spec.containers{web}' },
  reason: 'Pulled',
  message: 'Container image "nginx:1.27" already present on machine',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: T0,
  lastTimestamp: T1,
  count: 3,
  type: 'Normal',
  eventTime: '2024-01-01T00:00:05.250000Z',
  series: { count: 3, lastObservedTime: '2024-01-01T00:00:15.500000Z' },
  action: 'Pulling',
  related: { kind: 'Node', name: 'node-1', uid: nodeMeta.uid, apiVersion: 'v1' },
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

export const eventsV1Event = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'web-1.17a1b2c3d4e5f601', namespace: 'default' },
  eventTime: '2024-01-01T00:00:05.250000Z',
  series: { count: 2, lastObservedTime: '2024-01-01T00:00:15.500000Z' },
  reportingController: 'default-scheduler',
  reportingInstance: 'default-scheduler-m1',
  action: 'Scheduling',
  reason: 'FailedScheduling',
  regarding: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-pod', apiVersion: 'v1' },
  note: '0/1 nodes are available: 1 node(s) were unschedulable.',
  type: 'Warning',
  deprecatedSource: { component: 'default-scheduler' },
  deprecatedFirstTimestamp: T0,
  deprecatedLastTimestamp: T1,
  deprecatedCount: 2,
};

export const endpointSlice = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: {
    name: 'web-x7k2p',
    generateName: 'web-',
    namespace: 'default',
    labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'u-svc', controller: true, blockOwnerDeletion: true }],
  },
  addressType: 'IPv4',
  endpoints: [
    { addresses: ['10.244.1.7'], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-p1' }, nodeName: 'node-1', zone: 'zone-a' },
    { addresses: ['10.244.2.9'], conditions: { ready: false, serving: true, terminating: true }, hostname: 'web-2', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-2', uid: 'u-p2' }, nodeName: 'node-2', hints: { forZones: [{ name: 'zone-b' }] } },
  ],
  ports: [{ name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' }, { name: 'metrics', protocol: 'TCP', port: 9090 }],
};

export const endpoints = {
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  subsets: [{
    addresses: [{ ip: '10.244.1.7', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-p1' } }],
    notReadyAddresses: [{ ip: '10.244.2.9', hostname: 'web-2', nodeName: 'node-2', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-2', uid: 'u-p2' } }],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' }],
  }],
};

export const binding = {
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name: 'web-1', namespace: 'default', uid: 'u-p1' },
  target: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
};

export const eviction = {
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name: 'web-1', namespace: 'default' },
  deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: 'u-p1', resourceVersion: '42' }, propagationPolicy: 'Background', dryRun: ['All'] },
};

export const deleteOptions = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'DeleteOptions',
  gracePeriodSeconds: 30,
  preconditions: { uid: 'u-lease' },
  propagationPolicy: 'Foreground',
};

export const tokenRequest = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  metadata: { name: 'default', namespace: 'default', creationTimestamp: T0 },
  spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-1', uid: 'u-p1' } },
  status: { token: 'eyJhbGciOiJSUzI1NiJ9.e30.sig', expirationTimestamp: '2024-01-01T01:00:12Z' },
};

export const subjectAccessReview = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SubjectAccessReview',
  metadata: { creationTimestamp: T0 },
  spec: {
    resourceAttributes: { namespace: 'default', verb: 'get', version: 'v1', resource: 'pods', subresource: 'log', name: 'web-1' },
    user: 'system:node:node-1',
    groups: ['system:nodes', 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': ['X509SHA256=ab12'], scopes: ['a', 'b'] },
    uid: 'u-user',
  },
  status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:node" of ClusterRole "system:node" to Group "system:nodes"' },
};

export const scale = {
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: { name: 'web', namespace: 'default', uid: 'u-deploy', resourceVersion: '77', creationTimestamp: T0 },
  spec: { replicas: 3 },
  status: { replicas: 2, selector: 'app=web' },
};

export const podDisruptionBudget = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
  status: {
    observedGeneration: 1,
    disruptedPods: { 'web-1': T1 },
    disruptionsAllowed: 1,
    currentHealthy: 3,
    desiredHealthy: 2,
    expectedPods: 3,
    conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: T0, reason: 'SufficientPods', message: 'enough pods' }],
  },
};

export const priorityClass = {
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name: 'high' },
  value: 1000000,
  globalDefault: false,
  description: 'for the web tier',
  preemptionPolicy: 'Never',
};

export const persistentVolume = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv-1', finalizers: ['kubernetes.io/pv-protection'] },
  spec: {
    capacity: { storage: '10Gi' },
    hostPath: { path: '/data/pv-1', type: 'DirectoryOrCreate' },
    accessModes: ['ReadWriteOnce'],
    claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: 'u-pvc', apiVersion: 'v1' },
    persistentVolumeReclaimPolicy: 'Retain',
    storageClassName: 'standard',
    volumeMode: 'Filesystem',
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] } },
  },
  status: { phase: 'Bound', lastPhaseTransitionTime: T0 },
};

export const validatingWebhookConfiguration = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'deny-x' },
  webhooks: [{
    name: 'deny.example.com',
    clientConfig: { url: 'https://127.0.0.1:8443/validate', caBundle: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64') },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: 'Namespaced' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: { matchLabels: { webhook: 'on' } },
    sideEffects: 'None',
    timeoutSeconds: 5,
    admissionReviewVersions: ['v1'],
    matchConditions: [{ name: 'not-system', expression: '!request.userInfo.username.startsWith("system:")' }],
  }],
};

export const ingress = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    ingressClassName: 'nginx',
    tls: [{ hosts: ['example.com'], secretName: 'tls' }],
    rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }],
  },
};

export const certificateSigningRequest = {
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'node-csr-1' },
  spec: {
    request: Buffer.from('-----BEGIN CERTIFICATE REQUEST-----').toString('base64'),
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    usages: ['digital signature', 'client auth'],
    username: 'system:bootstrap:abcdef',
    groups: ['system:bootstrappers'],
    extra: { 'authentication.kubernetes.io/credential-id': ['token'] },
  },
  status: { conditions: [{ type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate', lastUpdateTime: T0, lastTransitionTime: T0 }] },
};

/** Every fixture, one per kind, for the round-trip test. */
export const ALL = [
  node, lease, event, eventsV1Event, endpointSlice, endpoints, binding, eviction, deleteOptions, tokenRequest, subjectAccessReview, scale,
  podDisruptionBudget, priorityClass, persistentVolume, validatingWebhookConfiguration, ingress, certificateSigningRequest,
];
