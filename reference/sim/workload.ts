/**
 * One linearizability trial: a seeded cluster under a seeded fault plan, concurrent clients
 * issuing put / get / compare-and-swap, every call recorded with its virtual invoke and
 * return times, and the history handed to the lincheck checker.
 *
 * Recording rules: a call that failed with certainty (NotLeader, MemberDown, dropped) had no
 * effect and is left out; a call whose effect is unknown (timeout, crash) is kept with no
 * return — the checker may place it anywhere after its invocation, or nowhere.
 */
import { checkKvHistory, explainKvResult, type KvInput, type KvOperation, type KvOutput } from '../../lincheck/kv-model.ts';
import type { CheckResult } from '../../lincheck/checker.ts';
import { SimCluster, type SimBugs } from './cluster.ts';
import { SimClientError } from './errors.ts';
import { planFaults, randomNetwork, scheduleFaults } from './faults.ts';
import { KvRegisterMachine } from './kv-register.ts';
import { Prng } from './prng.ts';

export interface TrialOptions {
  seed: number;
  members: number;
  /** Concurrent clients. Default 4. */
  clients?: number;
  /** Keys the clients contend on. Default x, y. */
  keys?: readonly string[];
  /** Clients issue requests and faults strike during this window. Default 3000 ms. */
  duration_ms?: number;
  /** Quiet time after the all-clear for outstanding requests to settle. Default 1000 ms. */
  settle_ms?: number;
  /** Default true. */
  faults?: boolean;
  bugs?: SimBugs;
}

export interface TrialStats {
  /** Calls recorded in the history. */
  recorded: number;
  answered: number;
  /** Calls with unknown effect (timeouts, crashes). */
  indeterminate: number;
  /** Calls that certainly had no effect (not leader, member down, dropped). */
  rejected: number;
  messages: number;
  elections: number;
}

export interface TrialResult {
  seed: number;
  members: number;
  history: KvOperation[];
  check: CheckResult<KvInput, KvOutput>;
  stats: TrialStats;
  fingerprint: string;
  cluster: SimCluster;
}

export async function runTrial(opts: TrialOptions): Promise<TrialResult> {
  const duration_ms = opts.duration_ms ?? 3000;
  const planRng = new Prng(opts.seed ^ 0x5eed5eed);
  const cluster = new SimCluster({
    seed: opts.seed,
    members: opts.members,
    stateMachine: () => new KvRegisterMachine(),
    network: opts.faults === false ? {} : randomNetwork(planRng),
    requestTimeout_ms: 1000,
    ...(opts.bugs ? { bugs: opts.bugs } : {}),
  });
  if (opts.faults !== false) scheduleFaults(cluster, planFaults(planRng, { ids: cluster.ids, duration_ms }));
  const history: KvOperation[] = [];
  const stats: TrialStats = { recorded: 0, answered: 0, indeterminate: 0, rejected: 0, messages: 0, elections: 0 };
  const keys = opts.keys ?? ['x', 'y'];
  let running = opts.clients ?? 4;
  for (let i = 0; i < (opts.clients ?? 4); i++) {
    void runClient({ cluster, client: i, rng: planRng.fork(), keys, until_ms: duration_ms, history, stats }).finally(() => running--);
  }
  await cluster.runFor(duration_ms + (opts.settle_ms ?? 1000));
  // Every request times out after 1 s, so the clients finish soon after; the budget only guards a bug.
  if (!(await cluster.runUntil(() => running === 0, 5000))) throw new Error(`seed ${opts.seed}: clients still busy after the run`);
  const counts = cluster.messageCounts();
  stats.messages = Object.values(counts).reduce((a, b) => a + b, 0);
  stats.elections = cluster.trace().filter((l) => l.includes('became leader')).length;
  stats.recorded = history.length;
  return { seed: opts.seed, members: opts.members, history, check: checkKvHistory(history), stats, fingerprint: cluster.fingerprint(), cluster };
}

interface ClientContext {
  cluster: SimCluster;
  client: number;
  rng: Prng;
  keys: readonly string[];
  until_ms: number;
  history: KvOperation[];
  stats: TrialStats;
}

async function runClient(ctx: ClientContext): Promise<void> {
  const { cluster, rng } = ctx;
  const lastSeen = new Map<string, string | null>();
  for (let n = 0; cluster.now_ms < ctx.until_ms; n++) {
    const via = pickLeaderGuess(cluster, rng);
    if (via === undefined) {
      await cluster.sleep(rng.intBetween(5, 20));
      continue;
    }
    const input = randomInput(rng, ctx.keys, `c${ctx.client}-${n}`, lastSeen);
    await callAndRecord(ctx, input, via, lastSeen);
    await cluster.sleep(rng.intBetween(0, 30));
  }
}

/**
 * Clients reach whichever member claims to lead — picked at random when several do, so that
 * a deposed leader still serving its clients is part of the test.
 */
function pickLeaderGuess(cluster: SimCluster, rng: Prng): string | undefined {
  const claimants = cluster.ids.filter((id) => cluster.status(id).role === 'leader');
  return claimants.length === 0 ? undefined : rng.pick(claimants);
}

function randomInput(rng: Prng, keys: readonly string[], value: string, lastSeen: Map<string, string | null>): KvInput {
  const key = rng.pick(keys);
  const roll = rng.intBelow(10);
  if (roll < 4) return { op: 'put', key, value };
  if (roll < 8) return { op: 'get', key };
  return { op: 'cas', key, expect: lastSeen.get(key) ?? null, value };
}

async function callAndRecord(ctx: ClientContext, input: KvInput, via: string, lastSeen: Map<string, string | null>): Promise<void> {
  const call_ms = ctx.cluster.now_ms;
  const command = JSON.stringify(input);
  try {
    const output = (await (input.op === 'get' ? ctx.cluster.read(command, { via }) : ctx.cluster.propose(command, { via }))) as KvOutput;
    ctx.history.push({ client: ctx.client, input, output, call_ms, return_ms: ctx.cluster.now_ms });
    ctx.stats.answered++;
    if (input.op === 'get') lastSeen.set(input.key, output as string | null);
    else if (input.op === 'put' || output === true) lastSeen.set(input.key, input.value);
  } catch (err) {
    if (!(err instanceof SimClientError)) throw err;
    if (err.indeterminate) {
      ctx.history.push({ client: ctx.client, input, call_ms });
      ctx.stats.indeterminate++;
    } else ctx.stats.rejected++;
  }
}

/** What a person needs when a trial fails: the seed, how to replay it, and the offending history. */
export function describeFailure(result: TrialResult, testFile: string): string {
  const tail = result.cluster.trace().slice(-40);
  return [
    `seed ${result.seed} (${result.members} members): ${explainKvResult(result.check)}`,
    `replay: SEED=${result.seed} node --import tsx --test ${testFile}`,
    'last trace lines:',
    ...tail.map((l) => `  ${l}`),
  ].join('\n');
}
