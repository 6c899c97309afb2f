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

export interface KubectlRun {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

const KUBECTL_TIMEOUT_MS = 60_000;

function run(args: string[], input?: string): Promise<Omit<KubectlRun, 'command'>> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', args, { timeout: KUBECTL_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.end(input ?? '');
  });
}

export async function runKubectl(world: KubespecWorld, command: string, input?: string): Promise<void> {
  const kube = world.kube();
  const [program, ...args] = expandNs(kube, command).split(/\s+/);
  assert.equal(program, 'kubectl', 'only kubectl commands are run');
  assert.ok(kube.kubeconfigPath, 'this target declares kubectl but offers no kubeconfigPath');
  const cacheDir = await mkdtemp(join(tmpdir(), 'kubespec-kubectl-cache-'));
  world.onCleanup(() => rm(cacheDir, { recursive: true, force: true }));
  const result = await run([...args, '--kubeconfig', kube.kubeconfigPath, '--cache-dir', cacheDir], input);
  world.note('kubectl', { command: expandNs(kube, command), ...result });
}

When('I run {string}', { timeout: KUBECTL_TIMEOUT_MS + 10_000 }, async function (this: KubespecWorld, command: string) {
  await runKubectl(this, command);
});

When('I run {string} with the input:', { timeout: KUBECTL_TIMEOUT_MS + 10_000 }, async function (this: KubespecWorld, command: string, input: string) {
  await runKubectl(this, command, input);
});

Then('kubectl exits with code {int}', function (this: KubespecWorld, code: number) {
  const ran = this.recall<KubectlRun>('kubectl');
  assert.equal(ran.code, code, `${ran.command}\nexit ${ran.code}\nstdout: ${ran.stdout}\nstderr: ${ran.stderr}`);
});

Then('kubectl prints {string} and exits with code {int}', function (this: KubespecWorld, text: string, code: number) {
  const ran = this.recall<KubectlRun>('kubectl');
  const shown = `${ran.command}\nexit ${ran.code}\nstdout: ${ran.stdout}\nstderr: ${ran.stderr}`;
  assert.equal(ran.stdout.trim(), text, shown);
  assert.equal(ran.code, code, shown);
});

// ---- the applied Deployment, read back through the API ---------------------------------------

async function deploymentContainers(world: KubespecWorld, name: string): Promise<any[]> {
  const kube = world.kube();
  const res = await kube.request({ method: 'GET', path: `/apis/apps/v1/namespaces/${kube.namespace}/deployments/${name}` });
  assert.equal(res.status, 200, `get Deployment "${name}": ${res.status} ${res.text.slice(0, 300)}`);
  return res.json?.spec?.template?.spec?.containers ?? [];
}

function container(containers: any[], name: string): any {
  const found = containers.filter((c) => c?.name === name);
  assert.equal(found.length, 1, `containers named "${name}": ${JSON.stringify(containers)}`);
  return found[0];
}

Then('Deployment {string} has containers {names}, in that order', async function (this: KubespecWorld, name: string, names: string[]) {
  const containers = await deploymentContainers(this, name);
  assert.deepEqual(containers.map((c) => c?.name), names, JSON.stringify(containers));
});

Then('container {string} of Deployment {string} has image {string} and command {string}', async function (this: KubespecWorld, c: string, name: string, image: string, command: string) {
  const found = container(await deploymentContainers(this, name), c);
  assert.equal(found.image, image, JSON.stringify(found));
  assert.deepEqual(found.command, command.split(' '), JSON.stringify(found));
});

Then('container {string} of Deployment {string} has env {string}', async function (this: KubespecWorld, c: string, name: string, env: string) {
  const found = container(await deploymentContainers(this, name), c);
  const [key, value] = env.split('=') as [string, string];
  const vars: any[] = found.env ?? [];
  assert.ok(vars.some((v) => v?.name === key && v?.value === value), `env of "${c}": ${JSON.stringify(vars)}`);
});
