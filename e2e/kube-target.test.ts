/**
 * The `kube` target (adapters/kube) for real: the whole feature suite through
 * `kubespec run --target kube` against a `kubespec serve` process, reached only through the
 * kubeconfig serve wrote — HTTPS, its CA, the admin client certificate. This is how CI
 * exercises the kube adapter against a live API server. (It rewrites reports/kube/.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { KUBESPEC_BIN, PROJECT_DIR, startServeProcess, tempDir } from './harness.ts';

const RUN_BUDGET_MS = 10 * 60_000;

function runKubeTarget(kubeconfig: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [KUBESPEC_BIN, 'run', '--target', 'kube', '--kubeconfig', kubeconfig, '--no-coverage'], { cwd: PROJECT_DIR });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_BUDGET_MS);
  return new Promise((done) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    }),
  );
}

test('the feature suite on the kube target against kubespec serve exits 0 with no failed scenarios', { timeout: RUN_BUDGET_MS + 60_000 }, async (t) => {
  const scratch = tempDir('kube-target');
  const serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec') });
  try {
    const run = await runKubeTarget(serve.kubeconfigPath);
    assert.equal(run.code, 0, run.output);
    const scenarios = /kubespec kube: scenarios (\d+) passed, (\d+) failed/.exec(run.output);
    assert.ok(scenarios, `no scenario summary in:\n${run.output}`);
    t.diagnostic(scenarios[0]);
    assert.equal(Number(scenarios[2]), 0, run.output);
    assert.ok(Number(scenarios[1]) >= 1, `some scenario should run on the kube target:\n${run.output}`);
  } finally {
    assert.equal(await serve.stop(), 0, serve.output());
    scratch.remove();
  }
});
