/**
 * CustomResourceDefinitions against `kubespec serve` with the real kubectl: apply a CRD, wait
 * for it to be Established, apply and re-apply a custom resource (kubectl picks a JSON merge
 * patch from the OpenAPI document), get it by plural and short name, explain its fields, scale
 * it, see the schema refuse a bad one, and delete the CRD with its objects.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { clientFor, kubectl, kubectlMissing, startServeProcess, tempDir, type ServeProcess } from './harness.ts';
import type { KubeHttpClient } from '../adapters/kube/http-client.ts';

const missing = kubectlMissing();
const skip = missing ? { skip: missing } : {};

let serve: ServeProcess;
let client: KubeHttpClient;
const scratch = tempDir('crd');
let caches = 0;

/** Each command with a fresh discovery cache, as a new shell would have after the CRD lands. */
function k(args: string[], input?: string) {
  return kubectl(args, { kubeconfig: serve.kubeconfigPath, cacheDir: join(scratch.path, `cache-${++caches}`), input });
}

const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the cron tab runs and when.
            properties:
              cronSpec:
                type: string
                description: The schedule, in cron format.
                pattern: '^(\\S+ ){4}\\S+$'
              image:
                type: string
              replicas:
                type: integer
                minimum: 0
                maximum: 10
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

const crontab = (schedule: string, image: string) => `
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-cron
spec:
  cronSpec: "${schedule}"
  image: ${image}
  replicas: 1
`;

before(async () => {
  serve = await startServeProcess({ kubeconfigPath: join(scratch.path, 'kubeconfig.kubespec') });
  client = await clientFor(serve.kubeconfigPath);
});

after(async () => {
  client?.close();
  if (serve) assert.equal(await serve.stop(), 0, serve.output());
  scratch.remove();
});

test('kubectl applies a CRD, waits for Established, and lists it', skip, async () => {
  const applied = await k(['apply', '-f', '-'], CRD);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /customresourcedefinition.apiextensions.k8s.io\/crontabs.stable.example.com created/);
  const waited = await k(['wait', '--for', 'condition=established', '--timeout=10s', 'crd/crontabs.stable.example.com']);
  assert.equal(waited.code, 0, waited.stderr);
  const resources = await k(['api-resources', '--api-group=stable.example.com']);
  assert.equal(resources.code, 0, resources.stderr);
  assert.match(resources.stdout, /crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab/);
});

test('kubectl applies a custom resource, re-applies a change, and gets it by plural and short name', skip, async () => {
  const first = await k(['apply', '-f', '-'], crontab('* * * * */5', 'my-image'));
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /crontab.stable.example.com\/my-cron created/);
  const second = await k(['apply', '-f', '-'], crontab('* * * * */10', 'my-image:2'));
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /crontab.stable.example.com\/my-cron configured/);
  const got = await k(['get', 'crontabs']);
  assert.equal(got.code, 0, got.stderr);
  // The CRD's additionalPrinterColumns, each cell read at its jsonPath.
  assert.match(got.stdout, /NAME\s+SPEC\s+REPLICAS\s+AGE\nmy-cron\s+\* \* \* \* \*\/10\s+1\s+\S+/);
  const crds = await k(['get', 'crd']);
  assert.match(crds.stdout, /NAME\s+CREATED AT\ncrontabs\.stable\.example\.com\s+\d{4}-\d\d-\d\dT/);
  const json = await k(['get', 'ct', 'my-cron', '-o', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const obj = JSON.parse(json.stdout);
  assert.equal(obj.spec.cronSpec, '* * * * */10');
  assert.equal(obj.spec.image, 'my-image:2');
  assert.equal(obj.metadata.generation, 2);
});

test('kubectl apply --server-side creates and then updates a custom resource', skip, async () => {
  const manifest = crontab('0 * * * *', 'ssa').replace('my-cron', 'ssa-cron');
  const first = await k(['apply', '--server-side', '-f', '-'], manifest);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /crontab.stable.example.com\/ssa-cron serverside-applied/);
  const second = await k(['apply', '--server-side', '-f', '-'], manifest.replace('image: ssa', 'image: ssa:2'));
  assert.equal(second.code, 0, second.stderr);
  const got = await client.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/default/crontabs/ssa-cron' });
  assert.equal(got.json.spec.image, 'ssa:2');
  assert.ok(got.json.metadata.managedFields?.some((m: any) => m.manager === 'kubectl' && m.operation === 'Apply'), JSON.stringify(got.json.metadata.managedFields));
});

test('kubectl explain prints the CRD schema\'s descriptions', skip, async () => {
  const r = await k(['explain', 'crontab.spec']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /What the cron tab runs and when\./);
  assert.match(r.stdout, /cronSpec\s+<string>/);
  assert.match(r.stdout, /The schedule, in cron format\./);
});

test('kubectl scale writes the CRD\'s replicas path through the scale subresource', skip, async () => {
  const r = await k(['scale', 'crontab', 'my-cron', '--replicas=3']);
  assert.equal(r.code, 0, r.stderr);
  const got = await client.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron' });
  assert.equal(got.json.spec.replicas, 3);
});

test('a custom resource that breaks the schema is refused with upstream\'s 422 message', skip, async () => {
  const r = await k(['apply', '-f', '-'], crontab('every minute', 'x').replace('my-cron', 'bad-cron'));
  assert.equal(r.code, 1);
  // kubectl prints a 422's causes itself ("The <Kind> ... is invalid: <causes>").
  assert.match(r.stderr, /The CronTab "bad-cron" is invalid: spec.cronSpec: Invalid value: "every minute": spec.cronSpec in body should match '\^\(\\S\+ \)\{4\}\\S\+\$'/);
});

test('deleting the CRD deletes its custom resources', skip, async () => {
  const r = await k(['delete', 'crd', 'crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  const keys = await client.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/default/crontabs' });
  assert.equal(keys.status, 404);
  const again = await k(['apply', '-f', '-'], CRD);
  assert.equal(again.code, 0, again.stderr);
  const list = await client.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/default/crontabs' });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.json.items, []);
});
