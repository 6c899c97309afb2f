/**
 * Defaulting as upstream's SetDefaults_* functions do it (pkg/apis/core/v1/defaults.go,
 * pkg/apis/apps/v1/defaults.go, pkg/apis/batch/v1/defaults.go), for the fields controllers,
 * the scheduler and kubectl's diffs depend on. Runs on every write, before validation.
 */

function setIfAbsent(o: any, key: string, value: unknown): void {
  if (o && typeof o === 'object' && (o[key] === undefined || o[key] === null)) o[key] = value;
}

function defaultContainer(c: any): void {
  if (!c || typeof c !== 'object') return;
  const image = typeof c.image === 'string' ? c.image : '';
  const lastPart = image.split('/').pop() ?? '';
  const tagged = lastPart.includes(':') && !image.endsWith(':latest');
  const digested = image.includes('@');
  setIfAbsent(c, 'imagePullPolicy', tagged || digested ? 'IfNotPresent' : 'Always');
  setIfAbsent(c, 'terminationMessagePath', '/dev/termination-log');
  setIfAbsent(c, 'terminationMessagePolicy', 'File');
  for (const p of Array.isArray(c.ports) ? c.ports : []) setIfAbsent(p, 'protocol', 'TCP');
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) defaultProbe(probe);
}

/** SetDefaults_Probe and SetDefaults_HTTPGetAction (pkg/apis/core/v1/defaults.go). */
function defaultProbe(p: any): void {
  if (!p || typeof p !== 'object') return;
  setIfAbsent(p, 'timeoutSeconds', 1);
  setIfAbsent(p, 'periodSeconds', 10);
  setIfAbsent(p, 'successThreshold', 1);
  setIfAbsent(p, 'failureThreshold', 3);
  if (p.httpGet && typeof p.httpGet === 'object') {
    setIfAbsent(p.httpGet, 'path', '/');
    setIfAbsent(p.httpGet, 'scheme', 'HTTP');
  }
}

export function defaultPodSpec(spec: any): void {
  if (!spec || typeof spec !== 'object') return;
  setIfAbsent(spec, 'restartPolicy', 'Always');
  setIfAbsent(spec, 'dnsPolicy', 'ClusterFirst');
  setIfAbsent(spec, 'schedulerName', 'default-scheduler');
  setIfAbsent(spec, 'terminationGracePeriodSeconds', 30);
  setIfAbsent(spec, 'securityContext', {});
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) defaultContainer(c);
  for (const c of Array.isArray(spec.initContainers) ? spec.initContainers : []) defaultContainer(c);
  for (const t of Array.isArray(spec.tolerations) ? spec.tolerations : []) {
    if (t && typeof t === 'object' && t.operator === undefined && t.key !== undefined) t.operator = 'Equal';
  }
}

function defaultTemplate(spec: any): void {
  if (spec?.template && typeof spec.template === 'object') defaultPodSpec(spec.template.spec);
}

function defaultDeployment(o: any): void {
  const spec = o.spec;
  if (!spec || typeof spec !== 'object') return;
  setIfAbsent(spec, 'replicas', 1);
  setIfAbsent(spec, 'strategy', { type: 'RollingUpdate' });
  if (spec.strategy?.type === undefined) spec.strategy.type = 'RollingUpdate';
  if (spec.strategy?.type === 'RollingUpdate') {
    setIfAbsent(spec.strategy, 'rollingUpdate', {});
    setIfAbsent(spec.strategy.rollingUpdate, 'maxUnavailable', '25%');
    setIfAbsent(spec.strategy.rollingUpdate, 'maxSurge', '25%');
  }
  setIfAbsent(spec, 'revisionHistoryLimit', 10);
  setIfAbsent(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}

function defaultJob(o: any): void {
  const spec = o.spec;
  if (!spec || typeof spec !== 'object') return;
  setIfAbsent(spec, 'parallelism', 1);
  setIfAbsent(spec, 'completions', spec.parallelism === 1 ? 1 : undefined);
  if (spec.completions === undefined) delete spec.completions;
  setIfAbsent(spec, 'backoffLimit', 6);
  setIfAbsent(spec, 'completionMode', 'NonIndexed');
  setIfAbsent(spec, 'suspend', false);
  defaultTemplate(spec);
}

/** SetDefaults_CronJob: Allow, not suspended, keep 3 successful and 1 failed Job; the Job template's pod spec too. */
function defaultCronJob(o: any): void {
  const spec = o.spec;
  if (!spec || typeof spec !== 'object') return;
  setIfAbsent(spec, 'concurrencyPolicy', 'Allow');
  setIfAbsent(spec, 'suspend', false);
  setIfAbsent(spec, 'successfulJobsHistoryLimit', 3);
  setIfAbsent(spec, 'failedJobsHistoryLimit', 1);
  defaultTemplate(spec.jobTemplate?.spec);
}

function defaultService(o: any): void {
  const spec = o.spec;
  if (!spec || typeof spec !== 'object') return;
  setIfAbsent(spec, 'type', 'ClusterIP');
  setIfAbsent(spec, 'sessionAffinity', 'None');
  // SetDefaults_Service: ClientIP affinity gets the 3-hour timeout (DefaultClientIPServiceAffinitySeconds).
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { ...(spec.sessionAffinityConfig ?? {}), clientIP: { ...(spec.sessionAffinityConfig?.clientIP ?? {}), timeoutSeconds: 10800 } };
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer')) setIfAbsent(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.type !== 'ExternalName') setIfAbsent(spec, 'internalTrafficPolicy', 'Cluster');
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    setIfAbsent(p, 'protocol', 'TCP');
    if (p && typeof p === 'object' && p.targetPort === undefined) p.targetPort = p.port;
  }
}

function defaultNamespace(o: any): void {
  if (typeof o.metadata.name === 'string' && o.metadata.name) o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': o.metadata.name };
  setIfAbsent(o, 'spec', {});
  setIfAbsent(o.spec, 'finalizers', ['kubernetes']);
}

function defaultSecret(o: any): void {
  setIfAbsent(o, 'type', 'Opaque');
  if (o.stringData && typeof o.stringData === 'object') {
    o.data = { ...(o.data ?? {}) };
    for (const [k, v] of Object.entries(o.stringData)) o.data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    delete o.stringData;
  }
}

const DEFAULTERS: Record<string, (o: any) => void> = {
  pods: (o) => defaultPodSpec(o.spec),
  deployments: defaultDeployment,
  replicasets: (o) => {
    setIfAbsent(o.spec, 'replicas', 1);
    defaultTemplate(o.spec);
  },
  jobs: defaultJob,
  cronjobs: defaultCronJob,
  services: defaultService,
  namespaces: defaultNamespace,
  secrets: defaultSecret,
  priorityclasses: (o) => setIfAbsent(o, 'preemptionPolicy', 'PreemptLowerPriority'),
};

/** Fills in defaults in place. The object has passed the schema check, so shapes are right. */
export function applyDefaults(resource: string, obj: any): void {
  DEFAULTERS[resource]?.(obj);
}
