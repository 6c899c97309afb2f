import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { main } from './main.ts';
import { COMMANDS } from './commands.ts';
import { KUBESPEC_BIN, PROJECT_DIR } from '../e2e/harness.ts';

/** Runs main() with console.log/error captured. */
async function capture(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  console.error = (...a: unknown[]) => void err.push(a.join(' '));
  try {
    return { code: await main(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

test('every command answers --help and -h with its own usage and exit 0, without running', async () => {
  for (const name of COMMANDS.map((c) => c.name)) {
    for (const flag of ['--help', '-h']) {
      const { code, out } = await capture([name, flag]);
      assert.equal(code, 0, `${name} ${flag}`);
      assert.match(out, new RegExp(`kubespec ${name}\\b`), `${name} ${flag}`);
      for (const other of COMMANDS.map((c) => c.name).filter((o) => o !== name)) {
        assert.doesNotMatch(out, new RegExp(`kubespec ${other}\\b`), `${name} ${flag} prints only its own usage`);
      }
    }
  }
});

test('kubespec help NAME is NAME --help; help alone is the whole usage', async () => {
  assert.deepEqual(await capture(['help', 'serve']), await capture(['serve', '--help']));
  const all = await capture(['help']);
  assert.equal(all.code, 0);
  for (const name of COMMANDS.map((c) => c.name)) assert.match(all.out, new RegExp(`kubespec ${name}\\b`));
});

test('an unknown option or command is still a usage error (exit 2) with a hint', async () => {
  assert.equal((await capture(['serve', '--bogus'])).code, 2);
  const unknown = await capture(['help', 'nope']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown command "nope"/);
});

test('the real command: kubespec serve --help prints serve usage and exits 0', () => {
  const run = spawnSync(process.execPath, [KUBESPEC_BIN, 'serve', '--help'], { cwd: PROJECT_DIR, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Usage: kubespec serve \[options\]/);
  assert.match(run.stdout, /--port <P>/);
  assert.equal(run.stderr, '');
});
