/**
 * The PodSecurity admission plugin (plugin/pkg/admission/security/podsecurity/admission.go over
 * k8s.io/pod-security-admission admission/admission.go), a validating plugin:
 *
 * - Pods (create, and updates that change an image or seccomp annotation — isSignificantPodUpdate;
 *   the status, binding, eviction, log, exec... subresources are skipped): the namespace's
 *   `enforce` policy denies with 403 Forbidden,
 *     pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ...
 *   `audit` adds the audit annotation pod-security.kubernetes.io/audit-violations
 *     (`would violate PodSecurity "baseline:latest": ...`), and `warn`, on an allowed request,
 *   a Warning header with the same text.
 * - Workloads with a pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
 *   ReplicationController, PodTemplate): warn and audit only; upstream never enforces on them,
 *   since the pods they make are checked themselves.
 * A namespace with unparseable labels evaluates as upstream does (see policy.ts) and the request
 * carries the `error` annotation.
 */
import type { Faults } from '../../../faults.ts';
import type { AdmissionAttributes, ValidatingPlugin } from '../../pipeline.ts';
import { admissionForbidden, internalError } from '../errors.ts';
import { evaluatePod, forbiddenDetail } from './evaluate.ts';
import { invalid } from '../../status.ts';
import { describe, describeErrors, policyFromLabels, sameLevelVersion, strictness, versionText, type LabelError, type LevelVersion, type Policy } from './policy.ts';

export const POD_SECURITY_PLUGIN_NAME = 'PodSecurity';
/** api.AuditAnnotationPrefix + the keys upstream's admission sets. */
export const AUDIT_ANNOTATION_PREFIX = 'pod-security.kubernetes.io/';

export interface PodSecurityOptions {
  /** The namespace's labels, or undefined when it does not exist. */
  getNamespace(name: string): Promise<{ metadata?: { labels?: Record<string, string> } } | undefined>;
  /** The pods of a namespace, to warn which ones a stricter enforce label would refuse. Leave out to skip that. */
  listPods?(namespace: string): Promise<any[]>;
  /** Fault models to inject (reference/faults.ts); default none. */
  faults?: Faults;
}

/** upstream's namespaceMaxPodsToCheck default. */
export const MAX_PODS_TO_CHECK = 3000;

/** Upstream's ignoredPodSubresources: none of these can change what the checks read. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** Where each workload keeps its pod template (PodSpecExtractor's DefaultPodSpecExtractor). */
const POD_TEMPLATE_PATHS: Record<string, (o: any) => any> = {
  '/replicationcontrollers': (o) => o?.spec?.template,
  '/podtemplates': (o) => o?.template,
  'apps/replicasets': (o) => o?.spec?.template,
  'apps/deployments': (o) => o?.spec?.template,
  'apps/statefulsets': (o) => o?.spec?.template,
  'apps/daemonsets': (o) => o?.spec?.template,
  'batch/jobs': (o) => o?.spec?.template,
  'batch/cronjobs': (o) => o?.spec?.jobTemplate?.spec?.template,
};

function podSecurityKey(key: string): boolean {
  return key === '/namespaces' || key === '/pods' || POD_TEMPLATE_PATHS[key] !== undefined;
}

export function podSecurityAdmission(opts: PodSecurityOptions): ValidatingPlugin {
  return {
    name: POD_SECURITY_PLUGIN_NAME,
    // A create or update of a namespace, a pod or a workload with a pod template; validate narrows further.
    handles: (attrs) => (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') && podSecurityKey(`${attrs.resource.group}/${attrs.resource.resource}`),
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
      const key = `${attrs.resource.group}/${attrs.resource.resource}`;
      if (key === '/namespaces') return validateNamespace(attrs, opts);
      const isPod = key === '/pods';
      const template = POD_TEMPLATE_PATHS[key];
      if (!isPod && !template) return;
      if (isPod ? IGNORED_POD_SUBRESOURCES.has(attrs.subresource) : attrs.subresource !== '') return;
      if (isPod && attrs.operation === 'UPDATE' && !significantPodUpdate(attrs.object, attrs.oldObject)) return;

      const namespace = await opts.getNamespace(attrs.namespace);
      if (!namespace) throw internalError(`failed to lookup namespace ${attrs.namespace}`, POD_SECURITY_PLUGIN_NAME);
      const { policy, errors } = policyFromLabels(namespace.metadata?.labels);
      // Upstream's short-circuit: nothing to evaluate (and nothing annotated) where every mode that applies is privileged.
      const modes = isPod ? [policy.enforce, policy.audit, policy.warn] : [policy.audit, policy.warn];
      if (errors.length === 0 && modes.every((lv) => lv.level === 'privileged')) return;
      if (errors.length > 0) attrs.annotate?.(`${AUDIT_ANNOTATION_PREFIX}error`, `Failed to parse policy: ${describeErrors(errors)}`);
      const target = isPod ? attrs.object : template!(attrs.object);
      if (!target) return;
      evaluate(attrs, policy, target?.metadata ?? {}, target?.spec ?? {}, isPod && !opts.faults?.has('podsecurity-not-enforced'));
    },
  };
}

