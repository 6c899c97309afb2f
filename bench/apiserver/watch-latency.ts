/**
 * Watch delivery latency: W watchers on one namespace's ConfigMaps, then K creates one after
 * another; for each create, the time from sending the POST to each watcher holding the event
 * line. One sample per (create, watcher). Creates are spaced — the next starts once every
 * watcher has the previous one — so this is delivery latency, not a backlog.
 *
 * The watchers share this process's event loop, so the last of W streams to be read waits
 * behind the others, and this process's own garbage collections delay every watcher alike: the
 * figure is honest about including both, and the client keeps them small. Each watch is read
 * straight off its socket into one reused buffer (node's `onread`), the request written by hand
 * and the status line checked, and a line is reduced to its event's number without making a
 * string. Through node's HTTP client each line also went through the response parser, a
 * readable stream and a text decoder, per watcher per event; with those, and a Map of names per
 * watcher, this process collected garbage every hundred events or so, each collection a late
 * event for all W watchers.
 */
import type { Agent } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { performance } from 'node:perf_hooks';
import { send, type TlsClient } from './http-load.ts';

export interface WatchLatencyOptions {
  server: string;
  agent: Agent;
  /** The client certificate for the watch connections (one each, made here); none for plain HTTP. */
  tls?: TlsClient;
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
  /** Event number → receipt time (performance.now()); NaN until its line arrives. */
  arrived: Float64Array;
  close(): void;
}

/** The objects are named `lat-<event number>`. */
const NAME_PREFIX = 'lat-';
const NAME_MARK = Buffer.from(`"name":"${NAME_PREFIX}`, 'latin1');
const NEWLINE = 0x0a;
const DIGIT_0 = 0x30;
const HEAD_END = '\r\n\r\n';
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * The event being waited for and how many watchers still lack it: each watcher counts itself off
 * as its line arrives, so the wait costs nothing while lines are on their way (a loop checking
 * every watcher each turn kept this process busy, on a core the server could have had).
 */
interface Awaited {
  event: number;
  missing: number;
  done: () => void;
}

/** The one event a measurement waits for at a time; its watchers count themselves off. */
class Tally {
  private awaited: Awaited | undefined;

  seen(event: number): void {
    const a = this.awaited;
    if (a?.event === event && --a.missing === 0) a.done();
  }

  /** Resolves with how many watchers did not get the event within the budget (0: all did). */
  expectAll(watchers: Watcher[], event: number, budget_ms: number): Promise<number> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.awaited = undefined;
        resolve(watchers.filter((w) => Number.isNaN(w.arrived[event]!)).length);
      }, budget_ms);
      this.awaited = {
        event,
        missing: watchers.length,
        done: () => {
          clearTimeout(timer);
          this.awaited = undefined;
          resolve(0);
        },
      };
    });
  }
}

/**
 * Calls `found` with the event number of every whole line in `buf` that names one, and returns
 * where the last line still arriving starts. The first "name" in an event line is the object's
 * metadata.name (metadata comes first); chunk-size lines have none.
 */
function scanLines(buf: Buffer, end: number, found: (event: number) => void): number {
  let pos = 0;
  for (let newline = buf.indexOf(NEWLINE, pos); newline >= 0 && newline < end; newline = buf.indexOf(NEWLINE, pos)) {
    const at = buf.indexOf(NAME_MARK, pos);
    if (at >= 0 && at < newline) found(digitsAt(buf, at + NAME_MARK.length));
    pos = newline + 1;
  }
  return pos;
}

/** The decimal number at `pos` (−1 when there is none). */
function digitsAt(buf: Buffer, pos: number): number {
  let n = -1;
  for (let d = buf[pos]! - DIGIT_0; d >= 0 && d <= 9; d = buf[++pos]! - DIGIT_0) n = (n < 0 ? 0 : n * 10) + d;
  return n;
}

/**
 * One watch over its own connection. Bytes land in one buffer node reuses for every read; a line
 * still arriving is moved to the buffer's front and the next read appended after it.
 */
