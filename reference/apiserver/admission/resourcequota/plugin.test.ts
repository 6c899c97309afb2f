import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionAttributes } from '../../pipeline.ts';
import { AdmissionDenied } from '../../pipeline.ts';
import { countNames, resourceQuotaAdmission } from './plugin.ts';

const quota = (name: string, hard: Record<string, string>) => ({ metadata: { name }, spec: { hard } });
const create = (resource: string, name: string, group = ''): AdmissionAttributes => ({
  operation: 'CREATE', kind: { group, version: 'v1', kind: 'X' }, resource: { group, version: 'v1', resource }, subresource: '', namespace: 'ns', name: '',
  user: { name: 'u', groups: [] }, object: { metadata: { name } }, dryRun: false,
});

test('a create that would take a count past its quota is forbidden with upstream\'s message', async () => {
  const plugin = resourceQuotaAdmission({ listQuotas: async () => [quota('q', { configmaps: '2' })], countObjects: async () => 2 });
  await assert.rejects(plugin.validate(create('configmaps', 'c')), (e: unknown) => {
    assert.ok(e instanceof AdmissionDenied);
    assert.equal(e.code, 403);
    assert.equal(e.message, 'configmaps "c" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
    return true;
  });
});

test('the last object that still fits is admitted, and other resources are not counted', async () => {
  const plugin = resourceQuotaAdmission({ listQuotas: async () => [quota('q', { configmaps: '2', 'count/deployments.apps': '0' })], countObjects: async () => 1 });
  await plugin.validate(create('configmaps', 'b'));
  await plugin.validate(create('secrets', 's'));
  await assert.rejects(plugin.validate(create('deployments', 'd', 'apps')), /exceeded quota: q, requested: count\/deployments.apps=1, used: count\/deployments.apps=1, limited: count\/deployments.apps=0/);
});

test('count names: the count/ form, and the legacy name for core kinds that have one', () => {
  assert.deepEqual(countNames('', 'pods'), ['count/pods', 'pods']);
  assert.deepEqual(countNames('', 'events'), ['count/events']);
  assert.deepEqual(countNames('apps', 'deployments'), ['count/deployments.apps']);
});

const podCreate = (name: string, containers: any[], namespacePods: any[] = []) => ({
  attrs: { ...create('pods', name), object: { metadata: { name }, spec: { containers } } } as AdmissionAttributes,
  namespacePods,
});
const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({ name, image: 'x', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });

test('a pod whose requests.cpu would take the namespace past its quota is forbidden, with the sums in canonical form', async () => {
  const running = { metadata: { name: 'old' }, spec: { containers: [c('a', { cpu: '500m' })] }, status: { phase: 'Running' } };
  const done = { metadata: { name: 'done' }, spec: { containers: [c('a', { cpu: '4' })] }, status: { phase: 'Succeeded' } };
  const plugin = resourceQuotaAdmission({ listQuotas: async () => [quota('compute', { 'requests.cpu': '1', 'limits.memory': '1Gi' })], countObjects: async () => 2, listPods: async () => [running, done] });
  await plugin.validate(podCreate('fits', [c('app', { cpu: '250m' }, { memory: '512Mi' }), c('side', { cpu: '250m' }, { memory: '128Mi' })]).attrs);
  await assert.rejects(plugin.validate(podCreate('web', [c('app', { cpu: '300m' }, { memory: '512Mi' }), c('side', { cpu: '300m' }, { memory: '128Mi' })]).attrs),
    (e: unknown) => {
      assert.ok(e instanceof AdmissionDenied);
      assert.equal(e.message, 'pods "web" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1');
      return true;
    });
});

test('a quota on compute resources makes every container name them', async () => {
  const plugin = resourceQuotaAdmission({ listQuotas: async () => [quota('q', { 'requests.memory': '1Gi', 'limits.cpu': '2' })], countObjects: async () => 0, listPods: async () => [] });
  await assert.rejects(plugin.validate(podCreate('web', [c('app', { memory: '1Mi' }), c('side')]).attrs),
    /pods "web" is forbidden: failed quota: q: \[must specify limits.cpu for: app,side, must specify requests.memory for: side\]/);
});