/** EvaluatePod: enforce (pods only), then audit, then warn when the request is allowed. */
function evaluate(attrs: AdmissionAttributes, policy: Policy, meta: any, spec: any, enforce: boolean): void {
  const cache = new Map<string, string>();
  const detailFor = (lv: LevelVersion) => {
    const key = describe(lv);
    if (!cache.has(key)) cache.set(key, forbiddenDetail(evaluatePod(lv, meta, spec)));
    return cache.get(key)!;
  };
  let denied: string | undefined;
  if (enforce) {
    attrs.annotate?.(`${AUDIT_ANNOTATION_PREFIX}enforce-policy`, describe(policy.enforce));
    const detail = detailFor(policy.enforce);
    if (detail) denied = `violates PodSecurity ${JSON.stringify(describe(policy.enforce))}: ${detail}`;
  }
  const audit = detailFor(policy.audit);
  if (audit) attrs.annotate?.(`${AUDIT_ANNOTATION_PREFIX}audit-violations`, `would violate PodSecurity ${JSON.stringify(describe(policy.audit))}: ${audit}`);
  if (denied) throw admissionForbidden(attrs, denied, POD_SECURITY_PLUGIN_NAME);
  const warn = detailFor(policy.warn);
  if (warn) attrs.warn?.(`would violate PodSecurity ${JSON.stringify(describe(policy.warn))}: ${warn}`);
}

/**
 * ValidateNamespace: labels must parse on create, and on an update that changes what fails to
 * parse (422 Invalid, as field errors on metadata.labels). When an update makes enforce stricter,
 * the answer warns which existing pods the new level would refuse (EvaluatePodsInNamespace).
 */
async function validateNamespace(attrs: AdmissionAttributes, opts: PodSecurityOptions): Promise<void> {
  if (attrs.subresource !== '') return;
  const next = policyFromLabels(attrs.object?.metadata?.labels);
  if (attrs.operation === 'CREATE') {
    if (next.errors.length > 0) throw labelsInvalid(attrs, next.errors);
    return;
  }
  const before = policyFromLabels(attrs.oldObject?.metadata?.labels);
  if (next.errors.length > 0 && describeErrors(next.errors) !== (before.errors.length > 0 ? describeErrors(before.errors) : '')) throw labelsInvalid(attrs, next.errors);
  const [now, then] = [next.policy.enforce, before.policy.enforce];
  if (sameLevelVersion(now, then) || now.level === 'privileged') return;
  // Same version and the level was not raised: nothing that ran before can be refused now.
  if (versionText(now.version) === versionText(then.version) && strictness(now.level) <= strictness(then.level)) return;
  if (!opts.listPods) return;
  for (const warning of existingPodWarnings(attrs.name, now, await opts.listPods(attrs.name))) attrs.warn?.(warning);
}

function labelsInvalid(attrs: AdmissionAttributes, errors: LabelError[]) {
  return invalid('', 'Namespace', attrs.name || String(attrs.object?.metadata?.name ?? ''), errors.map((e) => ({ type: 'Invalid' as const, field: e.field, value: e.value, detail: e.detail })));
}

/** One warning per distinct set of reasons, naming the first pod (by name) and how many others share it. */
export function existingPodWarnings(namespace: string, enforce: LevelVersion, pods: any[]): string[] {
  const checked = pods.slice(0, MAX_PODS_TO_CHECK);
  const byReason = new Map<string, { first: string; count: number }>();
  for (const pod of checked) {
    const reasons = evaluatePod(enforce, pod?.metadata ?? {}, pod?.spec ?? {}).map((v) => v.reason).join(', ');
    if (!reasons) continue;
    const name = String(pod?.metadata?.name ?? '');
    const seen = byReason.get(reasons);
    if (!seen) byReason.set(reasons, { first: name, count: 1 });
    else byReason.set(reasons, { first: name < seen.first ? name : seen.first, count: seen.count + 1 });
  }
  const warnings: string[] = [];
  if (checked.length < pods.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${pods.length} existing pods`);
  if (byReason.size === 0) return warnings;
  warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(describe(enforce))}`);
  const others = (n: number) => (n === 1 ? '' : n === 2 ? ' (and 1 other pod)' : ` (and ${n - 1} other pods)`);
  const perPod = [...byReason].map(([reasons, { first, count }]) => `${first}${others(count)}: ${reasons}`).sort();
  return [...warnings, ...perPod];
}

/** isSignificantPodUpdate: only images and seccomp annotations of a running pod can change. */
function significantPodUpdate(pod: any, old: any): boolean {
  const seccomp = 'seccomp.security.alpha.kubernetes.io/pod';
  if (pod?.metadata?.annotations?.[seccomp] !== old?.metadata?.annotations?.[seccomp]) return true;
  for (const field of ['containers', 'initContainers'] as const) {
    const now = asList(pod?.spec?.[field]);
    const before = asList(old?.spec?.[field]);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => containerChanged(c, before[i], pod, old))) return true;
  }
  const oldEphemeral = new Map<string, any>(asList(old?.spec?.ephemeralContainers).map((c: any) => [c?.name, c]));
  return asList(pod?.spec?.ephemeralContainers).some((c: any) => !oldEphemeral.has(c?.name) || containerChanged(c, oldEphemeral.get(c?.name), pod, old));
}

const asList = (field: unknown): any[] => (Array.isArray(field) ? field : []);

function containerChanged(c: any, before: any, pod: any, old: any): boolean {
  if (c?.image !== before?.image) return true;
  const key = `container.seccomp.security.alpha.kubernetes.io/${c?.name}`;
  return pod?.metadata?.annotations?.[key] !== old?.metadata?.annotations?.[key];
}
