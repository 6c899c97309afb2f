/**
 * Datadriven transcripts, after etcd-io/raft's testdata/*.txt (cockroachdb/datadriven):
 * each block is prose (`#` lines), one command, `----`, and the output it must produce.
 * Regenerate the expected outputs after a deliberate change with
 *   REWRITE=1 node --import tsx --test reference/raft/datadriven.test.ts
 * and review the diff like any other change.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestNetwork } from './testnet.ts';

interface Block {
  prose: string[];
  command: string;
  expected: string[];
}

const DIR = join(import.meta.dirname, 'testdata');

function parse(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('#') || line.trim() === '') {
      if (line.trim() !== '' || prose.length > 0) prose.push(line);
      continue;
    }
    if (lines[i + 1] !== '----') throw new Error(`line ${i + 1}: command "${line}" is not followed by ----`);
    const expected: string[] = [];
    for (i += 2; i < lines.length && (lines[i] ?? '') !== ''; i++) expected.push(lines[i] ?? '');
    blocks.push({ prose: trimBlankEnds(prose), command: line, expected });
    prose = [];
  }
  return blocks;
}

function trimBlankEnds(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out[out.length - 1]?.trim() === '') out.pop();
  return out;
}

function render(blocks: Block[], outputs: string[][]): string {
  return blocks.map((b, i) => [...b.prose, b.command, '----', ...(outputs[i] ?? [])].join('\n')).join('\n\n') + '\n';
}

function status(net: TestNetwork): string[] {
  return net.ids.map((id) => {
    const n = net.nodes.get(id);
    if (n === undefined) return `${id} down`;
    const lead = n.role === 'leader' || n.leaderId === null ? '' : ` lead=${n.leaderId}`;
    return `${id} ${n.role} term=${n.term} commit=${n.commitIndex} last=${n.lastIndex}${lead}`;
  });
}

/** Run one command against the network; the first command of a file must be `new`. */
function run(net: TestNetwork | undefined, command: string): { net: TestNetwork; output: string[] } {
  const [verb, ...args] = command.split(/\s+/);
  const a0 = args[0] ?? '';
  if (verb === 'new') {
    const checkQuorum = args.includes('check-quorum');
    return { net: new TestNetwork(Number(a0), { checkQuorum }), output: ['ok'] };
  }
  if (net === undefined) throw new Error(`"${command}" before "new"`);
  switch (verb) {
    case 'campaign': net.campaign(a0); return { net, output: status(net) };
    case 'propose': {
      const at = net.propose(a0, args.slice(1).join(' '));
      return { net, output: [at === null ? 'not leader' : `index=${at.index} term=${at.term}`] };
    }
    case 'tick': net.tickAll(Number(a0 || 1)); return { net, output: status(net) };
    case 'isolate': net.isolate(a0); return { net, output: ['ok'] };
    case 'cut': net.cut(a0, args[1] ?? ''); return { net, output: ['ok'] };
    case 'recover': net.recover(); return { net, output: ['ok'] };
    case 'crash': net.crash(a0); return { net, output: ['ok'] };
    case 'restart': net.start(a0); net.drain(); return { net, output: status(net).filter((l) => l.startsWith(`${a0} `)) };
    case 'status': return { net, output: status(net) };
    case 'log': return { net, output: net.node(a0).entries().map((e) => `${e.index}/${e.term} ${e.data ?? '(no-op)'}`) };
    case 'applied': return { net, output: [JSON.stringify(net.applied.get(a0) ?? [])] };
    default: throw new Error(`unknown command "${command}"`);
  }
}

for (const file of readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort()) {
  test(`the transcript ${file} replays exactly`, () => {
    const path = join(DIR, file);
    const blocks = parse(readFileSync(path, 'utf8'));
    let net: TestNetwork | undefined;
    const outputs = blocks.map((b) => {
      const r = run(net, b.command);
      net = r.net;
      return r.output;
    });
    if (process.env.REWRITE) writeFileSync(path, render(blocks, outputs));
    else blocks.forEach((b, i) => assert.deepEqual(outputs[i], b.expected, `${file}: ${b.command}`));
  });
}
