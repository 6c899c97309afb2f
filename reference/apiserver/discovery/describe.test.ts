import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arr, int, obj, str } from '../schema/types.ts';
import { describeSchema, packageOf, type TypeDoc, type TypeDocs } from './describe.ts';
import { kubernetesTypeDocs } from './host/kubernetes-types.ts';

test('descriptions follow the type graph into nested objects and list items', () => {
  const docs: TypeDocs = new Map<string, TypeDoc>([
    ['apps/v1.Thing', { doc: 'A thing.', fields: { spec: { doc: 'What it should be.', type: 'apps/v1.ThingSpec' } } }],
    ['apps/v1.ThingSpec', { fields: { parts: { doc: 'Its parts.', type: 'core/v1.Part' }, n: { doc: 'How many.' } } }],
    ['core/v1.Part', { fields: { name: { doc: 'The part\'s name.' } } }],
  ]);
  const schema = obj({ spec: obj({ n: int(), parts: arr(obj({ name: str() })) }) });
  const d = describeSchema(schema, docs, 'apps/v1.Thing');
  assert.equal(d.description, 'A thing.');
  assert.equal(d.properties!.spec!.description, 'What it should be.');
  assert.equal(d.properties!.spec!.properties!.n!.description, 'How many.');
  assert.equal(d.properties!.spec!.properties!.parts!.items!.properties!.name!.description, 'The part\'s name.');
  assert.equal(schema.description, undefined, 'the input is not changed');
});

test('upstream\'s documentation is read from kubernetes-types: DeploymentSpec.replicas, PodSpec.containers', () => {
  const docs = kubernetesTypeDocs();
  assert.match(docs.get('apps/v1.DeploymentSpec')!.fields.replicas!.doc!, /^Number of desired pods/);
  assert.equal(docs.get('core/v1.PodSpec')!.fields.containers!.type, 'core/v1.Container');
  assert.equal(packageOf('rbac.authorization.k8s.io'), 'rbac');
  assert.equal(packageOf(''), 'core');
});
