/**
 * The API server, measured as people run it: a `kubespec serve` process (HTTPS, the admin
 * client certificate, the full security pipeline, one node renewing its lease), driven from
 * this process over keep-alive connections.
 *
 * - create and get throughput, `concurrency` requests in flight, N ConfigMaps; beside it the
 *   limit: a bare node:https server in its own process answering the same recorded bytes
 *   (bench/apiserver/bare-server.ts). Goal: reference ≥ 0.5× the bare server.
 * - watch delivery latency: 100 watchers, POST sent → event line read, p50/p99; goal p99 ≤ 5 ms;
 *   beside it the bare server writing one line to each open watch per POST, with the same client.
 * - idle RSS of the serve process; goal ≤ 150 MiB, on a start with tsx's compile cache warm (a
 *   first start is measured before it and reported beside it).
 *
 * `--quick` shrinks every size to a smoke run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpointFrom } from '../adapters/kube/index.ts';
import { createCa, issueServerCert } from '../reference/apiserver/pki/host/index.ts';
import { PROJECT_DIR, rssMiB, startServeProcess, tempDir, type ServeProcess } from '../e2e/harness.ts';
import type { RecordedReply } from './apiserver/bare-server.ts';
import { keepAliveAgent, runLoad, send, type LoadResult, type Op, type TlsClient } from './apiserver/http-load.ts';
import { measureWatchLatency, type WatchLatencyResult } from './apiserver/watch-latency.ts';
import { percentile, type Bench, type BenchResult, type Figure } from './lib.ts';

export interface ApiServerBenchConfig {
  objects: number;
  concurrency: number;
  warmup: number;
  watchers: number;
  watchEvents: number;
  /** Creates before the measured ones, so the figure is steady state rather than the first compile. */
  watchWarmup: number;
  /** Throughput rounds per system; the best round counts. */
  rounds: number;
  /** How long serve sits idle before its RSS is read. */
  idle_ms: number;
}

export const FULL: ApiServerBenchConfig = { objects: 3000, concurrency: 16, warmup: 500, watchers: 100, watchEvents: 200, watchWarmup: 30, rounds: 3, idle_ms: 5000 };
export const QUICK: ApiServerBenchConfig = { objects: 60, concurrency: 16, warmup: 20, watchers: 10, watchEvents: 5, watchWarmup: 2, rounds: 1, idle_ms: 1000 };

const THROUGHPUT_GOAL = 0.5;
const WATCH_P99_GOAL_MS = 5;
const RSS_GOAL_MIB = 150;
const NAMESPACE = 'bench';

const bench: Bench = async (opts) => runApiServerBench(opts.quick ? QUICK : FULL);
export default bench;

export async function runApiServerBench(config: ApiServerBenchConfig): Promise<BenchResult> {
  const scratch = tempDir('bench-apiserver');
  const firstRss = await firstStartRss(join(scratch.path, 'kubeconfig-first'), config.idle_ms);
  const serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig') });
  let bare: BareProcess | undefined;
  try {
    await new Promise((r) => setTimeout(r, config.idle_ms));
    const idleRss = rssMiB(serve.child.pid!);
    const tls = await clientTls(serve.kubeconfigPath);
    const recorded = await recordReplies(serve, tls);
    bare = await startBare(scratch.path, recorded);
    // Rounds alternate between the two, and each keeps its best: other load on the machine
    // (it has few cores) then spoils a round of one, not the comparison.
    let reference: Throughput | undefined;
    let peer: Throughput | undefined;
    for (let round = 0; round < config.rounds; round++) {
      reference = best(reference, await measureThroughput(serve.url, tls, config, `ref-${round}`));
      peer = best(peer, await measureThroughput(bare.url, { ...tls, ca: bare.caPem }, config, `bare-${round}`));
    }
    if (!reference || !peer) throw new Error('no rounds');
    const watch = await measureWatch(serve, bare, tls, config);
    const loadedRss = rssMiB(serve.child.pid!);
    return {
      name: 'apiserver',
      peer: 'a bare node:https server in its own process answering the same recorded bytes',
      figures: [
        ...throughputFigures(reference.create, peer.create, 'create', config),
        ...throughputFigures(reference.get, peer.get, 'get', config),
        ...watch.figures,
        { name: 'idle serve RSS, first start (1 node)', value: firstRss, unit: 'MiB', system: 'reference' },
        { name: 'idle serve RSS (1 node)', value: idleRss, unit: 'MiB', system: 'reference', goal: { text: `≤ ${RSS_GOAL_MIB} MiB`, met: idleRss <= RSS_GOAL_MIB } },
        { name: 'serve RSS after the bench', value: loadedRss, unit: 'MiB', system: 'reference' },
      ],
      notes: [
        `${config.objects} ConfigMaps, ${config.concurrency} requests in flight over keep-alive HTTPS (client certificate), after ${config.warmup} warm-up requests, best of ${config.rounds} alternating rounds; this machine has ${(await import('node:os')).cpus().length} cores shared by client and server`,
        'idle RSS: the goal is on a start with tsx\'s compile cache warm, as every start after the first is; the first start after `npm ci` (or after a change to the sources) also compiles the modules it lacks, in tsx\'s loader thread, whose heap stays grown',
        ...watch.notes,
        ...failureNotes(reference, peer),
      ],
    };
  } finally {
    await bare?.stop();
    await serve.stop();
    scratch.remove();
  }
}

