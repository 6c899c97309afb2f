/**
 * The generated rules, byte for byte: digests of every mode's output for a varied cluster (every
 * Service shape the proxier branches on), taken before the full-sync path was optimised. A
 * change that alters a single byte of what a node would load fails here; an intended change of
 * the output updates the digests in the same commit, saying why.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import test from 'node:test';
import { buildState, type ProxyState } from './model.ts';
import { iptablesRules } from './iptables/proxier.ts';
import { renderTable } from './iptables/rules.ts';
import { ipvsRules } from './ipvs/proxier.ts';
import { NftablesProxier, keyOf, listTable } from './nftables/proxier.ts';
import { manyServices, service, slice, type EpSpec, type SvcSpec } from './testing.ts';

const CIDR = { clusterCIDR: '10.244.0.0/16' };
const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Service i takes one of eight shapes; its endpoints vary in count, node, readiness and termination. */
function variedCluster(n: number): ProxyState {
  const services: any[] = [];
  const slices: any[] = [];
  for (let i = 0; i < n; i++) {
    const shape = i % 8;
    const spec: SvcSpec = { name: `v${i}`, namespace: `ns${i % 3}`, clusterIP: `10.96.${(i >> 8) & 255}.${i & 255}`, port: 80 + (i % 5) };
    if (shape === 1 || shape === 4 || shape === 6) Object.assign(spec, { type: shape === 6 ? 'LoadBalancer' : 'NodePort', nodePort: 30000 + i });
    if (shape === 2 || shape === 4) spec.affinityTimeout = 60 + i;
    if (shape === 4 || shape === 6) spec.externalLocal = true;
    if (shape === 5) spec.internalLocal = true;
    services.push(service(spec));
    if (shape === 3) continue; // no endpoints at all
    const eps: EpSpec[] = Array.from({ length: 1 + (i % 7) }, (_, k) => ({
      ip: `10.244.${(i * 7 + k) % 250}.${(i + k * 13) % 250 + 2}`,
      node: `n${(i + k) % 3}`,
      ...(k % 4 === 3 ? { ready: false } : {}),
      ...(i % 11 === 0 ? { ready: false, serving: true, terminating: true } : {}),
    }));
    slices.push(slice(`v${i}`, 8080 + (i % 3), eps, `ns${i % 3}`));
  }
  return buildState(services, slices, 'n0', ['192.0.2.10']);
}

const GOLDEN = {
  // Changed once since the optimisation, on purpose: a Local NodePort on a node without a local
  // endpoint now keeps its KUBE-EXT chain (pods and the node short-circuit to KUBE-SVC), as upstream.
  // And again (iptables and nftables): an internalTrafficPolicy Local ClusterIP now masquerades
  // off-cluster sources in its local chain, as upstream's "internal traffic handling" does.
  'iptables, with comments (small cluster)': 'e18cb8469ddf89610b273ac37526ceda502ed53a38ec2d7c1c47eafb8d58b28b',
  'iptables, large cluster (no endpoint comments)': 'bd1165c8c5ed4d2b4431739cec74a7b3ff5a2ef1e8be66c0cbb3104b00efd52f',
  'iptables, 1000 Services x 10 endpoints (the bench)': 'de0cd9039acb1c0637e939d83439f63b528b55acea6a2ac242bf2113d5d4b051',
  'nftables, full sync': 'e950000f10882a3080079733730a23a8178214d56ccc0b5b6bea32ef3732710e',
  'nftables, partial sync and nft list table': '9f2246ead1835f8c5e663e3bf86ff684c6b4da967eb091c665d77440e04300e8',
  'ipvs': '0feac30e13ec87f5db817509b366c9ded72aa7fb0ecc7696d31dae8c97aa36f0',
};

function outputs(): Record<keyof typeof GOLDEN, string> {
  const small = variedCluster(120);
  const large = variedCluster(600);
  const ipt = (s: ProxyState) => { const r = iptablesRules(s, CIDR); return renderTable(r.nat) + renderTable(r.filter) + renderTable(r.nat, true); };
  const bench = manyServices(1000, 10);
  const proxier = new NftablesProxier(CIDR);
  const full = proxier.sync(large).join('\n');
  const changed = new Map(large.services.slice(0, 40).map((sp, i) => [keyOf(sp), i % 2 ? undefined : { ...sp, endpoints: sp.endpoints.slice(1) }]));
  const partial = proxier.sync(large, changed).join('\n') + listTable(proxier.ruleset());
  return {
    'iptables, with comments (small cluster)': ipt(small),
    'iptables, large cluster (no endpoint comments)': ipt(large),
    'iptables, 1000 Services x 10 endpoints (the bench)': ipt(buildState(bench.services, bench.slices, 'n0')),
    'nftables, full sync': full,
    'nftables, partial sync and nft list table': partial,
    'ipvs': JSON.stringify(ipvsRules(large), (_k, v) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v)),
  };
}

test('every mode writes exactly the rules it wrote before the full-sync optimisation', () => {
  const got = outputs();
  for (const [name, text] of Object.entries(got)) {
    assert.ok(text.length > 1000, `${name}: suspiciously short output`);
    assert.equal(digest(text), GOLDEN[name as keyof typeof GOLDEN], `${name}: the generated rules changed`);
  }
});
