import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newKeyAndCsr } from '../../apiserver/pki/host/index.ts';
import { approve, sign, CSRS, DEFAULT_SIGNING_DURATION_MS } from './index.ts';
import { csrSubject, isKubeletClientRequest, KUBELET_CLIENT_SIGNER } from './csr.ts';
import type { Cache } from '../types.ts';

const cacheOf = (csr: any): Cache => ({ get: (r, _ns, name) => (r === CSRS.resource && name === csr.metadata.name ? csr : undefined), list: () => [csr], byIndex: () => [] });

async function csrFor(cn: string, o: string[], extra: Record<string, unknown> = {}) {
  const { csrPem } = await newKeyAndCsr({ commonName: cn, organizations: o });
  return { metadata: { name: 'csr-1' }, spec: { request: Buffer.from(csrPem).toString('base64'), signerName: KUBELET_CLIENT_SIGNER, usages: ['digital signature', 'client auth'], username: cn, groups: ['system:nodes'], ...extra } };
}

test('the request\'s subject is read from its DER; a kubelet client request is O=system:nodes, CN=system:node:*, client auth', async () => {
  const { csrPem } = await newKeyAndCsr({ commonName: 'system:node:n1', organizations: ['system:nodes'] });
  const subject = csrSubject(csrPem)!;
  assert.deepEqual(subject, { commonName: 'system:node:n1', organizations: ['system:nodes'], hasSubjectAltNames: false });
  assert.equal(isKubeletClientRequest(subject, ['digital signature', 'client auth']), true);
  assert.equal(isKubeletClientRequest(subject, ['digital signature', 'server auth']), false);
  assert.equal(isKubeletClientRequest({ ...subject, organizations: ['system:masters'] }, ['client auth']), false);
  assert.equal(isKubeletClientRequest({ ...subject, commonName: 'alice' }, ['client auth']), false);
  assert.equal(csrSubject('not a request'), undefined);
});

test('the approver approves a node\'s request for itself only if a SubjectAccessReview allows selfnodeclient; another node\'s request is left alone', async () => {
  const own = await csrFor('system:node:n1', ['system:nodes']);
  const [action] = approve('csr-1', cacheOf(own)).actions as any[];
  assert.equal(action.subresource, 'approval');
  assert.deepEqual(action.ifAllowed, { user: 'system:node:n1', groups: ['system:nodes'], uid: undefined, resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', subresource: 'selfnodeclient', verb: 'create' } });
  assert.deepEqual(action.object.status.conditions.map((c: any) => [c.type, c.reason]), [['Approved', 'AutoApproved']]);
  const forOther = { ...own, spec: { ...own.spec, username: 'system:node:n2' } };
  assert.deepEqual(approve('csr-1', cacheOf(forOther)).actions, []);
});

test('the signer signs an approved kubelet request from 5 minutes ago for the signing duration less the backdate; an invalid one fails', async () => {
  const approved = { ...(await csrFor('system:node:n1', ['system:nodes'])), status: { conditions: [{ type: 'Approved', status: 'True' }] } };
  const now = 1_800_000_000_000;
  const [action] = sign('csr-1', cacheOf(approved), now, DEFAULT_SIGNING_DURATION_MS).actions as any[];
  assert.equal(action.verb, 'sign');
  assert.deepEqual(action.validity, { notBefore_ms: now - 300_000, notAfter_ms: now + DEFAULT_SIGNING_DURATION_MS - 300_000 });
  const short = { ...approved, spec: { ...approved.spec, expirationSeconds: 3600 } };
  assert.deepEqual((sign('csr-1', cacheOf(short), now, DEFAULT_SIGNING_DURATION_MS).actions[0] as any).validity, { notBefore_ms: now - 300_000, notAfter_ms: now + 3_600_000 });
  assert.deepEqual(sign('csr-1', cacheOf({ ...approved, status: {} }), now, DEFAULT_SIGNING_DURATION_MS).actions, [], 'not approved: not signed');
  const bad = { ...(await csrFor('system:node:n1', ['system:masters'])), status: { conditions: [{ type: 'Approved', status: 'True' }] } };
  const [failed] = sign('csr-1', cacheOf(bad), now, DEFAULT_SIGNING_DURATION_MS).actions as any[];
  assert.equal(failed.object.status.conditions.at(-1).reason, 'SignerValidationFailure');
});