/**
 * The idle RSS of a serve started and stopped before the measured one. If tsx's compile cache
 * lacks modules (a fresh `npm ci`, edited sources), this start compiles them and the figure
 * shows what that costs; the measured start after it finds the cache warm either way.
 */
async function firstStartRss(kubeconfigPath: string, idle_ms: number): Promise<number> {
  const first = await startServeProcess({ kubeconfigPath });
  try {
    await new Promise((r) => setTimeout(r, idle_ms));
    return rssMiB(first.child.pid!);
  } finally {
    await first.stop();
  }
}

async function clientTls(kubeconfigPath: string): Promise<TlsClient> {
  const endpoint = await endpointFrom(kubeconfigPath);
  return { ca: String(endpoint.ca), cert: String(endpoint.cert), key: String(endpoint.key) };
}

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value', size: 'small' } });
}

function ops(prefix: string, count: number): { create: Op[]; get: Op[] } {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const collection = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
  return {
    create: names.map((name) => ({ method: 'POST', path: collection, body: configMap(name), expect: 201 })),
    get: names.map((name) => ({ method: 'GET', path: `${collection}/${name}`, expect: 200 })),
  };
}

interface Throughput {
  create: LoadResult;
  get: LoadResult;
}

async function measureThroughput(server: string, tls: TlsClient, config: ApiServerBenchConfig, prefix: string): Promise<Throughput> {
  const agent = keepAliveAgent(tls, config.concurrency);
  try {
    const warm = ops(`${prefix}-warm`, config.warmup);
    await runLoad(server, agent, warm.create, config.concurrency);
    await runLoad(server, agent, warm.get, config.concurrency);
    const measured = ops(prefix, config.objects);
    const create = await runLoad(server, agent, measured.create, config.concurrency);
    const get = await runLoad(server, agent, measured.get, config.concurrency);
    return { create, get };
  } finally {
    agent.destroy();
  }
}

function best(a: Throughput | undefined, b: Throughput): Throughput {
  if (!a) return b;
  const faster = (x: LoadResult, y: LoadResult) => (y.ops_per_s > x.ops_per_s ? y : x);
  return { create: faster(a.create, b.create), get: faster(a.get, b.get) };
}

/** The bench namespace, and one create and one get whose answers the bare server will replay. */
async function recordReplies(serve: ServeProcess, tls: TlsClient): Promise<{ post: RecordedReply; get: RecordedReply }> {
  const agent = keepAliveAgent(tls, 1);
  const url = new URL(serve.url);
  try {
    const ns = await send(url, agent, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: NAMESPACE } }) });
    if (ns.status !== 201) throw new Error(`namespace ${NAMESPACE}: ${ns.status} ${ns.body}`);
    const sample = ops('recorded', 1);
    const post = await send(url, agent, sample.create[0]!);
    const get = await send(url, agent, sample.get[0]!);
    const record = (r: { status: number; headers: Record<string, string>; body: string }): RecordedReply => ({ status: r.status, contentType: r.headers['content-type'] ?? 'application/json', body: r.body });
    return { post: record(post), get: record(get) };
  } finally {
    agent.destroy();
  }
}

