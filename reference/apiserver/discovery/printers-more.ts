/**
 * The table printers of the APIs served for storage and validation (no controller of ours acts
 * on most of them), so `kubectl get statefulsets`, `get cronjobs`, `get pvc`, `get rolebindings`
 * print upstream's columns instead of Name and Age alone. Columns and cells as kube-apiserver's
 * pkg/printers/internalversion/printers.go defines them (printStatefulSet, printDaemonSet,
 * printCronJob, printReplicationController, printServiceAccount, printPersistentVolume(Claim),
 * printStorageClass, printIngress, printNetworkPolicy, printResourceQuota, printRoleBinding,
 * printClusterRoleBinding, printCertificateSigningRequest, printMutating/ValidatingWebhook).
 */
import { age, humanDuration } from './age.ts';
import { AGE, NAME, col, created, type Printer } from './columns.ts';

const WIDE_CONTAINERS = [col('Containers', 'string', 1), col('Images', 'string', 1)];

/** layoutContainerCells: names and images joined by commas. */
function containerCells(podSpec: any): [string, string] {
  const cs: any[] = podSpec?.containers ?? [];
  return [cs.map((c) => c?.name ?? '').join(','), cs.map((c) => c?.image ?? '').join(',')];
}

/** labels.FormatLabels: "k=v,…" sorted by key, "<none>" when empty. */
export function formatLabels(labels: Record<string, unknown> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}

/**
 * metav1.FormatLabelSelector: matchLabels as "k=v", then each expression ("k in (a,b)",
 * "k notin (a)", "k", "!k"); "<none>" for an empty selector, "<error>" without one.
 */
export function formatLabelSelector(selector: any): string {
  if (selector === undefined || selector === null) return '<none>';
  const parts = Object.keys(selector.matchLabels ?? {}).sort().map((k) => `${k}=${selector.matchLabels[k]}`);
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e?.values ?? [])].sort().join(',');
    if (e?.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e?.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e?.operator === 'Exists') parts.push(String(e.key));
    else if (e?.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}

/** printBoolPtr: "True"/"False", "<unset>" when absent. */
const boolPtr = (v: unknown): string => (v === true ? 'True' : v === false ? 'False' : '<unset>');

/** helper.GetAccessModesAsString: the short names, in upstream's fixed order. */
function accessModes(modes: unknown): string {
  const have = new Set(Array.isArray(modes) ? modes : []);
  const order: Array<[string, string]> = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];
  return order.filter(([mode]) => have.has(mode)).map(([, short]) => short).join(',');
}

/** The storage class of a PV or PVC: the field, else the beta annotation it replaced. */
function storageClassOf(o: any): string {
  return o.spec?.storageClassName ?? o.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
}

/** rbac SubjectsStrings: users, groups and "namespace/name" service accounts. */
function subjects(binding: any): [string, string, string] {
  const of = (kind: string) => (binding.subjects ?? []).filter((s: any) => s?.kind === kind);
  return [
    of('User').map((s: any) => s.name).join(', '),
    of('Group').map((s: any) => s.name).join(', '),
    of('ServiceAccount').map((s: any) => `${s.namespace ?? ''}/${s.name}`).join(', '),
  ];
}

const BINDING: Printer = {
  columns: [NAME, col('Role'), AGE, col('Users', 'string', 1), col('Groups', 'string', 1), col('ServiceAccounts', 'string', 1)],
  cells: (b, now) => [b.metadata.name, `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`, created(b, now), ...subjects(b)],
};

/** extractCSRStatus: "Pending" with no condition, else the conditions' types, then "Issued" once signed. */
function csrCondition(csr: any): string {
  const types = (csr.status?.conditions ?? []).map((c: any) => c?.type).filter((t: unknown) => t === 'Approved' || t === 'Denied' || t === 'Failed');
  const issued = csr.status?.certificate ? ['Issued'] : [];
  const all = [...types, ...issued];
  return all.length === 0 ? 'Pending' : all.join(',');
}

/** duration.HumanDuration of expirationSeconds, "<none>" without it. */
function requestedDuration(csr: any): string {
  const seconds = csr.spec?.expirationSeconds;
  return typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
}

/** printResourceQuota: "resource: used/hard" over status.hard, "limits.*" in the Limit column. */
function quotaCells(q: any): [string, string] {
  const hard: Record<string, string> = q.status?.hard ?? {};
  const used: Record<string, string> = q.status?.used ?? {};
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const entry = `${resource}: ${used[resource] ?? '0'}/${hard[resource]}`;
    (resource.split('.')[0] === 'limits' && resource.includes('.') ? limits : requests).push(entry);
  }
  return [requests.join(', '), limits.join(', ')];
}

