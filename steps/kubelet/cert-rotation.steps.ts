/**
 * Steps for the kubelet's client-certificate rotation (PITFALL-KUBELET-CERT-ROTATION,
 * features/practices/pitfalls.feature): a node whose kubelet starts with a client certificate of
 * a given lifetime (`kubelet.cert-rotation`), the CertificateSigningRequests it sends, and the
 * certificate the cluster's signer issues.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { Given, Then } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const FIRST_EXPIRY = 'kubelet certificate: first notAfter';

async function csrsOf(world: KubespecWorld, username: string): Promise<any[]> {
  const res = await world.kube().request({ method: 'GET', path: CSRS });
  assert.equal(res.status, 200, `GET ${CSRS}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  return (res.json?.items ?? []).filter((c: any) => c.spec?.username === username);
}

// What kubeadm does at init (its "kubeadm:node-autoapprove-certificate-rotation" binding); the
// default policy has the role but binds it to no one.
Given('ClusterRole {string} is bound to group {string}, as kubeadm binds it', async function (this: KubespecWorld, role: string, group: string) {
  const kube = this.kube();
  const name = `kubespec-${kube.namespace}-${role.replace(/[^a-z0-9-]/gi, '-')}`.toLowerCase().slice(0, 250);
  const path = '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings';
  const res = await kube.request({ method: 'POST', path, body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }] } });
  assert.ok(res.status === 201 || res.status === 409, `ClusterRoleBinding ${name}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  this.onCleanup(async () => void (await kube.request({ method: 'DELETE', path: `${path}/${name}` })));
});

Given(/^a node "([^"]*)" whose kubelet has rotateCertificates (true|false) and a client certificate valid for (\d+) minutes$/, async function (this: KubespecWorld, name: string, rotate: string, minutes: string) {
  const nodes = this.nodes();
  assert.ok(nodes.startKubeletWithClientCertificate, 'this target declares kubelet.cert-rotation but offers no startKubeletWithClientCertificate()');
  const lifetime_ms = Number(minutes) * 60_000;
  this.note(FIRST_EXPIRY, this.clock().now_ms() + lifetime_ms);
  await nodes.startKubeletWithClientCertificate(name, { lifetime_ms, rotateCertificates: rotate === 'true' });
});

Then('a CertificateSigningRequest with signerName {string} and username {string} exists', async function (this: KubespecWorld, signer: string, username: string) {
  const mine = await csrsOf(this, username);
  assert.ok(mine.some((c) => c.spec.signerName === signer), `CSRs from ${username}: ${JSON.stringify(mine.map((c) => ({ name: c.metadata.name, signerName: c.spec.signerName })))}`);
  this.note('kubelet certificate: csr', mine.find((c) => c.spec.signerName === signer));
});

// The signer's work (signing with the CA) is the host's; on virtual time the wait drives the clock
// forward until it is done, within the budget.
Then('within {int} seconds it is approved and holds a certificate for {string} in group {string} that is valid longer than the first', async function (this: KubespecWorld, seconds: number, cn: string, group: string) {
  const name = this.recall<any>('kubelet certificate: csr').metadata.name;
  let csr: any;
  await this.session.waiter.until(`CSR ${name} to hold a certificate`, async () => {
    csr = (await this.kube().request({ method: 'GET', path: `${CSRS}/${name}` })).json;
    return Boolean(csr?.status?.certificate);
  }, seconds * 1000).catch((error: Error) => assert.fail(`${error.message}; status: ${JSON.stringify(csr?.status)}`));
  const approved = (csr.status?.conditions ?? []).find((c: any) => c.type === 'Approved');
  assert.equal(approved?.status, 'True', `conditions: ${JSON.stringify(csr.status?.conditions)}`);
  const cert = new X509Certificate(Buffer.from(csr.status.certificate, 'base64'));
  assert.match(cert.subject, new RegExp(`(^|\\n)CN=${cn}(\\n|$)`), cert.subject);
  assert.match(cert.subject, new RegExp(`(^|\\n)O=${group}(\\n|$)`), cert.subject);
  assert.ok(Date.parse(cert.validTo) > this.recall<number>(FIRST_EXPIRY), `the new certificate ends ${cert.validTo}, the first at ${new Date(this.recall<number>(FIRST_EXPIRY)).toISOString()}`);
});

Then('no CertificateSigningRequest from {string} exists', async function (this: KubespecWorld, username: string) {
  const mine = await csrsOf(this, username);
  assert.deepEqual(mine.map((c) => c.metadata.name), [], `CSRs from ${username}`);
});
