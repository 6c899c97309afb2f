/**
 * @kubernetes/client-node 1.4's informer (makeInformer, i.e. ListWatch) against `kubespec
 * serve` over HTTPS with the admin certificate from serve's kubeconfig. Serve runs with the
 * hidden retention knob at 300 ms, so history is compacted almost at once: an informer that
 * resumes its watch from an old resourceVersion gets 410 Expired and must re-list. ListWatch
 * handles both forms of it (cache.js: an HTTP 410, or an ERROR event with code 410, clear the
 * resourceVersion; the next start lists again).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startServeProcess, tempDir, until, type ServeProcess } from './harness.ts';

const NAMESPACE = 'informed';
const RETENTION_MS = 300;

let serve: ServeProcess;
let kc: k8s.KubeConfig;
let core: k8s.CoreV1Api;
const scratch = tempDir('client-node');

/** name → resourceVersion, the part of a cache that says whether it is current. */
function versions(items: k8s.V1ConfigMap[]): Record<string, string> {
  return Object.fromEntries(items.map((c) => [c.metadata!.name!, c.metadata!.resourceVersion!]).sort());
}

/** Is this resourceVersion compacted away? A list at exactly it answers 410 then. */
async function compacted(resourceVersion: string): Promise<boolean> {
  try {
    await core.listNamespacedConfigMap({ namespace: NAMESPACE, resourceVersion, resourceVersionMatch: 'Exact' });
    return false;
  } catch (e) {
    if ((e as { code?: number }).code === 410) return true;
    throw e;
  }
}

before(async () => {
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec'), args: ['--retention', `${RETENTION_MS}ms`] });
  kc = new k8s.KubeConfig();
  kc.loadFromFile(serve.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
});

after(async () => {
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('serve writes a kubeconfig client-node loads: an https server, its CA, and the admin client certificate', () => {
  const cluster = kc.getCurrentCluster()!;
  assert.match(cluster.server, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(cluster.caData);
  assert.ok(kc.getCurrentUser()!.certData);
});

test('an informer whose resourceVersion was compacted re-lists after 410 Expired, and its cache ends equal to the server list', async () => {
  let lists = 0;
  const listFn = () => {
    lists++;
    return core.listNamespacedConfigMap({ namespace: NAMESPACE });
  };
  const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${NAMESPACE}/configmaps`, listFn);
  const errors: unknown[] = [];
  let stopped = false;
  informer.on('error', (e) => {
    if (!stopped) errors.push(e);
  });
  const create = (name: string) => core.createNamespacedConfigMap({ namespace: NAMESPACE, body: { metadata: { name }, data: { name } } });
  try {
    await informer.start();
    for (const name of ['a', 'b', 'c']) await create(name);
    await until('the informer sees a, b and c', () => informer.list().length === 3, { budget_ms: 10_000, every_ms: 50 });
    const resumeFrom = informer.latestResourceVersion();

    // Away from the server for a while: changes happen, and retention compacts past resumeFrom.
    stopped = true;
    await informer.stop();
    await core.deleteNamespacedConfigMap({ namespace: NAMESPACE, name: 'a' });
    await core.patchNamespacedConfigMap({ namespace: NAMESPACE, name: 'b', body: { data: { changed: 'yes' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await create('d');
    await until(`compaction past resourceVersion ${resumeFrom}`, () => compacted(resumeFrom), { budget_ms: 10_000, every_ms: 50 });

    stopped = false;
    await informer.start();
    await until('a second list after 410', () => lists >= 2, { budget_ms: 10_000, every_ms: 50 });
    await create('e');
    const server = await until('the cache to equal the server list', async () => {
      const list = (await core.listNamespacedConfigMap({ namespace: NAMESPACE })).items;
      return JSON.stringify(versions(informer.list())) === JSON.stringify(versions(list)) && list.length === 4 ? list : undefined;
    }, { budget_ms: 10_000, every_ms: 50 });
    assert.deepEqual(Object.keys(versions(server)), ['b', 'c', 'd', 'e']);
    assert.deepEqual(informer.get('b', NAMESPACE)?.data, { name: 'b', changed: 'yes' });
    assert.equal(lists, 2, 'one list at start, one after 410: the watch resumed without listing again after e');
    assert.deepEqual(errors, []);
  } finally {
    stopped = true;
    await informer.stop();
  }
});
