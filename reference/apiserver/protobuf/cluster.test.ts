/**
 * JSON → protobuf → JSON for the kinds of ./schema-cluster.ts (Node, Lease, Event, EndpointSlice
 * and the rest), and bytes written by an encoder that is not this codec: protobufjs reading
 * upstream's own generated.proto files (kubernetes/api 10b39a39b, kubernetes/apimachinery) with
 * the objects given in upstream's wire form (Time as seconds/nanos, Quantity as {string},
 * BoundObjectReference's proto name `uID`, ExtraValue as {items}; a whole-second Time still with
 * `nanos: 0`, as upstream's Go writes every non-pointer field). Those bytes are kept here as hex.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeObject, encodeObject, hasProtobuf } from './codec.ts';
import * as F from './cluster-fixtures.ts';
import { apiVersionOf, RESOURCES } from '../resources/registry.ts';

const roundTrip = (obj: unknown) => decodeObject(encodeObject(obj, { lossless: true }) ?? assert.fail('lossy or no protobuf form'));
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? assert.fail('no protobuf form')).toString('hex');

for (const obj of F.ALL) {
  test(`a realistic ${obj.apiVersion} ${obj.kind} comes back equal`, () => {
    assert.deepEqual(roundTrip(obj), obj);
  });
}

test('each kind\'s List comes back equal, its items without apiVersion/kind', () => {
  for (const obj of [F.node, F.lease, F.event, F.endpointSlice, F.endpoints, F.podDisruptionBudget, F.priorityClass, F.persistentVolume]) {
    const { apiVersion, kind, ...item } = obj as { apiVersion: string; kind: string };
    const list = { apiVersion, kind: `${kind}List`, metadata: { resourceVersion: '12', continue: 'c' }, items: [item, item] };
    assert.deepEqual(roundTrip(list), list, list.kind);
  }
});

test('every built-in kind the server serves has a protobuf form, but APIService and custom resources do not', () => {
  for (const [apiVersion, kind] of [
    ['v1', 'Node'], ['v1', 'Event'], ['v1', 'Endpoints'], ['v1', 'Binding'], ['v1', 'ReplicationController'], ['v1', 'ResourceQuota'], ['v1', 'LimitRange'],
    ['coordination.k8s.io/v1', 'Lease'], ['discovery.k8s.io/v1', 'EndpointSliceList'], ['events.k8s.io/v1', 'Event'], ['policy/v1', 'Eviction'],
    ['authentication.k8s.io/v1', 'TokenRequest'], ['authorization.k8s.io/v1', 'SelfSubjectAccessReview'], ['autoscaling/v1', 'Scale'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler'], ['networking.k8s.io/v1', 'NetworkPolicy'], ['storage.k8s.io/v1', 'StorageClass'],
    ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfigurationList'], ['apps/v1', 'DeleteOptions'],
  ]) assert.equal(hasProtobuf(apiVersion!, kind!), true, `${apiVersion} ${kind}`);
  assert.equal(hasProtobuf('apiregistration.k8s.io/v1', 'APIService'), false);
  assert.equal(hasProtobuf('v1', 'BindingList'), false, 'Binding is only created, never listed');
});

test('every kind the registry serves (and each subresource speaks) has a protobuf form, but APIService and CustomResourceDefinition', () => {
  const WITHOUT = new Set(['apiregistration.k8s.io/v1/APIService', 'apiextensions.k8s.io/v1/CustomResourceDefinition']);
  const missing: string[] = [];
  for (const def of RESOURCES) {
    const apiVersion = apiVersionOf(def);
    const kinds = def.virtual ? [def.kind] : [def.kind, `${def.kind}List`];
    for (const kind of kinds) if (!hasProtobuf(apiVersion, kind) && !WITHOUT.has(`${apiVersion}/${def.kind}`)) missing.push(`${apiVersion}/${kind}`);
    for (const sub of def.subresources) {
      const subVersion = apiVersionOf({ group: sub.group ?? def.group, version: sub.version ?? def.version });
      if (!hasProtobuf(subVersion, sub.kind) && !WITHOUT.has(`${subVersion}/${sub.kind}`)) missing.push(`${subVersion}/${sub.kind} (${def.resource}/${sub.name})`);
    }
  }
  assert.deepEqual(missing, []);
});

test('an empty list or map (no wire form) makes an object lossy, so the store keeps it as JSON; served, it is left out', () => {
  assert.equal(encodeObject({ ...F.endpointSlice, endpoints: [] }, { lossless: true }), undefined);
  assert.equal(encodeObject({ ...F.node, metadata: { ...F.node.metadata, annotations: {} } }, { lossless: true }), undefined);
  assert.deepEqual(decodeObject(encodeObject({ ...F.endpointSlice, endpoints: [] })!).endpoints, undefined);
});

test('an empty string is on the wire: the store\'s reader keeps it (the kubelet\'s nodeInfo.kernelVersion ""), a client\'s body reads as unset', () => {
  const withEmpty = { ...F.node, status: { ...F.node.status, nodeInfo: { ...F.node.status.nodeInfo, kernelVersion: '' } } };
  const bytes = encodeObject(withEmpty, { lossless: true }) ?? assert.fail('an empty string is not a loss');
  assert.deepEqual(decodeObject(bytes, { keepEmptyStrings: true }), withEmpty);
  assert.equal('kernelVersion' in decodeObject(bytes).status.nodeInfo, false, 'Go writes "" for every unset string: a client body\'s "" is unset');
});

test('ExtraValue and AttestationValue are a list of strings in JSON and {items} on the wire', () => {
  const bytes = encodeObject({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { extra: { k: ['a'] } } })!;
  // SubjectAccessReview.spec (2) { extra (5) map entry { key (1) "k", value (2) ExtraValue { items (1) "a" } } }
  const entry = [0x0a, 0x01, 0x6b, 0x12, 0x03, 0x0a, 0x01, 0x61];
  const raw = [0x12, 2 + entry.length, 0x2a, entry.length, ...entry];
  assert.ok(hex(bytes).endsWith(Buffer.from([0x12, raw.length, ...raw]).toString('hex')), hex(bytes));
  assert.equal(encodeObject({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { extra: { k: 'a' } } }, { lossless: true }), undefined);
});

// ---- bytes from upstream's generated.proto ----------------------------------------------------

/** Each: the hex protobufjs wrote from upstream's .proto, and the JSON form it must read as. */
const UPSTREAM: [name: string, hex: string, json: object][] = [
  [
    'Lease (renewTime a MicroTime: seconds + nanos)',
    '6b3873000a1f0a16636f6f7264696e6174696f6e2e6b38732e696f2f763112054c6561736512360a190a066e6f64652d311a0f6b7562652d6e6f64652d6c6561736512190a066e6f64652d311028220b088f81c8ac06108094ef3a2800',
    { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'node-1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2024-01-01T00:00:15.123456Z', leaseTransitions: 0 } },
  ],
  [
    'Node (taint timeAdded, capacity Quantity, condition, daemonEndpoints.Port, nodeInfo)',
    '6b3873000a0a0a02763112044e6f646512d2010a230a066e6f64652d315a190a106b756265726e657465732e696f2f6f7312056c696e757812440a0d31302e3234342e312e302f32342a330a1c6e6f64652e6b756265726e657465732e696f2f6e6f742d72656164791a094e6f457865637574652208088f81c8ac0610001a650a0a0a0363707512030a013422250a0552656164791204547275651a08088f81c8ac0610002a0c4b7562656c657452656164792a170a0a496e7465726e616c4950120931302e302e302e313132050a03088a503a103a0776312e33322e345205616d643634',
    {
      apiVersion: 'v1', kind: 'Node',
      metadata: { name: 'node-1', labels: { 'kubernetes.io/os': 'linux' } },
      spec: { podCIDR: '10.244.1.0/24', taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:15Z' }] },
      status: {
        capacity: { cpu: '4' },
        conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-01-01T00:00:15Z', reason: 'KubeletReady' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.11' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: { kubeletVersion: 'v1.32.4', architecture: 'amd64' },
      },
    },
  ],
  [
    'core/v1 Event (count, eventTime a MicroTime, reporting fields 14 and 15)',
    '6b3873000a0b0a02763112054576656e7412750a140a097765622d312e3137611a0764656661756c7412100a03506f641a057765622d312a0276311a0650756c6c65642a110a076b7562656c657412066e6f64652d313208088581c8ac06100040034a064e6f726d616c520b088581c8ac061080e59a7772076b7562656c65747a066e6f64652d31',
    {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'web-1.17a', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web-1', apiVersion: 'v1' }, reason: 'Pulled', source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2024-01-01T00:00:05Z', count: 3, type: 'Normal', eventTime: '2024-01-01T00:00:05.250000Z', reportingComponent: 'kubelet', reportingInstance: 'node-1',
    },
  ],
  [
    'EndpointSlice (addressType is field 4, after endpoints (2) and ports (3) on the wire)',
    '6b3873000a240a13646973636f766572792e6b38732e696f2f7631120d456e64706f696e74536c69636512600a140a097765622d78376b32701a0764656661756c7412320a0a31302e3234342e312e371206080110011800220c0a03506f641a057765622d3132066e6f64652d313a067a6f6e652d611a0e0a0468747470120354435018903f220449507634',
    {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-x7k2p', namespace: 'default' }, addressType: 'IPv4',
      endpoints: [{ addresses: ['10.244.1.7'], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', name: 'web-1' }, nodeName: 'node-1', zone: 'zone-a' }],
      ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
    },
  ],
  [
    'TokenRequest (boundObjectRef.uid is proto field uID = 4)',
    '6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e52657175657374121e121c0a036170691a120a03506f641a057765622d312204752d703120971c',
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', name: 'web-1', uid: 'u-p1' } } },
  ],
  [
    'SubjectAccessReview (extra: map<string, ExtraValue>)',
    '6b3873000a2e0a17617574686f72697a6174696f6e2e6b38732e696f2f763112135375626a656374416363657373526576696577122c12260a0b12036765742a04706f64731a05616c6963652a100a0673636f70657312060a01610a01621a020801',
    { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' }, user: 'alice', extra: { scopes: ['a', 'b'] } }, status: { allowed: true } },
  ],
];

for (const [name, bytes, json] of UPSTREAM) {
  test(`upstream's bytes for a ${name} read as its JSON form, and the codec writes the same bytes`, () => {
    assert.deepEqual(decodeObject(Buffer.from(bytes, 'hex')), json);
    assert.equal(hex(encodeObject(json)), bytes);
  });
}
