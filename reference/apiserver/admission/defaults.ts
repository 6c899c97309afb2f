/**
 * Field defaults for the built-in kinds.
 *
 * Upstream applies these while decoding a request, before admission (the scheme's defaulting
 * functions, pkg/apis/core/v1/defaults.go and pkg/apis/apps/v1/defaults.go plus the generated
 * zz_generated.defaults.go that walks nested pod specs). Here they run as the first mutating
 * plugin so the trace shows them; the effect on the stored object is the same. Only fields a
 * person would notice are covered: see each function for the upstream function it follows.
 */
import type { AdmissionAttributes, MutatingPlugin } from '../pipeline.ts';

export const DEFAULTS_PLUGIN_NAME = 'Defaults';

const TERMINATION_MESSAGE_PATH_DEFAULT = '/dev/termination-log';
const VOLUME_DEFAULT_MODE = 420; // 0644, v1.SecretVolumeSourceDefaultMode and friends

type Obj = Record<string, any>;
type Defaulter = (obj: Obj) => void;

const DEFAULTERS: Record<string, Defaulter> = {
  '/pods': defaultPod,
  '/services': defaultService,
  '/secrets': (o) => setIfAbsent(o, 'type', 'Opaque'),
  '/namespaces': defaultNamespace,
  '/replicationcontrollers': (o) => defaultWorkload(o, () => undefined),
  'apps/deployments': (o) => defaultWorkload(o, defaultDeploymentSpec),
  'apps/replicasets': (o) => defaultWorkload(o, (spec) => setIfAbsent(spec, 'replicas', 1)),
  'apps/statefulsets': (o) => defaultWorkload(o, defaultStatefulSetSpec),
  'apps/daemonsets': (o) => defaultWorkload(o, defaultDaemonSetSpec),
};

/** Apply upstream's defaults to an object of the given resource, in place. Unknown kinds are left alone. */
export function applyDefaults(resource: { group: string; resource: string }, obj: unknown): void {
  if (!isObj(obj)) return;
  DEFAULTERS[`${resource.group}/${resource.resource}`]?.(obj);
}

export function defaultsPlugin(): MutatingPlugin {
  return {
    name: DEFAULTS_PLUGIN_NAME,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
      if (attrs.subresource !== '' && attrs.subresource !== 'status') return;
      applyDefaults(attrs.resource, attrs.object);
    },
  };
}

/** SetDefaults_Pod + SetDefaults_PodSpec: only a Pod (not a template) gets enableServiceLinks and limits→requests. */
function defaultPod(pod: Obj): void {
  const spec = child(pod, 'spec');
  setIfAbsent(spec, 'enableServiceLinks', true);
  for (const c of [...list(spec, 'containers'), ...list(spec, 'initContainers')]) defaultRequestsFromLimits(c);
  defaultPodSpec(spec);
}

/** SetDefaults_PodSpec, then the per-container, per-volume defaults the generated defaulter applies. */
export function defaultPodSpec(spec: Obj): void {
  setIfAbsent(spec, 'dnsPolicy', 'ClusterFirst');
  setIfAbsent(spec, 'restartPolicy', 'Always');
  setIfAbsent(spec, 'securityContext', {});
  setIfAbsent(spec, 'terminationGracePeriodSeconds', 30);
  setIfAbsent(spec, 'schedulerName', 'default-scheduler');
  for (const c of [...list(spec, 'containers'), ...list(spec, 'initContainers')]) defaultContainer(c);
  for (const v of list(spec, 'volumes')) defaultVolume(v);
}

/** SetDefaults_Container, SetDefaults_ContainerPort, SetDefaults_Probe, SetDefaults_HTTPGetAction. */
function defaultContainer(c: Obj): void {
  if (!c['imagePullPolicy']) c['imagePullPolicy'] = imageTag(String(c['image'] ?? '')) === 'latest' ? 'Always' : 'IfNotPresent';
  setIfAbsent(c, 'terminationMessagePath', TERMINATION_MESSAGE_PATH_DEFAULT);
  setIfAbsent(c, 'terminationMessagePolicy', 'File');
  for (const p of list(c, 'ports')) setIfAbsent(p, 'protocol', 'TCP');
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const p = c[probe];
    if (!isObj(p)) continue;
    setIfAbsent(p, 'timeoutSeconds', 1);
    setIfAbsent(p, 'periodSeconds', 10);
    setIfAbsent(p, 'successThreshold', 1);
    setIfAbsent(p, 'failureThreshold', 3);
    if (isObj(p['httpGet'])) {
      setIfAbsent(p['httpGet'], 'path', '/');
      setIfAbsent(p['httpGet'], 'scheme', 'HTTP');
    }
  }
}

