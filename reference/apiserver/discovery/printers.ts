/**
 * The columns `kubectl get` shows, as kube-apiserver's table printers define them
 * (pkg/printers/internalversion/printers.go). Each printer lists its columns (priority 1 are
 * the `-o wide` ones) and how to fill a row; resources without one get Name and Created At.
 */
import { age } from './age.ts';
import { AGE, NAME, col, created, type Printer } from './columns.ts';
import { MORE_PRINTERS } from './printers-more.ts';

export type { Column, Printer } from './columns.ts';

const none = (v: unknown): string => (v === undefined || v === null || v === '' ? '<none>' : String(v));

function podStatus(p: any): string {
  if (p.metadata?.deletionTimestamp) return 'Terminating';
  let reason = p.status?.reason || p.status?.phase || 'Unknown';
  for (const c of p.status?.containerStatuses ?? []) {
    const waiting = c?.state?.waiting?.reason;
    const terminated = c?.state?.terminated?.reason;
    if (waiting) reason = waiting;
    else if (terminated && reason !== 'Running') reason = terminated;
  }
  return reason;
}

function servicePorts(s: any): string {
  const ports: any[] = s.spec?.ports ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

function nodeStatus(n: any): string {
  const ready = (n.status?.conditions ?? []).find((c: any) => c?.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown';
  return n.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
}

/** printJob's Status column (pkg/printers/internalversion/printers.go): the first that holds. */
function jobStatus(j: any): string {
  const isTrue = (type: string) => (j.status?.conditions ?? []).some((c: any) => c?.type === type && c?.status === 'True');
  if (isTrue('Complete')) return 'Complete';
  if (isTrue('Failed')) return 'Failed';
  if (j.metadata?.deletionTimestamp) return 'Terminating';
  if (isTrue('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (isTrue('FailureTarget')) return 'FailureTarget';
  if (j.spec?.suspend === true) return 'Suspended';
  return 'Running';
}

/** printJob's Completions: succeeded/completions, or for a work queue "n/1 of parallelism". */
function jobCompletions(j: any): string {
  const succeeded = j.status?.succeeded ?? 0;
  if (typeof j.spec?.completions === 'number') return `${succeeded}/${j.spec.completions}`;
  const parallelism = j.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function nodeRoles(n: any): string {
  const roles = Object.keys(n.metadata?.labels ?? {}).filter((k) => k.startsWith('node-role.kubernetes.io/')).map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.sort().join(',') : '<none>';
}

/** At most three entries, then "+ N more..." (formatEndpoints / formatDiscoveryEndpoints in printers.go). */
function firstThree(items: string[], empty: string): string {
  if (items.length === 0) return empty;
  return items.slice(0, 3).join(',') + (items.length > 3 ? ` + ${items.length - 3} more...` : '');
}

/** formatEndpoints: each ready address with each port, "ip:port". */
function endpointsList(e: any): string {
  const out: string[] = [];
  for (const s of e.subsets ?? []) {
    const ports: any[] = (s.ports ?? []).length > 0 ? s.ports : [undefined];
    for (const a of s.addresses ?? []) for (const p of ports) out.push(p ? `${a.ip}:${p.port}` : a.ip);
  }
  return firstThree(out, '<none>');
}

export const PRINTERS: Record<string, Printer> = {
  pods: {
    columns: [NAME, col('Ready'), col('Status'), col('Restarts', 'string'), AGE, col('IP', 'string', 1), col('Node', 'string', 1), col('Nominated Node', 'string', 1), col('Readiness Gates', 'string', 1)],
    cells: (p, now) => {
      const statuses: any[] = p.status?.containerStatuses ?? [];
      const total = (p.spec?.containers ?? []).length;
      const ready = statuses.filter((c) => c?.ready).length;
      const restarts = statuses.reduce((n, c) => n + (c?.restartCount ?? 0), 0);
      return [p.metadata.name, `${ready}/${total}`, podStatus(p), String(restarts), created(p, now), none(p.status?.podIP), none(p.spec?.nodeName), none(p.status?.nominatedNodeName), '<none>'];
    },
  },
  deployments: {
    columns: [NAME, col('Ready'), col('Up-to-date', 'integer'), col('Available', 'integer'), AGE, col('Containers', 'string', 1), col('Images', 'string', 1), col('Selector', 'string', 1)],
    cells: (d, now) => {
      const cs: any[] = d.spec?.template?.spec?.containers ?? [];
      return [d.metadata.name, `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`, d.status?.updatedReplicas ?? 0, d.status?.availableReplicas ?? 0, created(d, now),
        cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(','), Object.entries(d.spec?.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',')];
    },
  },
  replicasets: {
    columns: [NAME, col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), AGE],
    cells: (r, now) => [r.metadata.name, r.spec?.replicas ?? 0, r.status?.replicas ?? 0, r.status?.readyReplicas ?? 0, created(r, now)],
  },
  jobs: {
    columns: [NAME, col('Status'), col('Completions'), col('Duration'), AGE, col('Containers', 'string', 1), col('Images', 'string', 1), col('Selector', 'string', 1)],
    cells: (j, now) => {
      const cs: any[] = j.spec?.template?.spec?.containers ?? [];
      const start = j.status?.startTime;
      const end = Date.parse(j.status?.completionTime ?? '') || now;
      return [j.metadata.name, jobStatus(j), jobCompletions(j), start ? age(start, end) : '', created(j, now),
        cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(','), Object.entries(j.spec?.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',')];
    },
  },
  nodes: {
    columns: [NAME, col('Status'), col('Roles'), AGE, col('Version'), col('Internal-IP', 'string', 1)],
    cells: (n, now) => [n.metadata.name, nodeStatus(n), nodeRoles(n), created(n, now), n.status?.nodeInfo?.kubeletVersion ?? '',
      none((n.status?.addresses ?? []).find((a: any) => a?.type === 'InternalIP')?.address)],
  },
  services: {
    columns: [NAME, col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), AGE, col('Selector', 'string', 1)],
    cells: (s, now) => [s.metadata.name, s.spec?.type ?? 'ClusterIP', none(s.spec?.clusterIP), none((s.spec?.externalIPs ?? []).join(',')), servicePorts(s), created(s, now),
      none(Object.entries(s.spec?.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(','))],
  },
  endpoints: { columns: [NAME, col('Endpoints'), AGE], cells: (e, now) => [e.metadata.name, endpointsList(e), created(e, now)] },
  endpointslices: {
    columns: [NAME, col('AddressType'), col('Ports'), col('Endpoints'), AGE],
    cells: (s, now) => [s.metadata.name, s.addressType ?? '', firstThree((s.ports ?? []).map((p: any) => (p.port === undefined ? '<unset>' : String(p.port))), '<unset>'),
      firstThree((s.endpoints ?? []).flatMap((ep: any) => ep.addresses ?? []), '<unset>'), created(s, now)],
  },
  namespaces: { columns: [NAME, col('Status'), AGE], cells: (n, now) => [n.metadata.name, n.status?.phase ?? '', created(n, now)] },
  configmaps: { columns: [NAME, col('Data', 'integer'), AGE], cells: (c, now) => [c.metadata.name, Object.keys(c.data ?? {}).length + Object.keys(c.binaryData ?? {}).length, created(c, now)] },
  secrets: { columns: [NAME, col('Type'), col('Data', 'integer'), AGE], cells: (s, now) => [s.metadata.name, s.type ?? '', Object.keys(s.data ?? {}).length, created(s, now)] },
  leases: { columns: [NAME, col('Holder'), AGE], cells: (l, now) => [l.metadata.name, l.spec?.holderIdentity ?? '', created(l, now)] },
  priorityclasses: { columns: [NAME, col('Value', 'integer'), col('Global-Default'), AGE], cells: (p, now) => [p.metadata.name, p.value ?? 0, String(p.globalDefault ?? false), created(p, now)] },
  poddisruptionbudgets: {
    columns: [NAME, col('Min Available'), col('Max Unavailable'), col('Allowed Disruptions', 'integer'), AGE],
    cells: (p, now) => [p.metadata.name, none(p.spec?.minAvailable ?? 'N/A'), none(p.spec?.maxUnavailable ?? 'N/A'), p.status?.disruptionsAllowed ?? 0, created(p, now)],
  },
  events: {
    columns: [col('Last Seen'), col('Type'), col('Reason'), col('Object'), col('Message'), { ...NAME, priority: 1 }],
    cells: (e, now) => [age(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp, now), e.type ?? '', e.reason ?? '',
      `${String(e.involvedObject?.kind ?? '').toLowerCase()}/${e.involvedObject?.name ?? ''}`, e.message ?? '', e.metadata.name],
  },
};

/**
 * The CRD registry's table is rest.NewDefaultTableConvertor's: Name and Created At
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/etcd.go);
 * a cell is the creation timestamp itself, which kubectl prints as it is.
 */
PRINTERS.customresourcedefinitions = {
  columns: [NAME, { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' }],
  cells: (o) => [o.metadata?.name ?? '', o.metadata?.creationTimestamp ?? null],
};

Object.assign(PRINTERS, MORE_PRINTERS);

/**
 * A resource without a printer gets rest.NewDefaultTableConvertor's table, Name and Created At, as
 * upstream's roles, clusterroles and limitranges do
 * (staging/src/k8s.io/apiserver/pkg/registry/rest/table.go).
 */
export const DEFAULT_PRINTER: Printer = PRINTERS.customresourcedefinitions!;
