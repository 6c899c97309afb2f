/**
 * Memory limits as the kubelet hands them to the runtime (PITFALL-NO-LIMITS): a container that
 * allocates more than its limit is OOM-killed, one without a limit is not stopped. The container
 * is the fake runtime's `kubespec/alloc:SIZE` (README, "The fake container runtime").
 */
import { Then, When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { containerStatus, createPod, eventually, seconds } from './support.ts';

When(/^I create pod "([^"]*)" with restartPolicy "([^"]*)" whose container "([^"]*)" has (?:memory limit "([^"]*)"|no memory limit) and allocates (\S+)$/, async function (this: KubespecWorld, pod: string, policy: string, name: string, limit: string | undefined, size: string) {
  const resources = limit ? { limits: { memory: limit } } : {};
  // Placed by the scheduler, not by spec.nodeName.
  await createPod(this, pod, { restartPolicy: policy, containers: [{ name, image: `kubespec/alloc:${size}`, resources }] }, { node: null });
});

Then(/^within (\d+) seconds the last termination of container "([^"]*)" of pod "([^"]*)" has reason "([^"]*)" and exitCode (\d+)$/, async function (this: KubespecWorld, s: string, name: string, pod: string, reason: string, code: string) {
  let seen: any;
  await eventually(this, `container "${name}" last terminated ${reason} (${code})`, async () => {
    const st = await containerStatus(this, pod, name);
    seen = st?.lastState?.terminated ?? st?.state?.terminated;
    return seen?.reason === reason && seen?.exitCode === Number(code);
  }, seconds(Number(s))).catch((e) => {
    throw new Error(`${(e as Error).message}; last termination: ${JSON.stringify(seen)}`);
  });
});
