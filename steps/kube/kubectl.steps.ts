/**
 * Steps that run the real kubectl against the target (`kubectl`): the target's kubeconfig, and a
 * discovery cache of the scenario's own, since a warm cache would skip the requests a scenario
 * may be about (see the notes on kubectl in shared/notes/real-targets.md).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs } from './api.ts';

interface KubectlRun {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

const KUBECTL_TIMEOUT_MS = 60_000;

function run(args: string[]): Promise<Omit<KubectlRun, 'command'>> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { timeout: KUBECTL_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

When('I run {string}', { timeout: KUBECTL_TIMEOUT_MS + 10_000 }, async function (this: KubespecWorld, command: string) {
  const kube = this.kube();
  const [program, ...args] = expandNs(kube, command).split(/\s+/);
  assert.equal(program, 'kubectl', 'only kubectl commands are run');
  assert.ok(kube.kubeconfigPath, 'this target declares kubectl but offers no kubeconfigPath');
  const cacheDir = await mkdtemp(join(tmpdir(), 'kubespec-kubectl-cache-'));
  this.onCleanup(() => rm(cacheDir, { recursive: true, force: true }));
  const result = await run([...args, '--kubeconfig', kube.kubeconfigPath, '--cache-dir', cacheDir]);
  this.note('kubectl', { command: expandNs(kube, command), ...result });
});

Then('kubectl prints {string} and exits with code {int}', function (this: KubespecWorld, text: string, code: number) {
  const ran = this.recall<KubectlRun>('kubectl');
  const shown = `${ran.command}\nexit ${ran.code}\nstdout: ${ran.stdout}\nstderr: ${ran.stderr}`;
  assert.equal(ran.stdout.trim(), text, shown);
  assert.equal(ran.code, code, shown);
});
