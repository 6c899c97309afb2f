import assert from 'node:assert/strict';
import test from 'node:test';
import { buildState } from '../model.ts';
import { service, slice } from '../testing.ts';
import { iptablesRules } from './proxier.ts';
import { renderTable } from './rules.ts';
import { restoreRefusal } from './restore.ts';

const table = (name: string, chains: string[], ...rules: string[]) => [`*${name}`, ...chains.map((c) => `:${c} - [0:0]`), ...rules, 'COMMIT', ''].join('\n');

test('what kube-proxy writes for ClusterIP, NodePort, Local and affinity Services loads', () => {
  const dns = service({ name: 'dns', clusterIP: '10.96.0.10', port: 53 });
  dns.spec.ports[0].protocol = 'UDP';
  const svcs = [
    service({ name: 'web', clusterIP: '10.96.0.50', type: 'NodePort', nodePort: 30080 }),
    service({ name: 'np', clusterIP: '10.96.0.51', type: 'NodePort', nodePort: 30081, externalLocal: true, internalLocal: true, affinityTimeout: 60 }),
    service({ name: 'none', clusterIP: '10.96.0.52', type: 'NodePort', nodePort: 30082 }),
    dns,
  ];
  const dnsSlice = slice('dns', 5353, [{ ip: '10.244.1.20' }]);
  dnsSlice.ports[0].protocol = 'UDP';
  const slices = [slice('web', 8080, [{ ip: '10.244.1.10' }, { ip: '10.244.1.11' }]), slice('np', 8080, [{ ip: '10.244.1.12', node: 'n1' }, { ip: '10.244.2.12', node: 'n2' }]), dnsSlice];
  for (const node of ['n1', 'n3']) {
    const rules = iptablesRules(buildState(svcs, slices, node));
    assert.equal(restoreRefusal(renderTable(rules.nat) + renderTable(rules.filter)), undefined, node);
  }
});

// Each refusal below was first seen from iptables-restore v1.8.9 (nf_tables), run in a
// throwaway network namespace (`unshare -n iptables-restore FILE`); its message in the comment.
test('iptables-restore refuses what kube-proxy must never write', () => {
  const cases: [string, string][] = [
    // "iptables-restore: line 1 table name invalid"
    ['*\n:PREROUTING ACCEPT [0:0]\nCOMMIT\n', 'table name invalid'],
    // "chain name not allowed to start with `-'" (an empty name: the policy becomes the name)
    [table('nat', ['']), 'not allowed'],
    // "chain name `KUBE-SVC-ABCDEFGHIJKLMNOPQRSTUVWXYZ' too long (must be under 29 chars)"
    [table('nat', ['KUBE-SVC-ABCDEFGHIJKLMNOPQRSTUVWXYZ']), 'too long'],
    // "Chain 'undefined' does not exist"; "Chain 'KUBE-Y' does not exist"
    [table('nat', ['KUBE-X'], '-A KUBE-X -j undefined'), 'does not exist'],
    [table('nat', ['KUBE-X'], '-A KUBE-X -p tcp -m tcp --dport 80 -j KUBE-Y'), 'does not exist'],
    // "option "-j" requires an argument"; "option "--xor-mark" requires an argument"
    [table('nat', ['KUBE-X'], '-A KUBE-X -j '), 'requires an argument'],
    [table('nat', ['KUBE-X'], '-A KUBE-X -j MARK --xor-mark '), 'requires an argument'],
    // "MARK: One of the --set-xmark, --{and,or,xor,set}-mark options is required"
    [table('nat', ['KUBE-X'], '-A KUBE-X -j MARK '), 'MARK'],
    // "Need TCP, UDP, SCTP or DCCP with port specification"
    [table('nat', ['KUBE-X'], '-A KUBE-X  -j DNAT --to-destination 10.244.1.10:8080'), 'Need TCP'],
    // "unknown protocol "-j" specified"
    [table('nat', ['KUBE-X'], '-A KUBE-X -p  -j DNAT --to-destination 10.244.1.10:8080'), 'requires an argument'],
    // "unknown option "---type""
    [table('nat', ['KUBE-X'], '-A KUBE-X -m addrtype ---type LOCAL -j RETURN'), 'unknown option'],
    // "invalid port/service `undefined' specified"
    [table('nat', ['KUBE-NODEPORTS', 'KUBE-EXT-X'], '-A KUBE-NODEPORTS -p tcp -m tcp --dport undefined -j KUBE-EXT-X'), 'invalid port'],
  ];
  for (const [input, why] of cases) assert.match(restoreRefusal(input) ?? 'loaded', new RegExp(why), input);
});

test('and loads what it accepts: SCTP DNAT, a rule with an empty match, a built-in declared "-"', () => {
  assert.equal(restoreRefusal(table('nat', ['KUBE-X'], '-A KUBE-X -p sctp -m sctp --dport 38412 -j DNAT --to-destination 10.244.1.10:38412')), undefined);
  assert.equal(restoreRefusal(table('filter', ['INPUT', 'KUBE-X'], '-A INPUT  -j KUBE-X', '-A KUBE-X -m addrtype --src-type LOCAL -j RETURN')), undefined);
});
