/**
 * JSON → protobuf → JSON for the Pod, the Service and the workload kinds (./schema-workloads.ts):
 * realistic objects come back equal, with proto2's presence (false, 0 and {} kept where written,
 * absent kept absent), IntOrString both ways, Quantity as text, Time as seconds + nanos, maps, and
 * the fields Go embeds flattened back into their parent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { decodeObject, encodeObject } from './codec.ts';

const roundTrip = (obj: unknown) => decodeObject(encodeObject(obj, { lossless: true }) ?? assert.fail('lossy or no protobuf form'));

const meta = (name: string) => ({
  name,
  namespace: 'default',
  uid: '0b0b5c1e-1111-4a3e-8115-96b7a1c6294b',
  generation: 2,
  creationTimestamp: '2024-01-01T00:00:05Z',
  labels: { app: 'web', 'pod-template-hash': '5d9f8' },
  annotations: { 'kubernetes.io/change-cause': 'kubectl apply' },
  ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d9f8', uid: 'u-rs', controller: true, blockOwnerDeletion: true }],
  finalizers: ['example.com/keep'],
});

const container = {
  name: 'web',
  image: 'nginx:1.27',
  command: ['nginx'],
  args: ['-g', 'daemon off;'],
  ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
  env: [
    { name: 'MODE', value: 'prod' },
    { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'mode', optional: false } } },
    { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
    { name: 'MEM', valueFrom: { resourceFieldRef: { containerName: 'web', resource: 'limits.memory', divisor: '1Mi' } } },
  ],
  envFrom: [{ prefix: 'S_', secretRef: { name: 'creds' } }],
  resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi', 'example.com/gpu': '1' } },
  volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg', readOnly: true }],
  livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-A', value: 'b' }] }, initialDelaySeconds: 3, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
  readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
  startupProbe: { exec: { command: ['cat', '/tmp/ready'] }, failureThreshold: 30 },
  lifecycle: { preStop: { exec: { command: ['sleep', '5'] } }, postStart: { httpGet: { path: '/started', port: 8080 } } },
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
  securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, runAsUser: 1000, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
};

const podSpec = {
  volumes: [
    { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a', path: 'a.txt' }], defaultMode: 420 } },
    { name: 'scratch', emptyDir: {} },
    { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
    {
      name: 'kube-api-access-x',
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    },
    { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
  ],
  initContainers: [{ name: 'init', image: 'busybox', command: ['true'], resources: {} }],
  containers: [container],
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  dnsPolicy: 'ClusterFirst',
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  serviceAccountName: 'default',
  serviceAccount: 'default',
  automountServiceAccountToken: false,
  nodeName: 'node-1',
  securityContext: {},
  imagePullSecrets: [{ name: 'regcred' }],
  affinity: {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } },
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } }] },
  },
  schedulerName: 'default-scheduler',
  tolerations: [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
  ],
  priority: 0,
  enableServiceLinks: true,
  preemptionPolicy: 'PreemptLowerPriority',
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }],
};

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('web-5d9f8-abcde'),
  spec: podSpec,
  status: {
    phase: 'Running',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-01-01T00:00:05Z' },
      { type: 'Ready', status: 'False', lastTransitionTime: '2024-01-01T00:00:09Z', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' },
    ],
    hostIP: '10.0.0.1',
    hostIPs: [{ ip: '10.0.0.1' }],
    podIP: '10.244.1.7',
    podIPs: [{ ip: '10.244.1.7' }, { ip: 'fd00::7' }],
    startTime: '2024-01-01T00:00:05Z',
    initContainerStatuses: [
      { name: 'init', state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2024-01-01T00:00:06Z', finishedAt: '2024-01-01T00:00:07Z', containerID: 'containerd://i' } }, lastState: {}, ready: true, restartCount: 0, image: 'busybox', imageID: 'docker.io/library/busybox@sha256:1', containerID: 'containerd://i', started: false },
    ],
    containerStatuses: [
      { name: 'web', state: { running: { startedAt: '2024-01-01T00:00:08Z' } }, lastState: { terminated: { exitCode: 137, signal: 9, reason: 'OOMKilled', startedAt: '2024-01-01T00:00:07Z', finishedAt: '2024-01-01T00:00:08Z' } }, ready: false, restartCount: 1, image: 'nginx:1.27', imageID: 'docker.io/library/nginx@sha256:2', containerID: 'containerd://w', started: true },
    ],
    qosClass: 'Burstable',
  },
};

test('a realistic Pod (spec, probes, resources, volumes, status with conditions and containerStatuses) comes back equal', () => {
  assert.deepEqual(roundTrip(pod), pod);
});

test('presence is proto2\'s: false, 0 and {} come back where written, and nothing appears where nothing was', () => {
  const back = roundTrip(pod);
  assert.equal(back.spec.automountServiceAccountToken, false);
  assert.equal(back.spec.priority, 0);
  assert.deepEqual(back.spec.securityContext, {});
  assert.deepEqual(back.spec.initContainers[0].resources, {});
  assert.deepEqual(back.status.initContainerStatuses[0].lastState, {});
  assert.equal('hostNetwork' in back.spec, false);
  assert.equal('readinessProbe' in back.spec.initContainers[0], false);
  const bare = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  assert.deepEqual(roundTrip(bare), bare);
});

test('IntOrString keeps int and string apart; Quantity is its text, a number written as JSON becomes its text', () => {
  const back = roundTrip(pod);
  assert.equal(back.spec.containers[0].livenessProbe.httpGet.port, 'http');
  assert.equal(back.spec.containers[0].readinessProbe.tcpSocket.port, 80);
  const numeric = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 2 } } }] } };
  assert.deepEqual(roundTrip(numeric).spec.containers[0].resources.limits, { cpu: '2' });
});

test('the members of Go-embedded fields (volume sources, probe handlers, key selectors) are flattened back', () => {
  const back = roundTrip(pod);
  assert.deepEqual(back.spec.volumes[0].configMap.name, 'cfg');
  assert.deepEqual(back.spec.containers[0].env[1].valueFrom.configMapKeyRef, { name: 'cfg', key: 'mode', optional: false });
  const eph = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], ephemeralContainers: [{ name: 'dbg', image: 'busybox', targetContainerName: 'c', stdin: true, tty: true }] } };
  assert.deepEqual(roundTrip(eph), eph);
});

// Upstream's wire form, checked by hand against kubernetes/api core/v1/generated.proto:
// Pod.spec = 2, PodSpec.nodeName = 10, PodSpec.containers = 2, Container.name = 1,
// Volume.volumeSource = 2 → VolumeSource.emptyDir = 2; and runtime.Unknown.raw = 2.
test('field numbers are upstream\'s: Pod.spec(2) → PodSpec.nodeName(10), containers(2).name(1), volumes(1) → volumeSource(2).emptyDir(2)', () => {
  const bytes = encodeObject({ apiVersion: 'v1', kind: 'Pod', spec: { nodeName: 'n', containers: [{ name: 'c' }], volumes: [{ name: 'v', emptyDir: {} }] } })!;
  const hex = Buffer.from(bytes).toString('hex');
  // PodSpec, in field order: volumes (1) { name (1) "v", volumeSource (2) { emptyDir (2) {} } }, containers (2) { name (1) "c" }, nodeName (10) "n"
  const spec = [0x0a, 0x07, 0x0a, 0x01, 0x76, 0x12, 0x02, 0x12, 0x00, 0x12, 0x03, 0x0a, 0x01, 0x63, 0x52, 0x01, 0x6e];
  assert.ok(hex.endsWith(Buffer.from([0x12, spec.length, ...spec]).toString('hex')), hex);
});

// A reader written here from upstream's numbers alone (runtime.Unknown.raw = 2, Pod.metadata = 1,
// ObjectMeta.creationTimestamp = 8, Time.seconds = 1 / nanos = 2, Pod.spec = 2, PodSpec.containers
// = 2, Container.livenessProbe = 10, Probe.handler = 1, ProbeHandler.httpGet = 2, HTTPGetAction.port
// = 2, IntOrString.type = 1 / intVal = 2 / strVal = 3), to read the codec's bytes independently.
const wire = protobuf.parse(`
syntax = "proto2";
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; }
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message Meta { optional Time creationTimestamp = 8; }
message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; }
message HTTPGet { optional string path = 1; optional IntOrString port = 2; }
message Handler { optional HTTPGet httpGet = 2; }
message Probe { optional Handler handler = 1; }
message Container { optional Probe livenessProbe = 10; }
message Spec { repeated Container containers = 2; }
message Pod { optional Meta metadata = 1; optional Spec spec = 2; }
`).root;

function readPod(bytes: Uint8Array): any {
  const raw = (wire.lookupType('Unknown').decode(bytes.subarray(4)) as any).raw;
  return wire.lookupType('Pod').toObject(wire.lookupType('Pod').decode(raw), { longs: Number });
}

test('on the wire a Time is seconds (+ nanos), and an IntOrString is its type with intVal or strVal', () => {
  const bytes = encodeObject({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { creationTimestamp: '2024-01-01T00:00:05Z' },
    spec: { containers: [{ livenessProbe: { httpGet: { port: 'http' } } }, { livenessProbe: { httpGet: { port: 8080 } } }] },
  })!;
  const p = readPod(bytes);
  assert.deepEqual(p.metadata.creationTimestamp, { seconds: Date.UTC(2024, 0, 1, 0, 0, 5) / 1000, nanos: 0 });
  assert.deepEqual(p.spec.containers.map((c: any) => c.livenessProbe.handler.httpGet.port), [{ type: 1, strVal: 'http' }, { type: 0, intVal: 8080 }]);
});

test('an IntOrString as upstream\'s Go writes it (all three fields, the unused ones zero) is read by its type', () => {
  const Pod = wire.lookupType('Pod');
  const Unknown = wire.lookupType('Unknown');
  const port = (p: object) => ({ livenessProbe: { handler: { httpGet: { path: '', port: p } } } });
  const raw = Pod.encode(Pod.fromObject({ spec: { containers: [port({ type: 1, intVal: 0, strVal: 'http' }), port({ type: 0, intVal: 8080, strVal: '' })] } })).finish();
  const body = Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), Unknown.encode(Unknown.fromObject({ typeMeta: { apiVersion: 'v1', kind: 'Pod' }, raw })).finish()]);
  const pod = decodeObject(body);
  assert.deepEqual(pod.spec.containers.map((c: any) => c.livenessProbe.httpGet), [{ port: 'http' }, { port: 8080 }], 'the empty path Go writes is left out too');
});

test('a Service, a Deployment, a ReplicaSet and a Job come back equal', () => {
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', uid: 'u-s', creationTimestamp: '2024-01-01T00:00:05Z' },
    spec: {
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 }, { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 9090 }],
      selector: { app: 'web' },
      clusterIP: '10.96.0.12',
      clusterIPs: ['10.96.0.12'],
      type: 'NodePort',
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      externalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  };
  const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', resources: {} }], restartPolicy: 'Always' } };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', generation: 3, annotations: { 'deployment.kubernetes.io/revision': '2' } },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] },
      template,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      paused: false,
    },
    status: {
      observedGeneration: 3,
      conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2024-01-01T00:00:09Z', lastTransitionTime: '2024-01-01T00:00:09Z', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }],
    },
  };
  const replicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('web-5d9f8'),
    spec: { replicas: 3, minReadySeconds: 0, selector: { matchLabels: { app: 'web' } }, template },
    status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 2 },
  };
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default' },
    spec: {
      parallelism: 1,
      completions: 5,
      backoffLimit: 6,
      completionMode: 'Indexed',
      suspend: false,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-j' } },
      manualSelector: false,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'pi', operator: 'In', values: [42] } }, { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
      template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } },
      ttlSecondsAfterFinished: 100,
    },
    status: { startTime: '2024-01-01T00:00:05Z', active: 1, succeeded: 2, failed: 0, ready: 1, completedIndexes: '0-1', uncountedTerminatedPods: {}, conditions: [{ type: 'Complete', status: 'False', lastProbeTime: '2024-01-01T00:00:09Z', lastTransitionTime: '2024-01-01T00:00:09Z' }] },
  };
  for (const obj of [service, deployment, replicaSet, job]) assert.deepEqual(roundTrip(obj), obj, obj.kind);
  // A typed list's items carry no apiVersion/kind on the wire (Pod has no TypeMeta field).
  const { apiVersion: _a, kind: _k, ...item } = pod;
  const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '12' }, items: [item, item] };
  assert.deepEqual(roundTrip(list), list);
});

test('what a message cannot carry makes the object lossy: the store keeps it as JSON; served, it is dropped', () => {
  const extra = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', notAField: 1 }] } };
  assert.equal(encodeObject(extra, { lossless: true }), undefined);
  assert.deepEqual(decodeObject(encodeObject(extra)!).spec.containers, [{ name: 'c', image: 'i' }]);
  const wrongType = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 'eighty' }] }] } };
  assert.equal(encodeObject(wrongType, { lossless: true }), undefined);
  assert.notEqual(encodeObject(pod, { lossless: true }), undefined);
});

test('a DaemonSet, a StatefulSet (with a claim template) and a CronJob come back equal', () => {
  const template = { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }] } };
  const daemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system' },
    spec: { selector: { matchLabels: { app: 'db' } }, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 },
    status: { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 1, observedGeneration: 1 },
  };
  const statefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'db' } },
      template,
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard', volumeMode: 'Filesystem' } }],
    },
    status: { replicas: 3, readyReplicas: 3, currentRevision: 'db-7f', updateRevision: 'db-7f', collisionCount: 0, availableReplicas: 3 },
  };
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hourly', namespace: 'default' },
    spec: { schedule: '0 * * * *', timeZone: 'Etc/UTC', concurrencyPolicy: 'Forbid', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { metadata: { labels: { job: 'hourly' } }, spec: { backoffLimit: 2, template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
    status: { active: [{ kind: 'Job', namespace: 'default', name: 'hourly-1', uid: 'u-j', apiVersion: 'batch/v1', resourceVersion: '9' }], lastScheduleTime: '2024-01-01T01:00:00Z', lastSuccessfulTime: '2024-01-01T00:00:07Z' },
  };
  for (const obj of [daemonSet, statefulSet, cronJob]) assert.deepEqual(roundTrip(obj), obj, obj.kind);
});
