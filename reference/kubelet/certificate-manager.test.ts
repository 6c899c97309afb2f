import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CertificateManager, KUBELET_CLIENT_SIGNER, nextRotationDeadline_ms, type KeyPair } from './certificate-manager.ts';
import { VirtualClock } from '../wiring/virtual-clock.ts';
import { createCa, issueClientCert, newKeyAndCsr, signCsr } from '../apiserver/pki/host/index.ts';

const MIN = 60_000;

test('the rotation deadline is notBefore plus 70 % to 90 % of the lifetime, by the jitter', () => {
  assert.equal(nextRotationDeadline_ms(1000, 1000 + 100 * MIN, 0), 1000 + 70 * MIN);
  assert.equal(nextRotationDeadline_ms(1000, 1000 + 100 * MIN, 0.5), 1000 + 80 * MIN);
  assert.equal(nextRotationDeadline_ms(1000, 1000 + 100 * MIN, 0.9999995), 1000 + 90 * MIN - 1);
});

test('before its deadline the kubelet asks for nothing; at it, it sends a kubelet client CSR, waits for the certificate and switches to it', async () => {
  const clock = new VirtualClock();
  const t0 = clock.now_ms();
  const ca = await createCa();
  const initial = await issueClientCert(ca, { commonName: 'system:node:n1', organizations: ['system:nodes'], validity: { notBefore: new Date(t0), notAfter: new Date(t0 + 100 * MIN) } });
  const csrs = new Map<string, any>();
  const used: KeyPair[] = [];
  const manager = new CertificateManager({
    nodeName: 'n1', clock, random: () => 0.5, initial,
    api: {
      async createCsr(csr: any) {
        const name = `csr-${csrs.size}`;
        csrs.set(name, { ...csr, metadata: { name } });
        return { status: 201, body: csrs.get(name) };
      },
      async getCsr(name) {
        return { status: 200, body: csrs.get(name) };
      },
    },
    newKeyAndCsr: (subject) => newKeyAndCsr(subject),
    use: (pair) => used.push(pair),
  });
  manager.start();
  assert.equal(manager.deadline_ms, t0 + 80 * MIN);
  await clock.advance(80 * MIN - 1);
  assert.equal(csrs.size, 0, 'no request before the deadline');
  await clock.advance(1);
  for (let i = 0; i < 50 && csrs.size === 0; i++) await new Promise((r) => setTimeout(r, 20));
  const csr = csrs.get('csr-0');
  assert.equal(csr.spec.signerName, KUBELET_CLIENT_SIGNER);
  assert.deepEqual(csr.spec.usages, ['digital signature', 'client auth']);
  assert.match(Buffer.from(csr.spec.request, 'base64').toString(), /BEGIN CERTIFICATE REQUEST/);
  // The signer issues a certificate valid for a year from now.
  const now = clock.now_ms();
  csr.status = { certificate: Buffer.from(await signCsr(ca, Buffer.from(csr.spec.request, 'base64').toString(), { notBefore: new Date(now), notAfter: new Date(now + 365 * 24 * 60 * MIN) })).toString('base64') };
  await clock.advance(5_000);
  for (let i = 0; i < 50 && used.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(used.length, 1, 'the new pair is in use');
  assert.notEqual(used[0]!.certPem, initial.certPem);
  assert.equal(manager.deadline_ms, now + Math.round(365 * 24 * 60 * MIN * 0.8), 'the next deadline is 80 % into the new certificate');
  manager.stop();
});