async function watchSamples(server: string, tls: TlsClient, config: ApiServerBenchConfig): Promise<WatchLatencyResult> {
  const agent = keepAliveAgent(tls, 1);
  try {
    return await measureWatchLatency({ server, agent, tls, namespace: 'bench-watch', watchers: config.watchers, events: config.watchEvents, warmupEvents: config.watchWarmup });
  } finally {
    agent.destroy();
  }
}

/**
 * Watch delivery on serve, then on the bare server with the same client: the bare server's
 * figure is what W HTTPS writes and W reads in one client cost on this machine, whatever the
 * server does, so it says how much of the reference's figure is the server's own.
 */
async function measureWatch(serve: ServeProcess, bare: BareProcess, tls: TlsClient, config: ApiServerBenchConfig): Promise<{ figures: Figure[]; notes: string[] }> {
  const reference = await watchSamples(serve.url, tls, config);
  const peer = await watchSamples(bare.url, { ...tls, ca: bare.caPem }, config);
  const p99 = percentile(reference.samples_ms, 99);
  const label = `watch delivery, ${config.watchers} watchers`;
  return {
    figures: [
      { name: `${label} p50`, value: percentile(reference.samples_ms, 50), unit: 'ms', system: 'reference' },
      { name: `${label} p99`, value: p99, unit: 'ms', system: 'reference', goal: { text: `p99 ≤ ${WATCH_P99_GOAL_MS} ms`, met: p99 <= WATCH_P99_GOAL_MS && reference.missed === 0 } },
      { name: `${label} max`, value: Math.max(...reference.samples_ms), unit: 'ms', system: 'reference' },
      { name: `${label} p50`, value: percentile(peer.samples_ms, 50), unit: 'ms', system: 'bare node:https' },
      { name: `${label} p99`, value: percentile(peer.samples_ms, 99), unit: 'ms', system: 'bare node:https' },
    ],
    notes: [
      `watch: ${config.watchEvents} creates one after another (after ${config.watchWarmup} unmeasured), ${reference.samples_ms.length} samples from POST sent to event line read (all watchers share the bench's event loop, each read from its own socket without node's HTTP client)${reference.missed ? `; ${reference.missed} deliveries missed the 5 s budget` : ''}; the bare server (one line written to each open watch per POST) measured after it with the same client${peer.missed ? `, ${peer.missed} of its deliveries missed the budget` : ''}`,
    ],
  };
}

function throughputFigures(reference: LoadResult, bare: LoadResult, verb: string, config: ApiServerBenchConfig): Figure[] {
  const label = `${verb} (${config.concurrency} in flight)`;
  const ratio = reference.ops_per_s / bare.ops_per_s;
  return [
    { name: label, value: reference.ops_per_s, unit: 'req/s', system: 'reference' },
    { name: `${label} p50`, value: percentile(reference.latencies_ms, 50), unit: 'ms', system: 'reference' },
    { name: `${label} p99`, value: percentile(reference.latencies_ms, 99), unit: 'ms', system: 'reference' },
    { name: label, value: bare.ops_per_s, unit: 'req/s', system: 'bare node:https' },
    { name: `${verb}: reference ÷ bare`, value: ratio, unit: '×', goal: { text: `≥ ${THROUGHPUT_GOAL}×`, met: ratio >= THROUGHPUT_GOAL && reference.failures === 0 } },
  ];
}

function failureNotes(reference: Throughput, bare: Throughput): string[] {
  const notes: string[] = [];
  for (const [system, t] of [['reference', reference], ['bare', bare]] as const) {
    for (const [verb, r] of [['create', t.create], ['get', t.get]] as const) {
      if (r.failures > 0) notes.push(`${system} ${verb}: ${r.failures} failed requests, first: ${r.firstFailure}`);
    }
  }
  return notes;
}

interface BareProcess {
  url: string;
  caPem: string;
  stop(): Promise<void>;
}

async function startBare(dir: string, recorded: { post: RecordedReply; get: RecordedReply }): Promise<BareProcess> {
  const ca = await createCa({ commonName: 'bench-bare-ca' });
  const cert = await issueServerCert(ca);
  const configPath = join(dir, 'bare-server.json');
  writeFileSync(configPath, JSON.stringify({ certPem: cert.certPem, keyPem: cert.keyPem, caPem: ca.certPem, ...recorded }));
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_DIR, 'bench', 'apiserver', 'bare-server.ts'), configPath], { cwd: PROJECT_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningUrl(child);
  return {
    url,
    caPem: ca.certPem,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code}) before listening: ${text}`)));
  });
}
