import assert from 'node:assert/strict';
import test from 'node:test';
import { buildState } from '../model.ts';
import { sepChain, svcChain } from '../names.ts';
import { service, slice } from '../testing.ts';
import { iptablesRules, probability } from './proxier.ts';
import { renderTable, savedProbability } from './rules.ts';
import { IptablesDataplane } from '../dataplane/iptables.ts';
import { seededRandom } from '../../apiserver/server.ts';

const web = service({ name: 'web', clusterIP: '10.96.0.50' });
const three = slice('web', 8080, [{ ip: '10.244.1.10' }, { ip: '10.244.1.11' }, { ip: '10.244.1.12' }]);
const pkt = (src: string, now_s = 0) => ({ src, dst: '10.96.0.50', proto: 'TCP' as const, dport: 80, now_s });

test('chain names are upstream\'s: base32(sha256(servicePortName + protocol))[:16]', () => {
  // The expected names appear in upstream's own proxier_test.go for "ns1/svc1:p80" and 10.180.0.1:80.
  const sp: any = { id: 'ns1/svc1:p80', protocol: 'TCP' };
  assert.equal(svcChain(sp), 'KUBE-SVC-XPGD46QRK7WJZT7O');
  assert.equal(sepChain(sp, { ip: '10.180.0.1', port: 80 } as any), 'KUBE-SEP-SXIVWICOYRO3J4NJ');
});

test('three endpoints get probabilities 1/3, 1/2 and an unconditional last jump', () => {
  const rules = iptablesRules(buildState([web], [three], 'n1'));
  const nat = renderTable(rules.nat);
  const svc = nat.split('\n').filter((l) => l.startsWith(`-A ${svcChain(buildState([web], [three], 'n1').services[0]!)} `) && l.includes('KUBE-SEP'));
  assert.equal(svc.length, 3);
  assert.match(svc[0]!, /--probability 0\.3333333333 /);
  assert.match(svc[1]!, /--probability 0\.5000000000 /);
  assert.doesNotMatch(svc[2]!, /statistic/);
  assert.equal(probability(3), '0.3333333333');
  assert.equal(savedProbability('0.3333333333'), '0.33333333349');
});

test('a Service without endpoints is REJECTed in the filter table and has no nat rules', () => {
  const rules = iptablesRules(buildState([web], [], 'n1'));
  assert.match(renderTable(rules.filter), /-A KUBE-SERVICES -m comment --comment "default\/web has no endpoints" -d 10\.96\.0\.50\/32 -p tcp -m tcp --dport 80 -j REJECT/);
  assert.doesNotMatch(renderTable(rules.nat), /KUBE-SVC-/);
  const plane = new IptablesDataplane(rules, [], seededRandom(1));
  assert.equal(plane.connect(pkt('10.0.0.1')).outcome, 'rejected');
});

test('the dataplane spreads 3000 connections evenly and counts the KUBE-SERVICES walk', () => {
  const plane = new IptablesDataplane(iptablesRules(buildState([web], [three], 'n1')), [], seededRandom(7));
  const counts = new Map<string, number>();
  for (let i = 0; i < 3000; i++) {
    const v = plane.connect(pkt(`10.0.${i >> 8}.${i & 255}`));
    counts.set(v.backend!, (counts.get(v.backend!) ?? 0) + 1);
  }
  for (const n of counts.values()) assert.ok(n > 850 && n < 1150, `uneven: ${[...counts]}`);
});

test('ClientIP affinity keeps a client on one endpoint until the timeout passes', () => {
  const svc = service({ name: 'web', clusterIP: '10.96.0.50', affinityTimeout: 60 });
  const plane = new IptablesDataplane(iptablesRules(buildState([svc], [three], 'n1')), [], seededRandom(3));
  const first = plane.connect(pkt('10.0.0.9', 0)).backend;
  for (let t = 1; t < 50; t++) assert.equal(plane.connect(pkt('10.0.0.9', t)).backend, first);
  const later = new Set(Array.from({ length: 20 }, (_, i) => plane.connect(pkt('10.0.0.9', 200 + i * 100)).backend));
  assert.ok(later.size > 1, 'after each timeout the choice is random again');
});

test('externalTrafficPolicy Local: a NodePort from outside reaches only this node\'s endpoints', () => {
  const svc = service({ name: 'web', clusterIP: '10.96.0.50', type: 'NodePort', nodePort: 30080, externalLocal: true });
  const eps = slice('web', 8080, [{ ip: '10.244.1.10', node: 'n1' }, { ip: '10.244.2.10', node: 'n2' }]);
  const plane = new IptablesDataplane(iptablesRules(buildState([svc], [eps], 'n1', ['192.168.0.1'])), ['192.168.0.1'], seededRandom(5));
  for (let i = 0; i < 50; i++) {
    const v = plane.connect({ src: `203.0.113.${i}`, dst: '192.168.0.1', proto: 'TCP', dport: 30080, now_s: 0 });
    assert.equal(v.backend, '10.244.1.10:8080');
    assert.equal(v.masquerade, false, 'Local keeps the client address');
  }
});

test('terminating endpoints are used only while no endpoint is ready', () => {
  const eps = slice('web', 8080, [{ ip: '10.244.1.10', ready: false, serving: true, terminating: true }]);
  const plane = new IptablesDataplane(iptablesRules(buildState([web], [eps], 'n1')), [], seededRandom(5));
  assert.equal(plane.connect(pkt('10.0.0.1')).backend, '10.244.1.10:8080');
});
