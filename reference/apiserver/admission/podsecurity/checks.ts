/**
 * The Pod Security Standards' checks, one function each, over a pod's metadata and spec as JSON.
 *
 * What each check forbids, its reason and its detail text follow k8s.io/pod-security-admission
 * policy/check_<id>.go (kubernetes/kubernetes staging/src/k8s.io/pod-security-admission/policy/)
 * and the Pod Security Standards page (kubernetes.io/docs/concepts/security/pod-security-standards/).
 * Order matters for the message: upstream registers checks in file-name order and evaluates the
 * baseline checks that restricted has no stricter twin for first, then (for baseline) the
 * "overlapping" ones, or (for restricted) the restricted ones instead (policy/registry.go).
 */
import { atLeast, type Version } from './policy.ts';

export interface Violation {
  /** Short and always shown: "privileged", "hostPath volumes". */
  reason: string;
  /** Which containers/volumes/values, shown in parentheses after the reason. */
  detail: string;
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** A baseline check a restricted check replaces (upstream's Overlap). */
  overlap?: boolean;
  /** First policy version (v1.<minor>) the check applies to. */
  sinceMinor: number;
  check(meta: any, spec: any, version: Version): Violation | undefined;
}

interface Container {
  name: string;
  securityContext?: any;
  ports?: any[];
}

/** Init containers, containers, ephemeral containers: upstream's visitContainers order. */
function containers(spec: any): Container[] {
  const objects = (field: unknown) => asList(field).filter((c) => c && typeof c === 'object');
  return [...objects(spec?.initContainers), ...objects(spec?.containers), ...objects(spec?.ephemeralContainers)] as Container[];
}

/** A field that should be a list, as one (schema validation runs first, but a check must never throw). */
const asList = (field: unknown): any[] => (Array.isArray(field) ? field : []);
const quote = (s: string) => JSON.stringify(s);
/** upstream's joinQuote: each quoted, comma-separated. */
const joinQuote = (items: string[]) => items.map(quote).join(', ');
const plural = (one: string, many: string, n: number) => (n === 1 ? one : many);
const named = (what: string, names: string[]) => `${plural(what, `${what}s`, names.length)} ${joinQuote(names)}`;
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** "pod and containers "a", "b"": who set a forbidden value, pod first. */
function setters(pod: boolean, names: string[]): string {
  const parts = pod ? ['pod'] : [];
  if (names.length > 0) parts.push(named('container', names));
  return parts.join(' and ');
}

/** User-namespaced pods (hostUsers: false) are exempt from runAsNonRoot and procMount from v1.34. */
const userNamespaced = (spec: any, version: Version) => spec?.hostUsers === false && atLeast(version, 34);

const ALLOWED_BASELINE_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const ALLOWED_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']);
const ALLOWED_SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
/** Volume sources restricted allows (check_restrictedVolumes.go); any other source is restricted. */
const ALLOWED_VOLUME_SOURCES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
const validSeccomp = (type: unknown) => type === 'RuntimeDefault' || type === 'Localhost';

function allowPrivilegeEscalation(_meta: any, spec: any): Violation | undefined {
  const bad = containers(spec).filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => c.name);
  if (bad.length === 0) return undefined;
  return { reason: 'allowPrivilegeEscalation != false', detail: `${named('container', bad)} must set securityContext.allowPrivilegeEscalation=false` };
}

/** AppArmor: the beta annotations, and the securityContext.appArmorProfile field (v1.30+): never Unconfined. */
function appArmorProfile(meta: any, spec: any): Violation | undefined {
  const annotations: Record<string, string> = meta?.annotations ?? {};
  const prefix = 'container.apparmor.security.beta.kubernetes.io/';
  const bad = Object.entries(annotations)
    .filter(([k, v]) => k.startsWith(prefix) && !(v === '' || v === 'runtime/default' || String(v).startsWith('localhost/')))
    .map(([k, v]) => `${k}=${quote(String(v))}`)
    .sort();
  if (bad.length > 0) return { reason: plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), detail: bad.join(', ') };
  const unconfined = (sc: any) => sc?.appArmorProfile?.type === 'Unconfined';
  const podBad = unconfined(spec?.securityContext);
  const names = containers(spec).filter((c) => unconfined(c.securityContext)).map((c) => c.name);
  if (!podBad && names.length === 0) return undefined;
  return { reason: 'forbidden AppArmor profile', detail: `${setters(podBad, names)} must not set securityContext.appArmorProfile.type to "Unconfined"` };
}

