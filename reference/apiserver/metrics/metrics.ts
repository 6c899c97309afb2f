/**
 * The API server's own metrics, served at GET /metrics in the Prometheus text format (0.0.4),
 * under upstream's names and labels so the dashboards and alerts written for kube-apiserver read
 * them unchanged:
 * - apiserver_request_total{verb,dry_run,group,version,resource,subresource,scope,component,code}
 *   and apiserver_request_duration_seconds{…same but code} (a histogram; watches excluded, as
 *   upstream excludes long-running requests from the latency SLI) —
 *   staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go;
 * - etcd_request_duration_seconds{operation,type}: how long each call to the store took —
 *   staging/src/k8s.io/apiserver/pkg/storage/etcd3/metrics/metrics.go.
 * Pure: the caller measures with its injected clock and hands over seconds.
 */
import type { RequestInfo } from '../request-info.ts';

/** Upstream's request-latency buckets (metrics.go, requestLatencies). */
const REQUEST_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** Upstream's etcd request buckets (etcd3/metrics, etcdRequestLatency). */
const ETCD_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

type Labels = Record<string, string>;

interface CounterSeries {
  labels: Labels;
  value: number;
}

interface HistogramSeries {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

class Counter {
  readonly values = new Map<string, CounterSeries>();
  /** The series of these labels, made (and placed in render order) on first use. */
  series(labels: Labels): CounterSeries {
    const key = labelKey(labels);
    let cur = this.values.get(key);
    if (!cur) this.values.set(key, (cur = { labels, value: 0 }));
    return cur;
  }
  inc(labels: Labels): void {
    this.series(labels).value++;
  }
}

class Histogram {
  readonly series = new Map<string, HistogramSeries>();
  constructor(readonly buckets: number[]) {}
  seriesOf(labels: Labels): HistogramSeries {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    return s;
  }
  observe(labels: Labels, seconds: number): void {
    observeIn(this.buckets, this.seriesOf(labels), seconds);
  }
}

function observeIn(buckets: number[], s: HistogramSeries, seconds: number): void {
  for (let i = 0; i < buckets.length; i++) if (seconds <= buckets[i]!) s.counts[i]!++;
  s.sum += seconds;
  s.count++;
}

/**
 * Identifies a series: names and values joined with separators no label text holds unescaped.
 * Each metric's labels are built in one fixed order (ApiServerMetrics below), so the names need
 * no sorting on every request.
 */
function labelKey(labels: Labels): string {
  let key = '';
  for (const name in labels) key += `${name}\u0000${labels[name]}\u0001`;
  return key;
}

function escapeLabel(v: string): string {
  return v.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('"', '\\"');
}

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

/**
 * upstream's reported verb (metrics.go, CleanVerb over CanonicalVerb): the HTTP method in upper
 * case, except that a GET of a collection is LIST, a watch is WATCH and an apply patch is APPLY.
 */
export function reportedVerb(method: string, info: RequestInfo | undefined, contentType: string): string {
  if (info?.verb === 'watch') return 'WATCH';
  if (info?.verb === 'list') return 'LIST';
  if (method === 'PATCH' && contentType.startsWith('application/apply-patch')) return 'APPLY';
  return method.toUpperCase();
}

/** metrics.go CleanScope: a named object is "resource", else the namespace or the cluster. */
function scopeOf(info: RequestInfo): string {
  if (info.name !== '') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

/** A request's series in both metrics, found by one string key instead of label objects built per request. */
interface RequestSeries {
  labels: Labels;
  latency?: HistogramSeries;
  byCode: Map<number, CounterSeries>;
}

export class ApiServerMetrics {
  private readonly requests = new Counter();
  private readonly latency = new Histogram(REQUEST_BUCKETS);
  private readonly etcd = new Histogram(ETCD_BUCKETS);
  /** The series already in use, by their label values joined (every request looks its own up). */
  private readonly requestSeries = new Map<string, RequestSeries>();
  private readonly etcdSeries = new Map<string, HistogramSeries>();

  /** One finished request; non-resource requests (discovery, /metrics itself) have empty resource labels. */
  request(verb: string, info: RequestInfo | undefined, code: number, seconds: number, dryRun: boolean): void {
    const resource = info?.isResourceRequest ? info : undefined;
    const scope = resource ? scopeOf(resource) : '';
    const key = resource
      ? `${verb}\u0000${dryRun ? 'All' : ''}\u0000${resource.apiGroup}\u0000${resource.apiVersion}\u0000${resource.resource}\u0000${resource.subresource}\u0000${scope}`
      : `${verb}\u0000${dryRun ? 'All' : ''}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels: Labels = {
        verb,
        dry_run: dryRun ? 'All' : '',
        group: resource?.apiGroup ?? '',
        version: resource?.apiVersion ?? '',
        resource: resource?.resource ?? '',
        subresource: resource?.subresource ?? '',
        scope,
        component: 'apiserver',
      };
      this.requestSeries.set(key, (series = { labels, byCode: new Map() }));
    }
    let total = series.byCode.get(code);
    if (!total) series.byCode.set(code, (total = this.requests.series({ ...series.labels, code: String(code) })));
    total.value++;
    if (verb !== 'WATCH' && verb !== 'CONNECT') observeIn(REQUEST_BUCKETS, (series.latency ??= this.latency.seriesOf(series.labels)), seconds);
  }

  /** One call to the store: operation (get, list, create, update, delete) and the resource it was for. */
  storeCall(operation: string, type: string, seconds: number): void {
    const key = `${operation}\u0000${type}`;
    let series = this.etcdSeries.get(key);
    if (!series) this.etcdSeries.set(key, (series = this.etcd.seriesOf({ operation, type })));
    observeIn(ETCD_BUCKETS, series, seconds);
  }

  /** The Prometheus text exposition format, version 0.0.4. */
  render(): string {
    const out: string[] = [];
    out.push('# HELP apiserver_request_total Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
    out.push('# TYPE apiserver_request_total counter');
    for (const { labels, value } of this.requests.values.values()) out.push(`apiserver_request_total${labelText(labels)} ${value}`);
    renderHistogram(out, 'apiserver_request_duration_seconds', 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.', this.latency);
    renderHistogram(out, 'etcd_request_duration_seconds', 'Etcd request latency in seconds for each operation and object type.', this.etcd);
    return `${out.join('\n')}\n`;
  }
}

function renderHistogram(out: string[], name: string, help: string, h: Histogram): void {
  out.push(`# HELP ${name} ${help}`);
  out.push(`# TYPE ${name} histogram`);
  for (const s of h.series.values()) {
    h.buckets.forEach((le, i) => out.push(`${name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.counts[i]}`));
    out.push(`${name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
    out.push(`${name}_sum${labelText(s.labels)} ${s.sum}`);
    out.push(`${name}_count${labelText(s.labels)} ${s.count}`);
  }
}
