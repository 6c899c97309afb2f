import assert from 'node:assert/strict';
import test from 'node:test';
import { buildState } from '../model.ts';
import { manyServices, service, slice } from '../testing.ts';
import { NftablesProxier, listTable } from './proxier.ts';
import { NftablesDataplane } from '../dataplane/nftables.ts';
import { seededRandom } from '../../apiserver/server.ts';

const opts = { clusterCIDR: '10.244.0.0/16' };
const web = service({ name: 'web', clusterIP: '10.96.0.50' });
const three = slice('web', 8080, [{ ip: '10.244.1.10' }, { ip: '10.244.1.11' }, { ip: '10.244.1.12' }]);

test('a Service is an element of service-ips; its chain picks with numgen random mod n', () => {
  const p = new NftablesProxier(opts);
  p.sync(buildState([web], [three], 'n1'));
  const text = listTable(p.ruleset());
  assert.match(text, /10\.96\.0\.50 \. tcp \. 80 : goto service-[A-Z2-7]{8}-default\/web\/tcp\//);
  assert.match(text, /numgen random mod 3 vmap \{ 0 : goto endpoint-.* , 1 : goto endpoint-.* , 2 : goto endpoint-/);
});

test('a partial sync touches only the changed Service', () => {
  const { services, slices } = manyServices(1000, 2);
  const p = new NftablesProxier(opts);
  const full = p.sync(buildState(services, slices, 'n1'));
  services[5] = service({ name: 's5', clusterIP: '10.96.0.5', port: 81 });
  const next = buildState(services, slices, 'n1');
  const partial = p.sync(next, new Map([['default/s5/TCP', next.services.find((sp) => sp.name === 's5')]]));
  assert.ok(partial.length > 0 && partial.length * 100 < full.length, `${partial.length} vs ${full.length}`);
  assert.ok(partial.every((l) => !l.includes('default/s6/')), 'another Service was rewritten');
});

test('the dataplane does one map lookup however many Services there are, and rejects a Service without endpoints', () => {
  const { services, slices } = manyServices(500, 2);
  const p = new NftablesProxier(opts);
  p.sync(buildState([...services, service({ name: 'empty', clusterIP: '10.96.9.9' })], slices, 'n1'));
  const plane = new NftablesDataplane(() => p.ruleset(), [], seededRandom(1));
  const first = plane.connect({ src: '10.0.0.1', dst: '10.96.0.0', proto: 'TCP', dport: 80, now_s: 0 });
  const last = plane.connect({ src: '10.0.0.1', dst: '10.96.1.243', proto: 'TCP', dport: 80, now_s: 0 });
  assert.equal(first.outcome, 'forwarded');
  assert.equal(first.evaluations, last.evaluations);
  assert.equal(plane.connect({ src: '10.0.0.1', dst: '10.96.9.9', proto: 'TCP', dport: 80, now_s: 0 }).outcome, 'rejected');
});

test('ClientIP affinity: the affinity set keeps a client on one endpoint', () => {
  const svc = service({ name: 'web', clusterIP: '10.96.0.50', affinityTimeout: 10800 });
  const p = new NftablesProxier(opts);
  p.sync(buildState([svc], [three], 'n1'));
  const plane = new NftablesDataplane(() => p.ruleset(), [], seededRandom(2));
  const pkt = { src: '10.0.0.1', dst: '10.96.0.50', proto: 'TCP' as const, dport: 80, now_s: 0 };
  const first = plane.connect(pkt).backend;
  for (let i = 0; i < 30; i++) assert.equal(plane.connect({ ...pkt, now_s: i }).backend, first);
});
