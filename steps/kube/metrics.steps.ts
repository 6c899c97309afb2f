/**
 * Steps for the API server's metrics (PRACTICE-MONITOR-CONTROL-PLANE): scrape GET /metrics, read
 * the Prometheus text format (https://prometheus.io/docs/instrumenting/exposition_formats/), and
 * compare two scrapes. Other clients share a real cluster, so counts are "grew by at least".
 */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Scrape {
  contentType: string;
  types: Map<string, string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Pick<Scrape, 'types' | 'samples'> {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice('# TYPE '.length).split(' ') as [string, string];
      types.set(name, type);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const m = SAMPLE.exec(line);
    assert.ok(m, `not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3] === '+Inf' ? Infinity : m[3]) });
  }
  return { types, samples };
}

Given("the API server's metrics are scraped as {string}", async function (this: KubespecWorld, label: string) {
  const res = await this.kube().request({ method: 'GET', path: '/metrics', headers: { accept: 'text/plain' } });
  assert.equal(res.status, 200, `GET /metrics: ${res.status} ${res.text.slice(0, 300)}`);
  this.note(`scrape ${label}`, { contentType: res.headers['content-type'] ?? '', ...parseExposition(res.text) } satisfies Scrape);
});

function sum(scrape: Scrape, name: string, match: (labels: Record<string, string>) => boolean): number {
  return scrape.samples.filter((s) => s.name === name && match(s.labels)).reduce((n, s) => n + s.value, 0);
}

function grew(world: KubespecWorld, from: string, to: string, name: string, match: (l: Record<string, string>) => boolean, what: string): void {
  const before = sum(world.recall<Scrape>(`scrape ${from}`), name, match);
  const after = sum(world.recall<Scrape>(`scrape ${to}`), name, match);
  assert.ok(after - before >= 1, `${name} ${what}: ${before} → ${after}`);
}

Then('the scrape is in the Prometheus text format, with {string} a counter and {string} a histogram', function (this: KubespecWorld, counter: string, histogram: string) {
  const scrape = this.recall<Scrape>('scrape after');
  assert.match(scrape.contentType, /^text\/plain; version=0\.0\.4/, `Content-Type: ${scrape.contentType}`);
  assert.equal(scrape.types.get(counter), 'counter');
  assert.equal(scrape.types.get(histogram), 'histogram');
});

Then('from {string} to {string} apiserver_request_total with verb {string}, resource {string} and code {string} grew by at least 1', function (this: KubespecWorld, from: string, to: string, verb: string, resource: string, code: string) {
  grew(this, from, to, 'apiserver_request_total', (l) => l.verb === verb && l.resource === resource && l.code === code, `{verb=${verb},resource=${resource},code=${code}}`);
});

Then('from {string} to {string} apiserver_request_duration_seconds_count with verb {string} and resource {string} grew by at least 1', function (this: KubespecWorld, from: string, to: string, verb: string, resource: string) {
  grew(this, from, to, 'apiserver_request_duration_seconds_count', (l) => l.verb === verb && l.resource === resource, `{verb=${verb},resource=${resource}}`);
});

// Upstream's "type" label has named the object type ("*core.ConfigMap") and, later, the resource
// ("configmaps"): either names it.
Then('from {string} to {string} etcd_request_duration_seconds_count with operation {string} and a type naming {string} grew by at least 1', function (this: KubespecWorld, from: string, to: string, operation: string, resource: string) {
  const singular = resource.replace(/s$/, '').toLowerCase();
  grew(this, from, to, 'etcd_request_duration_seconds_count', (l) => l.operation === operation && (l.type ?? '').toLowerCase().includes(singular), `{operation=${operation},type~${singular}}`);
});

Then('every apiserver_request_duration_seconds histogram in {string} has buckets that never decrease and end at its count', function (this: KubespecWorld, label: string) {
  const scrape = this.recall<Scrape>(`scrape ${label}`);
  const series = new Map<string, Sample[]>();
  for (const s of scrape.samples.filter((x) => x.name === 'apiserver_request_duration_seconds_bucket')) {
    const { le: _le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  assert.ok(series.size > 0, 'no apiserver_request_duration_seconds buckets');
  for (const [key, buckets] of series) {
    const ordered = [...buckets].sort((a, b) => Number(a.labels.le === '+Inf' ? Infinity : a.labels.le) - Number(b.labels.le === '+Inf' ? Infinity : b.labels.le));
    ordered.forEach((b, i) => assert.ok(i === 0 || b.value >= ordered[i - 1]!.value, `buckets decrease in ${key}`));
    const count = scrape.samples.find((s) => s.name === 'apiserver_request_duration_seconds_count' && JSON.stringify(Object.entries(s.labels).sort()) === key);
    assert.equal(ordered.at(-1)!.labels.le, '+Inf', `no +Inf bucket in ${key}`);
    assert.equal(ordered.at(-1)!.value, count?.value, `+Inf bucket vs _count in ${key}`);
  }
});
