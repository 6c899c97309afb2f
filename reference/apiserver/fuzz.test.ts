/**
 * Property: whatever arrives — any method, path, query, headers or body — the API server
 * answers with a status below 500, never throws, and a request that fails (4xx) or only reads
 * leaves the store's revision where it was. Seeded, so a failure replays with its seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LocalBackend } from '../store/local.ts';
import { createApiServer } from './server.ts';
import { RESOURCES } from './resources/registry.ts';
import { testClock, ManualTimers, pod, deployment } from './testing/harness.ts';

/** Replay or widen a run: FUZZ_SEED=<n> FUZZ_RUNS=<n> node --import tsx --test reference/apiserver/fuzz.test.ts */
const SEED = Number(process.env.FUZZ_SEED ?? 20241130);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

const SEGMENTS = ['api', 'apis', 'v1', 'apps', 'batch', 'policy', 'namespaces', 'default', 'kube-system', 'ghost', 'pods', 'deployments', 'nodes',
  'services', 'configmaps', 'namespaces', 'status', 'scale', 'binding', 'eviction', 'finalize', 'a', 'web', '..', '.', '%2F', '%zz', '', 'watch',
  'openapi', 'v3', 'version', 'healthz', 'selfsubjectaccessreviews', 'authorization.k8s.io', 'rbac.authorization.k8s.io', 'roles', 'leases', 'coordination.k8s.io'];
const QUERY_KEYS = ['watch', 'labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'fieldValidation', 'dryRun',
  'timeoutSeconds', 'gracePeriodSeconds', 'propagationPolicy', 'fieldManager', 'sendInitialEvents', 'allowWatchBookmarks', 'force'];
const QUERY_VALUES = ['true', '1', '0', '-1', '5', 'Strict', 'Warn', 'Ignore', 'All', 'Exact', 'NotOlderThan', 'app=web', 'app in (a,b)', '!x', 'metadata.name=a',
  'spec.nodeName=n', 'spec.foo=1', 'Background', 'Foreground', 'Orphan', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJhIn0=', '99999999999'];
const MEDIA = ['application/json', 'application/json', 'application/json', 'application/yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
  'application/apply-patch+yaml', 'application/vnd.kubernetes.protobuf', 'text/plain', ''];
const ACCEPT = ['', '', '', '', 'application/json', '*/*', 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json', 'application/vnd.kubernetes.protobuf', 'text/html'];

const junkPath = fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 6 })), { maxLength: 8 }).map((segs) => `/${segs.join('/')}`);

/** Mostly well-formed resource paths, so requests get past routing into the handlers. */
const resourcePath = fc
  .record({
    def: fc.constantFrom(...RESOURCES),
    ns: fc.constantFrom('default', 'default', 'ghost', 'kube-system', ''),
    name: fc.constantFrom('', '', 'a', 'web', 'x', 'Bad_Name', '%2F'),
    sub: fc.constantFrom('', '', '', 'status', 'scale', 'binding', 'eviction', 'finalize', 'bogus'),
  })
  .map(({ def, ns, name, sub }) => {
    const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
    const scope = def.namespaced && ns ? `/namespaces/${ns}` : '';
    return `${base}${scope}/${def.resource}${name ? `/${name}` : ''}${name && sub ? `/${sub}` : ''}`;
  });

const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(fc.constantFrom(...QUERY_VALUES), fc.string({ maxLength: 8 }))), { maxLength: 4 })
  .map((q) => (q.length ? '?' + q.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') : ''));

const path = fc.tuple(fc.oneof({ weight: 4, arbitrary: resourcePath }, { weight: 1, arbitrary: junkPath }), query).map(([p, q]) => p + q);

const name = fc.oneof(fc.constantFrom('a', 'web', 'b', 'Bad_Name', ''), fc.string({ maxLength: 10 }));
const kinds = fc.constantFrom(...RESOURCES).map((d) => ({ apiVersion: d.group ? `${d.group}/${d.version}` : d.version, kind: d.kind }));
const objectBody = fc.record({
  apiVersion: fc.oneof(fc.constantFrom('v1', 'apps/v1', 'policy/v1', 'autoscaling/v1'), fc.anything()),
  kind: fc.oneof(fc.constantFrom('Pod', 'Deployment', 'ConfigMap', 'Binding', 'Eviction', 'Scale', 'Namespace'), fc.anything()),
  metadata: fc.oneof(fc.record({ name, labels: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer())) }, { requiredKeys: [] }), fc.anything()),
  spec: fc.oneof(fc.constant(pod('x').spec), fc.constant(deployment('web').spec), fc.jsonValue({ maxDepth: 4 })),
  target: fc.record({ kind: fc.constant('Node'), name }),
}, { requiredKeys: [] });
const patchBody = fc.array(fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'x'), path: fc.constantFrom('/metadata/labels', '/spec/replicas', '/spec', '', '/x/y', '/metadata/name'), value: fc.jsonValue({ maxDepth: 2 }), from: fc.constantFrom('/spec', '/metadata') }, { requiredKeys: ['op'] }), { maxLength: 3 });
/** An object of a served kind with a plausible spec: most get as far as validation or storage. */
const typedBody = fc
  .tuple(kinds, name, fc.constantFrom(pod('x').spec, deployment('web').spec, {}, { replicas: 2 }), fc.dictionary(fc.constantFrom('app', 'x', 'bad key'), fc.constantFrom('web', 'v', '')))
  .map(([k, n, spec, labels]) => JSON.stringify({ ...k, metadata: { name: n, labels }, spec, data: { a: 'b' }, rules: [], value: 5, target: { kind: 'Node', name: 'n1' } }));
