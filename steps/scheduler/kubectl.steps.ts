/** `"kubectl taint nodes n1 dedicated=gpu:NoSchedule" is run`: the real kubectl against the target (`kubectl`). */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs } from '../kube/api.ts';

When(/^"(kubectl [^"]*)" is run$/, { timeout: 70_000 }, async function (this: KubespecWorld, command: string) {
  const kube = this.kube();
  assert.ok(kube.kubeconfigPath, 'this target declares kubectl but offers no kubeconfigPath');
  const args = expandNs(kube, command).split(/\s+/).slice(1);
  const result = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile('kubectl', [...args, '--kubeconfig', kube.kubeconfigPath!], { timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, out: `${stdout}${stderr}` }));
  });
  assert.equal(result.code, 0, `${command}: ${result.out}`);
});
