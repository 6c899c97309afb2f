/**
 * Watch delivery latency: W watchers on one namespace's ConfigMaps, then K creates one after
 * another; for each create, the time from sending the POST to each watcher holding the event
 * line. One sample per (create, watcher). Creates are spaced — the next starts once every
 * watcher has the previous one — so this is delivery latency, not a backlog.
 *
 * The watchers share this process's event loop, so the last of W streams to be read waits
 * behind the others; the client reads each line only as far as the object's name to keep that
 * cost small, and the figure is honest about including it.
 */
import type { Agent, ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { requestFor, send } from './http-load.ts';

export interface WatchLatencyOptions {
  server: string;
  agent: Agent;
  /** A separate agent for the watch connections (one socket each). */
  watchAgent: Agent;
  namespace: string;
  watchers: number;
  events: number;
  /** Creates before the measured ones, not counted: the first run through the code is compiled on the way. */
  warmupEvents?: number;
  /** Per event: how long to wait for every watcher. */
  eventBudget_ms?: number;
}

export interface WatchLatencyResult {
  samples_ms: number[];
  missed: number;
}

interface Watcher {
  /** Object name → receipt time (performance.now()). */
  seen: Map<string, number>;
  req: ClientRequest;
}

const NAME_MARK = '"name":"';

/** The first "name" in an event line is the object's metadata.name (metadata comes first). */
function objectName(line: string): string | undefined {
  const at = line.indexOf(NAME_MARK);
  if (at < 0) return undefined;
  const start = at + NAME_MARK.length;
  return line.slice(start, line.indexOf('"', start));
}

function openWatcher(url: URL, agent: Agent, path: string): Promise<Watcher> {
  return new Promise((resolve, reject) => {
    const seen = new Map<string, number>();
    const req = requestFor(url)({ host: url.hostname, port: url.port, path, agent, headers: { accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch ${path}: ${res.statusCode}`));
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = performance.now();
        pending += chunk;
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const name = objectName(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          if (name !== undefined && !seen.has(name)) seen.set(name, now);
        }
      });
      res.on('error', () => {});
      resolve({ seen, req });
    });
    req.on('error', (e) => reject(e));
    req.end();
  });
}

export async function measureWatchLatency(opts: WatchLatencyOptions): Promise<WatchLatencyResult> {
  const url = new URL(opts.server);
  const collection = `/api/v1/namespaces/${opts.namespace}/configmaps`;
  const created = await send(url, opts.agent, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: opts.namespace } }) });
  if (created.status !== 201) throw new Error(`namespace ${opts.namespace}: ${created.status} ${created.body}`);
  const rv = JSON.parse(created.body).metadata.resourceVersion;
  const watchers = await Promise.all(Array.from({ length: opts.watchers }, () => openWatcher(url, opts.watchAgent, `${collection}?watch=true&resourceVersion=${rv}`)));
  const samples_ms: number[] = [];
  let missed = 0;
  try {
    const warmup = opts.warmupEvents ?? 0;
    for (let i = 0; i < warmup + opts.events; i++) {
      const name = `lat-${i}`;
      const sent = performance.now();
      const res = await send(url, opts.agent, { method: 'POST', path: collection, body: JSON.stringify({ metadata: { name }, data: { i: String(i) } }) });
      if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${res.body}`);
      const late = await waitForAll(watchers, name, opts.eventBudget_ms ?? 5000);
      if (i < warmup) continue;
      missed += late;
      for (const w of watchers) {
        const at = w.seen.get(name);
        if (at !== undefined) samples_ms.push(at - sent);
      }
    }
  } finally {
    for (const w of watchers) w.req.destroy();
  }
  return { samples_ms, missed };
}

/** Returns how many watchers did not get the event within the budget. */
async function waitForAll(watchers: Watcher[], name: string, budget_ms: number): Promise<number> {
  const deadline = performance.now() + budget_ms;
  for (;;) {
    const missing = watchers.filter((w) => !w.seen.has(name)).length;
    if (missing === 0 || performance.now() > deadline) return missing;
    await new Promise((r) => setImmediate(r));
  }
}