const body = fc.oneof(
  { weight: 3, arbitrary: typedBody },
  objectBody.map((o) => JSON.stringify(o) ?? ''),
  patchBody.map((p) => JSON.stringify(p)),
  fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 60 }),
  fc.constant('a: [1, *x]\n'),
  fc.constant('{"spec": {"containers": [{"name": "c", "$patch": "delete"}]}, "$patch": "replace"}'),
);

const chaosRequest = fc.record({
  method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD') }, fc.constantFrom('OPTIONS', 'TRACE', 'get', 'BREW')),
  path,
  contentType: fc.constantFrom(...MEDIA),
  accept: fc.constantFrom(...ACCEPT),
  body,
});

/** A valid-looking object per kind, for requests that should reach admission and storage. */
const SAMPLES: Record<string, Record<string, unknown>> = {
  pods: { spec: pod('x').spec },
  deployments: { spec: deployment('web').spec },
  replicasets: { spec: deployment('web').spec },
  jobs: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } },
  services: { spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
  configmaps: { data: { a: 'b' } },
  priorityclasses: { value: 10 },
  rolebindings: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'bob' }] },
  selfsubjectaccessreviews: { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
  events: { involvedObject: { kind: 'Pod', name: 'a' }, reason: 'Test' },
  endpointslices: { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] },
};

const PATCHES: Record<string, unknown> = {
  'application/merge-patch+json': { metadata: { labels: { fuzz: 'yes' } } },
  'application/strategic-merge-patch+json': { metadata: { labels: { fuzz: 'no' } }, spec: { replicas: 2 } },
  'application/json-patch+json': [{ op: 'add', path: '/metadata/labels', value: { j: 'p' } }],
  'application/apply-patch+yaml': null,
};

/** Requests whose path, verb and body agree, so most reach the handlers' deeper stages. */
const consistentRequest = fc
  .record({
    def: fc.constantFrom(...RESOURCES),
    verb: fc.constantFrom('get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'),
    ns: fc.constantFrom('default', 'default', 'default', 'kube-system', 'ghost'),
    name: fc.constantFrom('a', 'web', 'b', 'c'),
    patchType: fc.constantFrom(...Object.keys(PATCHES)),
    q: query,
    mutate: fc.option(fc.jsonValue({ maxDepth: 2 }), { freq: 4 }),
  })
  .map(({ def, verb, ns, name, patchType, q, mutate }) => {
    const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
    const coll = `${base}${def.namespaced ? `/namespaces/${ns}` : ''}/${def.resource}`;
    const obj: Record<string, unknown> = { apiVersion: def.group ? `${def.group}/${def.version}` : def.version, kind: def.kind, metadata: { name, labels: { app: 'web' } }, ...(SAMPLES[def.resource] ?? {}) };
    if (mutate !== null) obj.spec = mutate;
    const method = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' }[verb]!;
    const named = ['get', 'update', 'patch', 'delete'].includes(verb);
    const watch = verb === 'watch' ? `${q ? '&' : '?'}watch=true` : '';
    const patchBody = PATCHES[patchType] === null ? obj : PATCHES[patchType];
    const sendsPatch = verb === 'patch';
    const query2 = q + watch + (sendsPatch && patchType.includes('apply') ? `${q || watch ? '&' : '?'}fieldManager=fuzz` : '');
    return {
      method,
      path: `${coll}${named ? `/${name}` : ''}${query2}`,
      contentType: sendsPatch ? patchType : 'application/json',
      accept: '',
      body: ['create', 'update', 'patch'].includes(verb) ? JSON.stringify(sendsPatch ? patchBody : obj) : '',
    };
  });

const request = fc.oneof({ weight: 3, arbitrary: consistentRequest }, { weight: 2, arbitrary: chaosRequest });

test('10,000 random requests never get a 5xx, never throw, and failed or read-only requests write nothing', async () => {
  const internal: unknown[] = [];
  const clock = testClock();
  const backend = new LocalBackend();
  const server = createApiServer({ backend, clock, timers: new ManualTimers(clock), maxBodyBytes: 4096, onInternalError: (e) => internal.push(e) });
  await server.ready;
  const seed = (json: unknown, url: string) => server.handle({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json)) });
  await seed(pod('a', { labels: { app: 'web' } }), '/api/v1/namespaces/default/pods');
  await seed(deployment('web'), '/apis/apps/v1/namespaces/default/deployments');
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const before = backend.currentRevision();
      const headers: Record<string, string> = {};
      if (r.contentType) headers['content-type'] = r.contentType;
      if (r.accept) headers.accept = r.accept;
      const res = await server.handle({ method: r.method, url: r.path, headers, body: Buffer.from(r.body) });
      if (res.answer.kind === 'stream') res.answer.start({ write: () => {}, end: () => {} })();
      assert.ok(res.status >= 200 && res.status < 500, `status ${res.status} for ${r.method} ${r.path}: ${JSON.stringify(res.answer.kind === 'reply' ? res.answer.body : '')}`);
      if (res.status >= 400 || r.method === 'GET' || r.method === 'HEAD') assert.equal(backend.currentRevision(), before, `${r.method} ${r.path} answered ${res.status} but wrote`);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  assert.deepEqual(internal, []);
  const elapsed_ms = Date.now() - started;
  assert.ok(RUNS > 10_000 || elapsed_ms < 60_000, `fuzzing took ${elapsed_ms} ms`);
});