function openWatcher(url: URL, tls: TlsClient | undefined, path: string, events: number, tally: Tally): Promise<Watcher> {
  return new Promise((resolve, reject) => {
    const arrived = new Float64Array(events).fill(NaN);
    const buffer = Buffer.alloc(READ_BUFFER_BYTES);
    let kept = 0;
    let head = '';
    let headed = false;
    let now = 0;
    const found = (event: number): void => {
      if (event < 0 || event >= events || !Number.isNaN(arrived[event]!)) return;
      arrived[event] = now;
      tally.seen(event);
    };
    const onread = {
      // Reads go after what is kept of a line still arriving; a line longer than the buffer is not one of ours.
      buffer: () => (kept < buffer.length ? buffer.subarray(kept) : ((kept = 0), buffer)),
      callback: (nread: number): boolean => {
        now = performance.now();
        let end = kept + nread;
        if (!headed) {
          head += buffer.toString('latin1', 0, end);
          const at = head.indexOf(HEAD_END);
          if (at < 0) return ((kept = 0), true);
          const status = head.slice(0, at);
          if (!/^HTTP\/1\.1 200 /.test(status) || !/\r\ntransfer-encoding: chunked/i.test(status)) {
            socket.destroy();
            reject(new Error(`watch ${path}: ${status.split('\r\n')[0]}`));
            return false;
          }
          headed = true;
          end = buffer.write(head.slice(at + HEAD_END.length), 0, 'latin1');
          resolve({ arrived, close: () => socket.destroy() });
        }
        const from = scanLines(buffer, end, found);
        kept = end - from;
        if (kept > 0 && from > 0) buffer.copy(buffer, 0, from, end);
        return true;
      },
    };
    const port = Number(url.port || (tls ? 443 : 80));
    const socket: Socket = tls
      ? // tls.connect takes net's onread too (node docs, tls.connect options); @types/node lacks it.
        tlsConnect({ host: url.hostname, port, ca: tls.ca, cert: tls.cert, key: tls.key, servername: serverName(url.hostname), onread } as ConnectionOptions)
      : netConnect({ host: url.hostname, port, onread });
    socket.setNoDelay(true);
    socket.once(tls ? 'secureConnect' : 'connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\n\r\n`));
    socket.on('error', (e) => (headed ? undefined : reject(e)));
  });
}

/** SNI takes a host name, not an address (RFC 6066 § 3). */
function serverName(host: string): string | undefined {
  return isIP(host) ? undefined : host;
}

export async function measureWatchLatency(opts: WatchLatencyOptions): Promise<WatchLatencyResult> {
  const url = new URL(opts.server);
  const collection = `/api/v1/namespaces/${opts.namespace}/configmaps`;
  const created = await send(url, opts.agent, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: opts.namespace } }) });
  if (created.status !== 201) throw new Error(`namespace ${opts.namespace}: ${created.status} ${created.body}`);
  const rv = JSON.parse(created.body).metadata.resourceVersion;
  const tally = new Tally();
  const watchers = await Promise.all(Array.from({ length: opts.watchers }, () => openWatcher(url, opts.tls, `${collection}?watch=true&resourceVersion=${rv}`, eventCount(opts), tally)));
  const samples_ms: number[] = [];
  let missed = 0;
  try {
    const warmup = opts.warmupEvents ?? 0;
    for (let i = 0; i < warmup + opts.events; i++) {
      const name = `${NAME_PREFIX}${i}`;
      const arrived = tally.expectAll(watchers, i, opts.eventBudget_ms ?? 5000);
      const sent = performance.now();
      const res = await send(url, opts.agent, { method: 'POST', path: collection, body: JSON.stringify({ metadata: { name }, data: { i: String(i) } }) });
      if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${res.body}`);
      const late = await arrived;
      if (i < warmup) continue;
      missed += late;
      for (const w of watchers) {
        const at = w.arrived[i]!;
        if (!Number.isNaN(at)) samples_ms.push(at - sent);
      }
    }
  } finally {
    for (const w of watchers) w.close();
  }
  return { samples_ms, missed };
}

/** How many events a measurement creates, the unmeasured ones included. */
function eventCount(opts: WatchLatencyOptions): number {
  return (opts.warmupEvents ?? 0) + opts.events;
}
