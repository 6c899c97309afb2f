/**
 * `kubespec serve --cloud` with the real kubectl: the kubelet registers its Node as one run with
 * --cloud-provider=external does (the uninitialized taint), and the cloud-controller-manager,
 * talking to the simulated cloud's HTTP API, initialises it (providerID, zone, no taint); a
 * LoadBalancer Service gets an ingress IP from the cloud's load balancer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, kubectlMissing, startServeProcess, tempDir, until, type ServeProcess } from './harness.ts';

const missing = kubectlMissing();
const skip = missing ? { skip: missing } : {};
let serve: ServeProcess;
const scratch = tempDir('cloud');
let caches = 0;

const k = (args: string[]) => kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`) });

before(async () => {
  if (!missing) serve = await startServeProcess({ args: ['--cloud', '--nodes', '1'] });
});

after(async () => {
  if (serve) await serve.stop();
  scratch.remove();
});

test('the cloud-controller-manager initialises the node and gives a LoadBalancer Service an ingress IP', skip, async () => {
  const providerID = await until('node-1 initialised by the cloud', async () => {
    const r = await k(['get', 'node', 'node-1', '-o', 'jsonpath={.spec.providerID}']);
    return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
  }, { budget_ms: 30_000, every_ms: 500, serve });
  assert.match(providerID, /^kubespec-cloud:\/\//);
  const node = JSON.parse((await k(['get', 'node', 'node-1', '-o', 'json'])).stdout);
  assert.ok(node.metadata.labels['topology.kubernetes.io/zone'], 'a zone label from the cloud');
  assert.ok(!(node.spec.taints ?? []).some((t: { key: string }) => t.key === 'node.cloudprovider.kubernetes.io/uninitialized'), 'the uninitialized taint is gone');

  assert.equal((await k(['create', 'service', 'loadbalancer', 'lb', '--tcp=80:80'])).code, 0);
  const ip = await until('an ingress IP for Service lb', async () => {
    const r = await k(['get', 'service', 'lb', '-o', 'jsonpath={.status.loadBalancer.ingress[0].ip}']);
    return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : undefined;
  }, { budget_ms: 30_000, every_ms: 500, serve });
  assert.match(ip, /^\d+\.\d+\.\d+\.\d+$/);
});
