/** `kubespec bench NAME`: run bench/NAME.ts, print its figures, write reports/bench/NAME.json. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bench, BenchResult } from '../bench/lib.ts';
import { EXIT_OK, UsageError } from './usage.ts';

export function benchNames(): string[] {
  return fs.existsSync('bench')
    ? fs.readdirSync('bench').filter((f) => f.endsWith('.ts') && f !== 'lib.ts' && !f.endsWith('.test.ts')).map((f) => f.slice(0, -3))
    : [];
}

export async function bench(names: string[], opts: { quick?: boolean }): Promise<number> {
  if (names.length === 0) throw new UsageError('which benchmark?', `available: ${benchNames().join(', ') || 'none'}; e.g. npm run bench -- ${benchNames()[0] ?? 'NAME'}`);
  for (const name of names) {
    if (!benchNames().includes(name)) throw new UsageError(`no benchmark "${name}"`, `available: ${benchNames().join(', ')}`);
  }
  for (const name of names) {
    const module = (await import(pathToFileURL(path.resolve('bench', `${name}.ts`)).href)) as { default: Bench };
    const result = await module.default({ quick: opts.quick ?? false });
    printResult(result);
    writeResult(result, opts.quick ?? false);
  }
  return EXIT_OK;
}

function printResult(result: BenchResult): void {
  console.log(`\n${result.name}${result.peer ? ` (peer: ${result.peer})` : ''}`);
  for (const f of result.figures) {
    const goal = f.goal ? `  goal: ${f.goal.text} ${f.goal.met ? '✓' : '✗ not met'}` : '';
    console.log(`  ${(f.system ? `[${f.system}] ` : '') + f.name}: ${round(f.value)} ${f.unit}${goal}`);
  }
  for (const note of result.notes ?? []) console.log(`  note: ${note}`);
}

function writeResult(result: BenchResult, quick: boolean): void {
  const dir = path.join('reports', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const record = { ...result, quick, cores: os.cpus().length, node: process.version, measured_at: new Date().toISOString() };
  // A --quick smoke run is no measurement: it must never overwrite one.
  const file = path.join(dir, `${result.name}${quick ? '.quick' : ''}.json`);
  fs.writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`  written: ${file}`);
}

function round(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}
