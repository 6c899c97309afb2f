import { test } from 'node:test';
import assert from 'node:assert/strict';
import { componentsLine, parseDuration_ms, startedComponentsOf } from './serve-banner.ts';

test('the banner names what runs and what does not, from what was started', () => {
  assert.equal(componentsLine({ controllers: [], scheduler: false, kubelets: 0 }), 'running: kube-apiserver; not running: kube-controller-manager, kube-scheduler, kubelet, kube-proxy');
  assert.equal(
    componentsLine({ controllers: ['serviceaccount', 'namespace'], scheduler: true, kubelets: 3, proxyMode: 'iptables' }),
    'running: kube-apiserver, kube-controller-manager (serviceaccount, namespace), kube-scheduler, kubelet × 3, kube-proxy (iptables); not running: nothing',
  );
});

test('a cluster is read by what it has: a controller manager with names, a scheduler, kubelets', () => {
  assert.deepEqual(startedComponentsOf({ controllers: { names: ['a'] } }), { controllers: ['a'], scheduler: false, kubelets: 0 });
  assert.deepEqual(startedComponentsOf({ controllers: { names: [] }, scheduler: {}, kubelets: new Map([['n', 1]]) }), { controllers: [], scheduler: true, kubelets: 1 });
});

test('durations take a unit: ms, s, m or h', () => {
  assert.equal(parseDuration_ms('5m'), 300_000);
  assert.equal(parseDuration_ms('250ms'), 250);
  assert.equal(parseDuration_ms('2h'), 7_200_000);
  for (const bad of ['5', '', 'm', '1.5s', '-1s', '5 min']) assert.equal(parseDuration_ms(bad), undefined, bad);
});