/** formatHosts: the first three rules' hosts, "+ N more..." past them, "*" when none names one. */
function ingressHosts(rules: any[]): string {
  const MAX = 3;
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === MAX) more = true;
    if (!more && rule?.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - MAX} more...` : hosts.join(',');
}

const IS_DEFAULT_CLASS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

const WEBHOOKS: Printer = {
  columns: [NAME, col('Webhooks', 'integer'), AGE],
  cells: (w, now) => [w.metadata.name, (w.webhooks ?? []).length, created(w, now)],
};

export const MORE_PRINTERS: Record<string, Printer> = {
  statefulsets: {
    columns: [NAME, col('Ready'), AGE, ...WIDE_CONTAINERS],
    cells: (s, now) => [s.metadata.name, `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 0}`, created(s, now), ...containerCells(s.spec?.template?.spec)],
  },
  daemonsets: {
    columns: [NAME, col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), col('Up-to-date', 'integer'), col('Available', 'integer'), col('Node Selector'), AGE, ...WIDE_CONTAINERS, col('Selector', 'string', 1)],
    cells: (d, now) => {
      const st = d.status ?? {};
      return [d.metadata.name, st.desiredNumberScheduled ?? 0, st.currentNumberScheduled ?? 0, st.numberReady ?? 0, st.updatedNumberScheduled ?? 0, st.numberAvailable ?? 0,
        formatLabels(d.spec?.template?.spec?.nodeSelector), created(d, now), ...containerCells(d.spec?.template?.spec), formatLabelSelector(d.spec?.selector)];
    },
  },
  cronjobs: {
    columns: [NAME, col('Schedule'), col('Timezone'), col('Suspend', 'boolean'), col('Active', 'integer'), col('Last Schedule'), AGE, ...WIDE_CONTAINERS, col('Selector', 'string', 1)],
    cells: (c, now) => {
      const job = c.spec?.jobTemplate?.spec;
      return [c.metadata.name, c.spec?.schedule ?? '', c.spec?.timeZone ?? '<none>', boolPtr(c.spec?.suspend), (c.status?.active ?? []).length,
        c.status?.lastScheduleTime ? age(c.status.lastScheduleTime, now) : '<none>', created(c, now), ...containerCells(job?.template?.spec), formatLabelSelector(job?.selector)];
    },
  },
  replicationcontrollers: {
    columns: [NAME, col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), AGE, ...WIDE_CONTAINERS, col('Selector', 'string', 1)],
    cells: (r, now) => [r.metadata.name, r.spec?.replicas ?? 0, r.status?.replicas ?? 0, r.status?.readyReplicas ?? 0, created(r, now), ...containerCells(r.spec?.template?.spec), formatLabels(r.spec?.selector)],
  },
  serviceaccounts: {
    columns: [NAME, col('Secrets'), AGE],
    cells: (s, now) => [s.metadata.name, (s.secrets ?? []).length, created(s, now)],
  },
  persistentvolumes: {
    columns: [NAME, col('Capacity'), col('Access Modes'), col('Reclaim Policy'), col('Status'), col('Claim'), col('StorageClass'), col('VolumeAttributesClass'), col('Reason'), AGE, col('VolumeMode', 'string', 1)],
    cells: (pv, now) => {
      const claim = pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '';
      return [pv.metadata.name, pv.spec?.capacity?.storage ?? '', accessModes(pv.spec?.accessModes), pv.spec?.persistentVolumeReclaimPolicy ?? '', pv.status?.phase ?? '', claim,
        storageClassOf(pv), pv.spec?.volumeAttributesClassName ?? '<unset>', pv.status?.reason ?? '', created(pv, now), pv.spec?.volumeMode ?? '<unset>'];
    },
  },
  persistentvolumeclaims: {
    columns: [NAME, col('Status'), col('Volume'), col('Capacity'), col('Access Modes'), col('StorageClass'), col('VolumeAttributesClass'), AGE, col('VolumeMode', 'string', 1)],
    cells: (c, now) => {
      // Capacity and access modes are the bound volume's: shown once the claim names one.
      const bound = Boolean(c.spec?.volumeName);
      return [c.metadata.name, c.status?.phase ?? '', c.spec?.volumeName ?? '', bound ? (c.status?.capacity?.storage ?? '') : '', bound ? accessModes(c.status?.accessModes) : '',
        storageClassOf(c), c.spec?.volumeAttributesClassName ?? '<unset>', created(c, now), c.spec?.volumeMode ?? '<unset>'];
    },
  },
  storageclasses: {
    columns: [NAME, col('Provisioner'), col('ReclaimPolicy'), col('VolumeBindingMode'), col('AllowVolumeExpansion'), AGE],
    cells: (s, now) => {
      const isDefault = IS_DEFAULT_CLASS.some((a) => s.metadata?.annotations?.[a] === 'true');
      return [isDefault ? `${s.metadata.name} (default)` : s.metadata.name, s.provisioner ?? '', s.reclaimPolicy ?? 'Delete', s.volumeBindingMode ?? 'Immediate',
        String(s.allowVolumeExpansion ?? false), created(s, now)];
    },
  },
  ingresses: {
    columns: [NAME, col('Class'), col('Hosts'), col('Address'), col('Ports'), AGE],
    cells: (i, now) => {
      const address = [...new Set<string>((i.status?.loadBalancer?.ingress ?? []).map((x: any) => x?.ip || x?.hostname).filter(Boolean))].sort().join(',');
      return [i.metadata.name, i.spec?.ingressClassName ?? '<none>', ingressHosts(i.spec?.rules ?? []), address, (i.spec?.tls ?? []).length > 0 ? '80, 443' : '80', created(i, now)];
    },
  },
  networkpolicies: {
    columns: [NAME, col('Pod-Selector'), AGE],
    cells: (n, now) => [n.metadata.name, formatLabelSelector(n.spec?.podSelector ?? {}), created(n, now)],
  },
  resourcequotas: {
    columns: [NAME, AGE, col('Request'), col('Limit')],
    cells: (q, now) => [q.metadata.name, created(q, now), ...quotaCells(q)],
  },
  rolebindings: BINDING,
  clusterrolebindings: BINDING,
  certificatesigningrequests: {
    columns: [NAME, AGE, col('SignerName'), col('Requestor'), col('RequestedDuration'), col('Condition')],
    cells: (c, now) => [c.metadata.name, created(c, now), c.spec?.signerName ?? '', c.spec?.username ?? '', requestedDuration(c), csrCondition(c)],
  },
  mutatingwebhookconfigurations: WEBHOOKS,
  validatingwebhookconfigurations: WEBHOOKS,
};