function defaultRequestsFromLimits(c: Obj): void {
  const resources = c['resources'];
  if (!isObj(resources) || !isObj(resources['limits'])) return;
  const requests = child(resources, 'requests');
  for (const [k, v] of Object.entries(resources['limits'])) if (!(k in requests)) requests[k] = v;
}

/** SetDefaults_Volume (a bare volume is an emptyDir) and the *VolumeSource defaultMode defaults. */
function defaultVolume(v: Obj): void {
  const sources = Object.keys(v).filter((k) => k !== 'name');
  if (sources.length === 0) v['emptyDir'] = {};
  for (const kind of ['secret', 'configMap', 'projected', 'downwardAPI']) {
    if (isObj(v[kind])) setIfAbsent(v[kind], 'defaultMode', VOLUME_DEFAULT_MODE);
  }
}

/**
 * The tag parsers.ParseImageName finds: the text after the last ':' that follows the last '/';
 * "latest" when there is neither tag nor digest; '' when there is only a digest.
 */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const colon = name.lastIndexOf(':');
  const tag = colon > name.lastIndexOf('/') ? name.slice(colon + 1) : '';
  if (tag !== '') return tag;
  return at >= 0 ? '' : 'latest';
}

/** SetDefaults_Service. */
function defaultService(svc: Obj): void {
  const spec = child(svc, 'spec');
  setIfAbsent(spec, 'sessionAffinity', 'None');
  setIfAbsent(spec, 'type', 'ClusterIP');
  for (const p of list(spec, 'ports')) {
    setIfAbsent(p, 'protocol', 'TCP');
    if (p['targetPort'] === undefined || p['targetPort'] === 0 || p['targetPort'] === '') p['targetPort'] = p['port'];
  }
  const type = spec['type'];
  const externallyAccessible = type === 'NodePort' || type === 'LoadBalancer' || list(spec, 'externalIPs').length > 0;
  if (externallyAccessible) setIfAbsent(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') setIfAbsent(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') setIfAbsent(spec, 'allocateLoadBalancerNodePorts', true);
}

/** SetDefaults_Namespace (the kubernetes.io/metadata.name label) and SetDefaults_NamespaceStatus. */
function defaultNamespace(ns: Obj): void {
  const name = ns['metadata']?.['name'];
  if (name) child(child(ns, 'metadata'), 'labels')['kubernetes.io/metadata.name'] = name;
  setIfAbsent(child(ns, 'status'), 'phase', 'Active');
}

function defaultWorkload(obj: Obj, specDefaults: (spec: Obj) => void): void {
  const spec = child(obj, 'spec');
  specDefaults(spec);
  const template = spec['template'];
  if (isObj(template)) defaultPodSpec(child(template, 'spec'));
}

/** SetDefaults_Deployment: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600. */
function defaultDeploymentSpec(spec: Obj): void {
  setIfAbsent(spec, 'replicas', 1);
  const strategy = child(spec, 'strategy');
  setIfAbsent(strategy, 'type', 'RollingUpdate');
  if (strategy['type'] === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    setIfAbsent(ru, 'maxUnavailable', '25%');
    setIfAbsent(ru, 'maxSurge', '25%');
  }
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
  setIfAbsent(spec, 'progressDeadlineSeconds', 600);
}

/** SetDefaults_StatefulSet (StatefulSetAutoDeletePVC is on by default since 1.32). */
function defaultStatefulSetSpec(spec: Obj): void {
  setIfAbsent(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = child(spec, 'updateStrategy');
  if (!strategy['type']) {
    strategy['type'] = 'RollingUpdate';
    setIfAbsent(strategy, 'rollingUpdate', {});
  }
  if (strategy['type'] === 'RollingUpdate' && isObj(strategy['rollingUpdate'])) setIfAbsent(strategy['rollingUpdate'], 'partition', 0);
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  setIfAbsent(retention, 'whenDeleted', 'Retain');
  setIfAbsent(retention, 'whenScaled', 'Retain');
  setIfAbsent(spec, 'replicas', 1);
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1, maxSurge 0; revisionHistoryLimit 10. */
function defaultDaemonSetSpec(spec: Obj): void {
  const strategy = child(spec, 'updateStrategy');
  setIfAbsent(strategy, 'type', 'RollingUpdate');
  if (strategy['type'] === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    setIfAbsent(ru, 'maxUnavailable', 1);
    setIfAbsent(ru, 'maxSurge', 0);
  }
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function child(obj: Obj, key: string): Obj {
  if (!isObj(obj[key])) obj[key] = {};
  return obj[key];
}

function list(obj: Obj, key: string): Obj[] {
  const v = obj[key];
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** Go's "zero value means unset": empty strings and null count as absent too. */
function setIfAbsent(obj: Obj, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === '') obj[key] = value;
}
