import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProxyBench } from './proxy.ts';

test('the proxy bench measures every mode at tiny sizes, states its goals and draws the curves with vega-lite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-proxy-'));
  try {
    const svgPath = join(dir, 'proxy.svg');
    const result = await runProxyBench({ sizes: [20, 60], endpoints: 3, lookups: 20, kernelSizes: [], svgPath });
    const fig = (system: string, name: string) => result.figures.find((f) => f.system === system && f.name === name);
    assert.ok((fig('iptables', '60 Services: evaluations per lookup')?.value ?? 0) > (fig('iptables', '20 Services: evaluations per lookup')?.value ?? Infinity), 'iptables walks grow');
    assert.equal(fig('ipvs', '60 Services: evaluations per lookup')?.value, 1);
    assert.equal(fig('nftables', '20 Services: evaluations per lookup')?.value, fig('nftables', '60 Services: evaluations per lookup')?.value);
    assert.ok(result.figures.filter((f) => f.goal).length >= 7, 'every goal is reported');
    const svg = readFileSync(svgPath, 'utf8');
    assert.match(svg, /^<svg/);
    assert.match(svg, /rule evaluations per new connection/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
