/** The official JavaScript client (@kubernetes/client-node 1.x) against the reference over HTTP: CRUD, a watch and an informer. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { LocalBackend } from '../../store/local.ts';
import { createApiServer } from '../server.ts';
import { listen, realTimers } from './listen.ts';

function clientConfig(url: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  // client-node 1.x refuses a plain-http server unless TLS verification is marked skipped.
  kc.loadFromOptions({
    clusters: [{ name: 'ref', server: url, skipTLSVerify: true }],
    users: [{ name: 'ref' }],
    contexts: [{ name: 'ref', cluster: 'ref', user: 'ref', namespace: 'default' }],
    currentContext: 'ref',
  });
  return kc;
}

test('client-node creates, lists, patches and deletes pods, and its Watch and informer see the changes', async () => {
  const api = createApiServer({ backend: new LocalBackend(), clock: { now_ms: () => Date.now() }, timers: realTimers });
  const http = await listen(api.handler);
  const kc = clientConfig(http.url);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const seen: string[] = [];
  const watch = await new k8s.Watch(kc).watch('/api/v1/namespaces/default/pods', {}, (type, obj) => seen.push(`${type} ${obj.metadata.name}`), () => {});
  const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/pods', () => core.listNamespacedPod({ namespace: 'default' }));
  const informed: string[] = [];
  informer.on('add', (p) => informed.push(`add ${p.metadata?.name}`));
  await informer.start();
  try {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    const list = await core.listNamespacedPod({ namespace: 'default' });
    assert.deepEqual(list.items.map((p) => p.metadata?.name), ['a']);
    await core.patchNamespacedPod({ namespace: 'default', name: 'a', body: { metadata: { labels: { x: 'y' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.deleteNamespacedPod({ namespace: 'default', name: 'a' });
    const deadline = Date.now() + 5000;
    while ((seen.length < 3 || informed.length < 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seen, ['ADDED a', 'MODIFIED a', 'DELETED a']);
    assert.deepEqual(informed, ['add a']);
    await assert.rejects(core.readNamespacedPod({ namespace: 'default', name: 'a' }), (e: any) => e.code === 404);
  } finally {
    watch.abort();
    await informer.stop();
    await http.close();
  }
});
