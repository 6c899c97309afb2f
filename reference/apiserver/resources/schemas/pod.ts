/** core/v1 Pod and the pod template the workload kinds embed. Field lists follow k8s.io/api/core/v1/types.go. */
import { arr, bool, free, int, int64, mapOf, mergeList, obj, quantity, str, strMap, strs, type Schema } from '../../schema/types.ts';
import { kindSchema, objectMeta, statusWithConditions } from './meta.ts';
import * as parts from './pod-parts.ts';

const containerPort = obj({ name: str(), hostPort: int(), containerPort: int(), protocol: str(), hostIP: str() }, ['containerPort']);
const envVar = obj({ name: str(), value: str(), valueFrom: parts.envVarSource }, ['name']);
const volumeMount = obj(
  { name: str(), readOnly: bool(), recursiveReadOnly: str(), mountPath: str(), subPath: str(), mountPropagation: str(), subPathExpr: str() },
  ['name', 'mountPath'],
);
const resources = obj({ limits: mapOf(quantity()), requests: mapOf(quantity()), claims: arr(free()) });

export const container: Schema = obj(
  {
    name: str(),
    image: str(),
    command: strs(),
    args: strs(),
    workingDir: str(),
    ports: mergeList(containerPort, 'containerPort', ['containerPort', 'protocol']),
    envFrom: arr(parts.envFromSource),
    env: mergeList(envVar, 'name'),
    resources,
    resizePolicy: arr(free()),
    restartPolicy: str(),
    volumeMounts: mergeList(volumeMount, 'mountPath'),
    volumeDevices: mergeList(obj({ name: str(), devicePath: str() }, ['name', 'devicePath']), 'devicePath'),
    livenessProbe: parts.probe,
    readinessProbe: parts.probe,
    startupProbe: parts.probe,
    lifecycle: parts.lifecycle,
    terminationMessagePath: str(),
    terminationMessagePolicy: str(),
    imagePullPolicy: str(),
    securityContext: parts.securityContext,
    stdin: bool(),
    stdinOnce: bool(),
    tty: bool(),
  },
  ['name'],
);

/** Volumes have thirty-odd sources; the common ones are typed, the rest kept as written. */
const volume = parts.volume;
const toleration = obj({ key: str(), operator: str(), value: str(), effect: str(), tolerationSeconds: int64() });

export const podSpec: Schema = obj(
  {
    volumes: mergeList(volume, 'name'),
    initContainers: mergeList(container, 'name'),
    containers: mergeList(container, 'name'),
    ephemeralContainers: mergeList(free(), 'name'),
    restartPolicy: str(),
    terminationGracePeriodSeconds: int64(),
    activeDeadlineSeconds: int64(),
    dnsPolicy: str(),
    nodeSelector: strMap(),
    serviceAccountName: str(),
    serviceAccount: str(),
    automountServiceAccountToken: bool(),
    nodeName: str(),
    hostNetwork: bool(),
    hostPID: bool(),
    hostIPC: bool(),
    shareProcessNamespace: bool(),
    securityContext: parts.podSecurityContext,
    imagePullSecrets: mergeList(obj({ name: str() }), 'name'),
    hostname: str(),
    subdomain: str(),
    affinity: parts.affinity,
    schedulerName: str(),
    tolerations: arr(toleration),
    hostAliases: mergeList(parts.hostAlias, 'ip'),
    priorityClassName: str(),
    priority: int(),
    dnsConfig: parts.dnsConfig,
    readinessGates: arr(free()),
    runtimeClassName: str(),
    enableServiceLinks: bool(),
    preemptionPolicy: str(),
    overhead: mapOf(quantity()),
    topologySpreadConstraints: arr(parts.topologySpreadConstraint),
    setHostnameAsFQDN: bool(),
    os: free(),
    hostUsers: bool(),
    schedulingGates: mergeList(free(), 'name'),
    resourceClaims: mergeList(free(), 'name'),
    resources: free(),
  },
  ['containers'],
);

export const podTemplateSpec: Schema = obj({ metadata: objectMeta, spec: podSpec });

export const podStatus = statusWithConditions({
  phase: str(),
  message: str(),
  reason: str(),
  nominatedNodeName: str(),
  hostIP: str(),
  podIP: str(),
  podIPs: mergeList(obj({ ip: str() }), 'ip'),
  startTime: str(),
  qosClass: str(),
});

export const pod = kindSchema({ spec: podSpec, status: podStatus });

export const binding = kindSchema({ target: obj({ kind: str(), namespace: str(), name: str(), uid: str(), apiVersion: str(), resourceVersion: str(), fieldPath: str() }) }, ['target']);

export const eviction = kindSchema({ deleteOptions: free() });

