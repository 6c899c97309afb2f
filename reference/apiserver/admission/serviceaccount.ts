/**
 * The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go), for
 * pod CREATE only:
 * - a pod without serviceAccountName gets "default";
 * - the ServiceAccount must exist, else `pods "x" is forbidden: error looking up service
 *   account ns/name: serviceaccount "name" not found`;
 * - unless automounting is off (pod's automountServiceAccountToken wins over the
 *   ServiceAccount's), every container and init container without a mount at
 *   /var/run/secrets/kubernetes.io/serviceaccount mounts a projected volume `kube-api-access-xxxxx`
 *   holding a bound token (3607 s), the cluster CA (ConfigMap kube-root-ca.crt) and the namespace;
 * - the pod inherits the ServiceAccount's imagePullSecrets when it lists none;
 * - mirror pods (annotation kubernetes.io/config.mirror) are not mutated and may not reference a
 *   ServiceAccount.
 * It is both a mutating and a validating plugin, like upstream's (Admit + Validate).
 */
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from '../pipeline.ts';
import { admissionForbidden } from './errors.ts';

export const SERVICE_ACCOUNT_PLUGIN_NAME = 'ServiceAccount';
export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: one hour and seven seconds. */
export const BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

type Obj = Record<string, any>;
type MaybePromise<T> = T | Promise<T>;

export interface ServiceAccountAdmissionOptions {
  /** The ServiceAccount object, or undefined when it does not exist. */
  getServiceAccount(namespace: string, name: string): MaybePromise<Obj | undefined>;
  /** Five characters for the volume name (see names.ts randomSuffix with a seeded PRNG). */
  volumeNameSuffix(): string;
}

export function serviceAccountAdmission(opts: ServiceAccountAdmissionOptions): MutatingPlugin & ValidatingPlugin {
  return {
    name: SERVICE_ACCOUNT_PLUGIN_NAME,
    // Both phases start by ignoring what podOf does not return.
    handles: (attrs) => podOf(attrs) !== undefined,
    async admit(attrs: AdmissionAttributes): Promise<void> {
      const pod = podOf(attrs);
      if (!pod) return;
      if (isMirrorPod(pod)) return checkMirrorPod(attrs, pod);
      const spec = (pod['spec'] ??= {});
      if (!spec['serviceAccountName']) spec['serviceAccountName'] = spec['serviceAccount'] || DEFAULT_SERVICE_ACCOUNT_NAME;
      // The v1 API mirrors the name into the deprecated field.
      spec['serviceAccount'] = spec['serviceAccountName'];
      const sa = await lookUp(opts, attrs, spec['serviceAccountName']);
      if (shouldAutomount(sa, spec)) mountToken(spec, opts.volumeNameSuffix);
      if (!Array.isArray(spec['imagePullSecrets']) || spec['imagePullSecrets'].length === 0) {
        const secrets = Array.isArray(sa['imagePullSecrets']) ? sa['imagePullSecrets'] : [];
        if (secrets.length > 0) spec['imagePullSecrets'] = secrets.map((s: Obj) => ({ name: s['name'] }));
      }
    },
    async validate(attrs: AdmissionAttributes): Promise<void> {
      const pod = podOf(attrs);
      if (!pod) return;
      if (isMirrorPod(pod)) return checkMirrorPod(attrs, pod);
      await lookUp(opts, attrs, pod['spec']?.['serviceAccountName'] ?? '');
    },
  };
}

/** upstream shouldIgnore: only pods, no subresource, an object present; Handler(admission.Create). */
function podOf(attrs: AdmissionAttributes): Obj | undefined {
  if (attrs.operation !== 'CREATE') return undefined;
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '') return undefined;
  return typeof attrs.object === 'object' && attrs.object !== null ? attrs.object : undefined;
}

async function lookUp(opts: ServiceAccountAdmissionOptions, attrs: AdmissionAttributes, name: string): Promise<Obj> {
  const sa = await opts.getServiceAccount(attrs.namespace, name);
  if (sa) return sa;
  throw admissionForbidden(
    attrs,
    `error looking up service account ${attrs.namespace}/${name}: serviceaccount "${name}" not found`,
    SERVICE_ACCOUNT_PLUGIN_NAME,
  );
}

function isMirrorPod(pod: Obj): boolean {
  return pod['metadata']?.['annotations']?.[MIRROR_POD_ANNOTATION] !== undefined;
}

function checkMirrorPod(attrs: AdmissionAttributes, pod: Obj): void {
  if (pod['spec']?.['serviceAccountName']) {
    throw admissionForbidden(attrs, 'a mirror pod may not reference service accounts', SERVICE_ACCOUNT_PLUGIN_NAME);
  }
}

function shouldAutomount(sa: Obj, spec: Obj): boolean {
  if (typeof spec['automountServiceAccountToken'] === 'boolean') return spec['automountServiceAccountToken'];
  if (typeof sa['automountServiceAccountToken'] === 'boolean') return sa['automountServiceAccountToken'];
  return true;
}

function mountToken(spec: Obj, suffix: () => string): void {
  const volumes: Obj[] = Array.isArray(spec['volumes']) ? spec['volumes'] : [];
  const existing = volumes.find((v) => String(v['name'] ?? '').startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX));
  const volumeName = existing ? String(existing['name']) : `${SERVICE_ACCOUNT_VOLUME_PREFIX}${suffix()}`;
  let needsVolume = false;
  for (const key of ['initContainers', 'containers']) {
    for (const c of Array.isArray(spec[key]) ? (spec[key] as Obj[]) : []) {
      const mounts: Obj[] = Array.isArray(c['volumeMounts']) ? c['volumeMounts'] : [];
      if (mounts.some((m) => m['mountPath'] === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
      c['volumeMounts'] = [...mounts, { name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec['volumes'] = [...volumes, tokenVolume(volumeName)];
}

/**
 * upstream TokenVolumeSource(). defaultMode 420 is what decoding defaults add when the pod is
 * read back from storage; it is written here directly so the stored object matches what
 * clients see on a real cluster.
 */
export function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}
