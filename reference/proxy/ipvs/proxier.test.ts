import assert from 'node:assert/strict';
import test from 'node:test';
import { buildState } from '../model.ts';
import { manyServices, service, slice } from '../testing.ts';
import { ipvsadmSave, ipvsRules, schedulerOf } from './proxier.ts';
import { IpvsDataplane } from '../dataplane/ipvs.ts';
import { ruleCount } from '../iptables/rules.ts';

const web = service({ name: 'web', clusterIP: '10.96.0.50' });
const two = slice('web', 8080, [{ ip: '10.244.1.10' }, { ip: '10.244.1.11' }]);
const pkt = (src: string, now_s = 0) => ({ src, dst: '10.96.0.50', proto: 'TCP' as const, dport: 80, now_s });

test('a Service is a virtual server whose real servers are its endpoints (ipvsadm -Sn)', () => {
  const dump = ipvsadmSave(ipvsRules(buildState([web], [two], 'n1')));
  assert.equal(dump, '-A -t 10.96.0.50:80 -s rr\n-a -t 10.96.0.50:80 -r 10.244.1.10:8080 -m -w 1\n-a -t 10.96.0.50:80 -r 10.244.1.11:8080 -m -w 1\n');
});

test('ClientIP affinity is a persistent virtual server with the Service timeout', () => {
  const svc = service({ name: 'web', clusterIP: '10.96.0.50', affinityTimeout: 10800 });
  assert.match(ipvsadmSave(ipvsRules(buildState([svc], [two], 'n1'))), /^-A -t 10\.96\.0\.50:80 -s rr -p 10800$/m);
});

test('the scheduler defaults to rr and rejects unknown names', () => {
  assert.equal(schedulerOf(''), 'rr');
  assert.equal(schedulerOf('sed'), 'sed');
  assert.throws(() => schedulerOf('wlc-ish'), /invalid ipvs scheduler/);
});

test('rr alternates; lc, sed and nq prefer the idle server; sh keeps a client on one server', () => {
  const pick = (scheduler: string) => new IpvsDataplane(ipvsRules(buildState([web], [two], 'n1'), { scheduler }));
  const rr = pick('rr');
  assert.deepEqual([1, 2, 3, 4].map((i) => rr.connect(pkt(`10.0.0.${i}`)).backend), ['10.244.1.10:8080', '10.244.1.11:8080', '10.244.1.10:8080', '10.244.1.11:8080']);
  for (const s of ['lc', 'sed', 'nq']) {
    const plane = pick(s);
    const a = plane.connect(pkt('10.0.0.1')).backend;
    const b = plane.connect(pkt('10.0.0.2')).backend;
    assert.notEqual(a, b, `${s} sends the second connection to the idle server`);
  }
  const sh = pick('sh');
  const first = sh.connect(pkt('10.0.0.7')).backend;
  for (let i = 0; i < 10; i++) assert.equal(sh.connect(pkt('10.0.0.7')).backend, first);
});

test('iptables rules stay constant as Services grow; one hash lookup per packet', () => {
  const small = manyServices(10, 2);
  const big = manyServices(100, 2);
  const a = ipvsRules(buildState(small.services, small.slices, 'n1'));
  const b = ipvsRules(buildState(big.services, big.slices, 'n1'));
  assert.equal(ruleCount(a.nat), ruleCount(b.nat));
  assert.equal(b.virtualServers.size - a.virtualServers.size, 90);
  assert.equal(new IpvsDataplane(b).connect({ src: '10.0.0.1', dst: '10.96.0.99', proto: 'TCP', dport: 80, now_s: 0 }).evaluations, 1);
});
