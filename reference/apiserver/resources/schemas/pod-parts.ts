/**
 * The nested parts of a pod spec that manifests commonly carry (probes, security contexts,
 * affinity, volume sources, env sources), after k8s.io/api/core/v1/types.go. They are typed so
 * that kubectl's strategic-merge patch can walk them through our OpenAPI, and kept open
 * (unknown fields preserved) so that a field we did not list is never refused.
 */
import { arr, bool, int, int64, intOrString, obj, open, quantity, str, strs, type Schema } from '../../schema/types.ts';
import { labelSelector } from './meta.ts';

const httpGet = open({ path: str(), port: intOrString(), host: str(), scheme: str(), httpHeaders: arr(obj({ name: str(), value: str() })) });
const exec = open({ command: strs() });
const tcpSocket = open({ port: intOrString(), host: str() });

export const probe: Schema = open({
  exec, httpGet, tcpSocket,
  grpc: open({ port: int(), service: str() }),
  initialDelaySeconds: int(), timeoutSeconds: int(), periodSeconds: int(), successThreshold: int(), failureThreshold: int(),
  terminationGracePeriodSeconds: int64(),
});

const handler = open({ exec, httpGet, tcpSocket, sleep: open({ seconds: int64() }) });
export const lifecycle: Schema = open({ postStart: handler, preStop: handler, stopSignal: str() });

const seLinuxOptions = open({ user: str(), role: str(), type: str(), level: str() });
const profile = open({ type: str(), localhostProfile: str() });
const windowsOptions = open({ gmsaCredentialSpecName: str(), gmsaCredentialSpec: str(), runAsUserName: str(), hostProcess: bool() });

export const securityContext: Schema = open({
  capabilities: open({ add: strs(), drop: strs() }),
  privileged: bool(), seLinuxOptions, windowsOptions, runAsUser: int64(), runAsGroup: int64(), runAsNonRoot: bool(),
  readOnlyRootFilesystem: bool(), allowPrivilegeEscalation: bool(), procMount: str(), seccompProfile: profile, appArmorProfile: profile,
});

export const podSecurityContext: Schema = open({
  seLinuxOptions, windowsOptions, runAsUser: int64(), runAsGroup: int64(), runAsNonRoot: bool(), supplementalGroups: arr(int64()),
  supplementalGroupsPolicy: str(), fsGroup: int64(), sysctls: arr(obj({ name: str(), value: str() })), fsGroupChangePolicy: str(),
  seccompProfile: profile, appArmorProfile: profile, seLinuxChangePolicy: str(),
});

const nodeSelectorRequirement = open({ key: str(), operator: str(), values: strs() });
const nodeSelectorTerm = open({ matchExpressions: arr(nodeSelectorRequirement), matchFields: arr(nodeSelectorRequirement) });
const podAffinityTerm = open({ labelSelector, namespaces: strs(), topologyKey: str(), namespaceSelector: labelSelector, matchLabelKeys: strs(), mismatchLabelKeys: strs() });
const podAffinity = open({
  requiredDuringSchedulingIgnoredDuringExecution: arr(podAffinityTerm),
  preferredDuringSchedulingIgnoredDuringExecution: arr(open({ weight: int(), podAffinityTerm })),
});
export const affinity: Schema = open({
  nodeAffinity: open({
    requiredDuringSchedulingIgnoredDuringExecution: open({ nodeSelectorTerms: arr(nodeSelectorTerm) }),
    preferredDuringSchedulingIgnoredDuringExecution: arr(open({ weight: int(), preference: nodeSelectorTerm })),
  }),
  podAffinity,
  podAntiAffinity: podAffinity,
});

const keyToPath = open({ key: str(), path: str(), mode: int() });
export const volume: Schema = open(
  {
    name: str(),
    emptyDir: open({ medium: str(), sizeLimit: quantity() }),
    hostPath: open({ path: str(), type: str() }),
    configMap: open({ name: str(), items: arr(keyToPath), defaultMode: int(), optional: bool() }),
    secret: open({ secretName: str(), items: arr(keyToPath), defaultMode: int(), optional: bool() }),
    persistentVolumeClaim: open({ claimName: str(), readOnly: bool() }),
    projected: open({ sources: arr(open({})), defaultMode: int() }),
    downwardAPI: open({ items: arr(open({})), defaultMode: int() }),
  },
  ['name'],
);

const keyRef = open({ name: str(), key: str(), optional: bool() });
export const envVarSource: Schema = open({
  fieldRef: open({ apiVersion: str(), fieldPath: str() }),
  resourceFieldRef: open({ containerName: str(), resource: str(), divisor: quantity() }),
  configMapKeyRef: keyRef,
  secretKeyRef: keyRef,
});
export const envFromSource: Schema = open({ prefix: str(), configMapRef: open({ name: str(), optional: bool() }), secretRef: open({ name: str(), optional: bool() }) });

export const topologySpreadConstraint: Schema = open({
  maxSkew: int(), topologyKey: str(), whenUnsatisfiable: str(), labelSelector, minDomains: int(), nodeAffinityPolicy: str(), nodeTaintsPolicy: str(), matchLabelKeys: strs(),
});
export const dnsConfig: Schema = open({ nameservers: strs(), searches: strs(), options: arr(obj({ name: str(), value: str() })) });
export const hostAlias: Schema = open({ ip: str(), hostnames: strs() });

