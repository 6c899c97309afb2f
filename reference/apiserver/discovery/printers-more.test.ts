import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from '../testing/harness.ts';
import { MORE_PRINTERS, formatLabelSelector } from './printers-more.ts';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const NOW = Date.UTC(2026, 0, 1, 0, 10, 0);
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, creationTimestamp: '2026-01-01T00:00:00Z', ...extra });
const columns = (resource: string, wide = false) => MORE_PRINTERS[resource]!.columns.filter((c) => wide || !c.priority).map((c) => c.name);
const cells = (resource: string, obj: unknown) => MORE_PRINTERS[resource]!.cells(obj, NOW);

test('kubectl get statefulsets, daemonsets and cronjobs print upstream\'s columns', () => {
  assert.deepEqual(columns('statefulsets'), ['Name', 'Ready', 'Age']);
  assert.deepEqual(cells('statefulsets', { metadata: meta('db'), spec: { replicas: 3, template: { spec: { containers: [{ name: 'pg', image: 'postgres:16' }] } } }, status: { readyReplicas: 1 } }),
    ['db', '1/3', '10m', 'pg', 'postgres:16']);
  assert.deepEqual(columns('daemonsets'), ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age']);
  assert.deepEqual(cells('daemonsets', { metadata: meta('agent'), spec: { selector: { matchLabels: { app: 'agent' } }, template: { spec: { nodeSelector: { os: 'linux' }, containers: [] } } }, status: { desiredNumberScheduled: 2 } }).slice(0, 8),
    ['agent', 2, 0, 0, 0, 0, 'os=linux', '10m']);
  assert.deepEqual(columns('cronjobs'), ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age']);
  assert.deepEqual(cells('cronjobs', { metadata: meta('cj'), spec: { schedule: '*/1 * * * *', suspend: false, jobTemplate: { spec: { template: { spec: { containers: [] } } } } } }).slice(0, 7),
    ['cj', '*/1 * * * *', '<none>', 'False', 0, '<none>', '10m']);
});

test('bindings print their role as Kind/name and, wide, their subjects', () => {
  const rb = { metadata: meta('read'), roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'Group', name: 'dev' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'bot' }] };
  assert.deepEqual(cells('rolebindings', rb), ['read', 'ClusterRole/view', '10m', 'jane', 'dev', 'ci/bot']);
  assert.deepEqual(columns('clusterrolebindings'), ['Name', 'Role', 'Age']);
});

test('storage: the default class is marked, a claim shows capacity once bound, access modes in short form', () => {
  assert.equal(cells('storageclasses', { metadata: meta('fast', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'x.io' })[0], 'fast (default)');
  assert.deepEqual(cells('storageclasses', { metadata: meta('slow'), provisioner: 'x.io' }).slice(0, 5), ['slow', 'x.io', 'Delete', 'Immediate', 'false']);
  const pending = { metadata: meta('data'), spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast' }, status: { phase: 'Pending', capacity: { storage: '1Gi' } } };
  assert.deepEqual(cells('persistentvolumeclaims', pending).slice(0, 6), ['data', 'Pending', '', '', '', 'fast']);
  const bound = { ...pending, spec: { ...pending.spec, volumeName: 'pv-1' }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'] } };
  assert.deepEqual(cells('persistentvolumeclaims', bound).slice(0, 6), ['data', 'Bound', 'pv-1', '1Gi', 'RWO,RWX', 'fast']);
});

test('a CSR\'s condition is Pending, then its conditions and Issued once signed; a quota splits requests and limits', () => {
  assert.equal(cells('certificatesigningrequests', { metadata: meta('c'), spec: {} })[5], 'Pending');
  assert.equal(cells('certificatesigningrequests', { metadata: meta('c'), spec: { expirationSeconds: 3600 }, status: { conditions: [{ type: 'Approved' }], certificate: 'x' } })[4], '60m');
  assert.equal(cells('certificatesigningrequests', { metadata: meta('c'), spec: {}, status: { conditions: [{ type: 'Approved' }], certificate: 'x' } })[5], 'Approved,Issued');
  const quota = { metadata: meta('q'), status: { hard: { pods: '10', 'limits.cpu': '2', 'requests.memory': '1Gi' }, used: { pods: '3' } } };
  assert.deepEqual(cells('resourcequotas', quota), ['q', '10m', 'pods: 3/10, requests.memory: 0/1Gi', 'limits.cpu: 0/2']);
});

test('label selectors read as metav1.FormatLabelSelector writes them', () => {
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }, { key: 'x', operator: 'DoesNotExist' }] }), 'a=1,b=2,tier in (api,web),!x');
});

test('through the server: kubectl\'s Table of cronjobs has the cronjob columns, of clusterroles Name and Created At', async () => {
  const h = await harness();
  const cj = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'cj' }, spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } } };
  const made = await h.call('POST', '/apis/batch/v1/namespaces/default/cronjobs', cj);
  assert.equal(made.status, 201, JSON.stringify(made.json));
  const t = await h.call('GET', '/apis/batch/v1/namespaces/default/cronjobs', undefined, { accept: TABLE });
  assert.deepEqual(t.json.columnDefinitions.filter((c: any) => c.priority === 0).map((c: any) => c.name), ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age']);
  assert.deepEqual(t.json.rows[0].cells.slice(0, 5), ['cj', '@hourly', '<none>', 'False', 0]);
  const roles = await h.call('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles', undefined, { accept: TABLE });
  assert.deepEqual(roles.json.columnDefinitions.map((c: any) => c.name), ['Name', 'Created At']);
});