function capabilitiesBaseline(_meta: any, spec: any): Violation | undefined {
  const added = new Set<string>();
  const bad = containers(spec).filter((c) => {
    const extra = asList(c.securityContext?.capabilities?.add).map(String).filter((cap: string) => !ALLOWED_BASELINE_CAPABILITIES.has(cap));
    extra.forEach((cap: string) => added.add(cap));
    return extra.length > 0;
  });
  if (bad.length === 0) return undefined;
  return { reason: 'non-default capabilities', detail: `${named('container', bad.map((c) => c.name))} must not include ${joinQuote(sorted(added))} in securityContext.capabilities.add` };
}

function capabilitiesRestricted(_meta: any, spec: any): Violation | undefined {
  const list = containers(spec);
  const missingDropAll = list.filter((c) => !asList(c.securityContext?.capabilities?.drop).includes('ALL')).map((c) => c.name);
  const added = new Set<string>();
  const addingForbidden = list.filter((c) => {
    const extra = asList(c.securityContext?.capabilities?.add).map(String).filter((cap: string) => cap !== 'NET_BIND_SERVICE');
    extra.forEach((cap: string) => added.add(cap));
    return extra.length > 0;
  }).map((c) => c.name);
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${named('container', missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) details.push(`${named('container', addingForbidden)} must not include ${joinQuote(sorted(added))} in securityContext.capabilities.add`);
  return details.length > 0 ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
}

function hostNamespaces(_meta: any, spec: any): Violation | undefined {
  const used = (['hostIPC', 'hostNetwork', 'hostPID'] as const).filter((f) => spec?.[f] === true);
  return used.length > 0 ? { reason: 'host namespaces', detail: used.join(', ') } : undefined;
}

const volumes = (spec: any): any[] => asList(spec?.volumes).filter((v: unknown) => v && typeof v === 'object');

function hostPathVolumes(_meta: any, spec: any): Violation | undefined {
  const bad = volumes(spec).filter((v) => v.hostPath != null).map((v) => String(v.name));
  return bad.length > 0 ? { reason: 'hostPath volumes', detail: named('volume', bad) } : undefined;
}

function hostPorts(_meta: any, spec: any): Violation | undefined {
  const ports = new Set<string>();
  const bad = containers(spec).filter((c) => {
    const used = asList(c.ports).filter((p: any) => p?.hostPort && p.hostPort !== 0);
    used.forEach((p: any) => ports.add(String(p.hostPort)));
    return used.length > 0;
  }).map((c) => c.name);
  if (bad.length === 0) return undefined;
  const list = sorted(ports);
  return { reason: 'hostPort', detail: `${named('container', bad)} ${plural('uses', 'use', bad.length)} ${plural('hostPort', 'hostPorts', list.length)} ${list.join(', ')}` };
}

/** Probes and lifecycle handlers must not aim at another host (httpGet.host / tcpSocket.host), v1.34+. */
function hostProbesAndHostLifecycle(_meta: any, spec: any): Violation | undefined {
  const hosts = new Set<string>();
  const hostsOf = (handler: any) => [handler?.httpGet?.host, handler?.tcpSocket?.host].filter((h) => typeof h === 'string' && h !== '') as string[];
  const bad = containers(spec).filter((c: any) => {
    const found = [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop].flatMap(hostsOf);
    found.forEach((h) => hosts.add(h));
    return found.length > 0;
  }).map((c) => c.name);
  if (bad.length === 0) return undefined;
  const names = sorted(bad);
  const list = sorted(hosts);
  return { reason: 'probe or lifecycle host', detail: `${named('container', names)} ${plural('uses', 'use', names.length)} ${plural('probe or lifecycle host', 'probe or lifecycle hosts', list.length)} ${joinQuote(list)}` };
}

function privileged(_meta: any, spec: any): Violation | undefined {
  const bad = containers(spec).filter((c) => c.securityContext?.privileged === true).map((c) => c.name);
  return bad.length > 0 ? { reason: 'privileged', detail: `${named('container', bad)} must not set securityContext.privileged=true` } : undefined;
}

function procMount(_meta: any, spec: any, version: Version): Violation | undefined {
  if (userNamespaced(spec, version)) return undefined;
  const types = new Set<string>();
  const bad = containers(spec).filter((c) => {
    const pm = c.securityContext?.procMount;
    if (pm == null || pm === 'Default') return false;
    types.add(String(pm));
    return true;
  }).map((c) => c.name);
  return bad.length > 0 ? { reason: 'procMount', detail: `${named('container', bad)} must not set securityContext.procMount to ${joinQuote(sorted(types))}` } : undefined;
}

function restrictedVolumes(_meta: any, spec: any): Violation | undefined {
  const types = new Set<string>();
  const bad = volumes(spec).filter((v) => {
    const sources = Object.keys(v).filter((k) => k !== 'name' && v[k] != null);
    if (sources.some((s) => ALLOWED_VOLUME_SOURCES.has(s))) return false;
    types.add(sources[0] ?? 'unknown');
    return true;
  }).map((v) => String(v.name));
  if (bad.length === 0) return undefined;
  const list = sorted(types);
  return { reason: 'restricted volume types', detail: `${named('volume', bad)} ${plural('uses', 'use', bad.length)} ${plural('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}` };
}

function runAsNonRoot(_meta: any, spec: any, version: Version): Violation | undefined {
  if (userNamespaced(spec, version)) return undefined;
  const podValue = spec?.securityContext?.runAsNonRoot;
  const explicit = containers(spec).filter((c) => c.securityContext?.runAsNonRoot === false).map((c) => c.name);
  if (podValue === false || explicit.length > 0) {
    return { reason: 'runAsNonRoot != true', detail: `${setters(podValue === false, explicit)} must not set securityContext.runAsNonRoot=false` };
  }
  const implicit = podValue === true ? [] : containers(spec).filter((c) => c.securityContext?.runAsNonRoot == null).map((c) => c.name);
  return implicit.length > 0 ? { reason: 'runAsNonRoot != true', detail: `pod or ${named('container', implicit)} must set securityContext.runAsNonRoot=true` } : undefined;
}

function runAsUser(_meta: any, spec: any): Violation | undefined {
  const pod = spec?.securityContext?.runAsUser === 0;
  const bad = containers(spec).filter((c) => c.securityContext?.runAsUser === 0).map((c) => c.name);
  return pod || bad.length > 0 ? { reason: 'runAsUser=0', detail: `${setters(pod, bad)} must not set runAsUser=0` } : undefined;
}

function seLinuxOptions(_meta: any, spec: any): Violation | undefined {
  const types = new Set<string>();
  let user = false;
  let role = false;
  const valid = (o: any) => {
    let ok = true;
    if (!ALLOWED_SELINUX_TYPES.has(String(o.type ?? ''))) (ok = false), types.add(String(o.type));
    if (o.user) (ok = false), (user = true);
    if (o.role) (ok = false), (role = true);
    return ok;
  };
  const podOpts = spec?.securityContext?.seLinuxOptions;
  const pod = podOpts != null && !valid(podOpts);
  const bad = containers(spec).filter((c) => c.securityContext?.seLinuxOptions != null && !valid(c.securityContext.seLinuxOptions)).map((c) => c.name);
  if (!pod && bad.length === 0) return undefined;
  const data: string[] = [];
  if (types.size > 0) data.push(`${plural('type', 'types', types.size)} ${joinQuote(sorted(types))}`);
  if (user) data.push('user may not be set');
  if (role) data.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${setters(pod, bad)} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
}

/** Explicitly bad seccomp types (anything but RuntimeDefault / Localhost), pod and containers. */
function badSeccomp(spec: any): { pod: boolean; names: string[]; values: string[] } {
  const values = new Set<string>();
  const podProfile = spec?.securityContext?.seccompProfile;
  const pod = podProfile != null && !validSeccomp(podProfile.type);
  if (pod) values.add(String(podProfile.type));
  const names = containers(spec).filter((c) => {
    const p = c.securityContext?.seccompProfile;
    if (p == null || validSeccomp(p.type)) return false;
    values.add(String(p.type));
    return true;
  }).map((c) => c.name);
  return { pod, names, values: sorted(values) };
}

function seccompProfileBaseline(_meta: any, spec: any): Violation | undefined {
  const bad = badSeccomp(spec);
  if (!bad.pod && bad.names.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `${setters(bad.pod, bad.names)} must not set securityContext.seccompProfile.type to ${joinQuote(bad.values)}` };
}

function seccompProfileRestricted(meta: any, spec: any): Violation | undefined {
  const explicit = seccompProfileBaseline(meta, spec);
  if (explicit) return explicit;
  const podSet = spec?.securityContext?.seccompProfile != null;
  const implicit = podSet ? [] : containers(spec).filter((c) => c.securityContext?.seccompProfile == null).map((c) => c.name);
  if (implicit.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `pod or ${named('container', implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
}

function sysctls(_meta: any, spec: any): Violation | undefined {
  const bad = asList(spec?.securityContext?.sysctls).map((s: any) => String(s?.name)).filter((n: string) => !ALLOWED_SYSCTLS.has(n));
  return bad.length > 0 ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
}

function windowsHostProcess(_meta: any, spec: any): Violation | undefined {
  const on = (sc: any) => sc?.windowsOptions?.hostProcess === true;
  const pod = on(spec?.securityContext);
  const bad = containers(spec).filter((c) => on(c.securityContext)).map((c) => c.name);
  return pod || bad.length > 0 ? { reason: 'hostProcess', detail: `${setters(pod, bad)} must not set securityContext.windowsOptions.hostProcess=true` } : undefined;
}

/** Upstream's registration order (policy/check_*.go file names, alphabetical). */
export const CHECKS: readonly Check[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', sinceMinor: 8, check: allowPrivilegeEscalation },
  { id: 'appArmorProfile', level: 'baseline', sinceMinor: 0, check: appArmorProfile },
  { id: 'capabilities_baseline', level: 'baseline', overlap: true, sinceMinor: 0, check: capabilitiesBaseline },
  { id: 'capabilities_restricted', level: 'restricted', sinceMinor: 22, check: capabilitiesRestricted },
  { id: 'hostNamespaces', level: 'baseline', sinceMinor: 0, check: hostNamespaces },
  { id: 'hostPathVolumes', level: 'baseline', overlap: true, sinceMinor: 0, check: hostPathVolumes },
  { id: 'hostPorts', level: 'baseline', sinceMinor: 0, check: hostPorts },
  { id: 'hostProbesAndHostLifecycle', level: 'baseline', sinceMinor: 34, check: hostProbesAndHostLifecycle },
  { id: 'privileged', level: 'baseline', sinceMinor: 0, check: privileged },
  { id: 'procMount', level: 'baseline', sinceMinor: 0, check: procMount },
  { id: 'restrictedVolumes', level: 'restricted', sinceMinor: 0, check: restrictedVolumes },
  { id: 'runAsNonRoot', level: 'restricted', sinceMinor: 0, check: runAsNonRoot },
  { id: 'runAsUser', level: 'restricted', sinceMinor: 23, check: runAsUser },
  { id: 'seLinuxOptions', level: 'baseline', sinceMinor: 0, check: seLinuxOptions },
  { id: 'seccompProfile_baseline', level: 'baseline', overlap: true, sinceMinor: 19, check: seccompProfileBaseline },
  { id: 'seccompProfile_restricted', level: 'restricted', sinceMinor: 19, check: seccompProfileRestricted },
  { id: 'sysctls', level: 'baseline', sinceMinor: 0, check: sysctls },
  { id: 'windowsHostProcess', level: 'baseline', sinceMinor: 0, check: windowsHostProcess },
];
