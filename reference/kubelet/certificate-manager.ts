/**
 * The kubelet's client-certificate rotation (rotateCertificates: true), after client-go's
 * certificate manager (staging/src/k8s.io/client-go/util/certificate/certificate_manager.go):
 * - The rotation deadline is notBefore + a jittered 70–90 % of the certificate's lifetime
 *   (nextRotationDeadline; jitteryDuration = wait.Jitter(total, 0.2) - 0.3 × total), so nodes
 *   that joined together do not all renew at once.
 * - At the deadline it makes a new key, sends a CertificateSigningRequest for
 *   CN=system:node:<node>, O=system:nodes with signerName
 *   kubernetes.io/kube-apiserver-client-kubelet and usages "digital signature", "client auth"
 *   (pkg/kubelet/certificate/kubelet.go NewKubeletClientCertificateManager; an EC key needs no
 *   "key encipherment"), and waits for the signer's status.certificate.
 * - It waits up to 15 minutes for that certificate (certificate_manager.go: certificateWaitTimeout);
 *   a CSR that is denied or failed, or a wait that runs out, is retried with a fresh request after
 *   a back-off doubling from 2 s to at most 32 s (rotateCerts' backoff).
 * - Once issued, the new pair is used for every new connection (the kubelet closes the old
 *   ones), and the next deadline is computed from the new certificate.
 *
 * Pure: the clock, the randomness, the API, the key generation and the switch of credentials are
 * injected (wiring: reference/wiring/kubelets.ts).
 */
import { X509Certificate } from 'node:crypto';
import type { Scheduler } from '../wiring/virtual-clock.ts';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
const WAIT_FOR_CERTIFICATE_MS = 15 * 60_000;
const POLL_MS = 5_000;
const BACKOFF_START_MS = 2_000;
const BACKOFF_MAX_MS = 32_000;

export interface KeyPair {
  certPem: string;
  keyPem: string;
}

export interface CertificateManagerOptions {
  nodeName: string;
  clock: Scheduler;
  /** Uniform in [0, 1): the jitter of the rotation deadline. */
  random: () => number;
  initial: KeyPair;
  api: {
    createCsr(csr: unknown): Promise<{ status: number; body?: any }>;
    getCsr(name: string): Promise<{ status: number; body?: any }>;
  };
  /** A fresh private key and a PKCS#10 request for the subject (PEM). */
  newKeyAndCsr(subject: { commonName: string; organizations: string[] }): Promise<{ keyPem: string; csrPem: string }>;
  /** Use this pair from now on. */
  use(pair: KeyPair): void;
  log?: (line: string) => void;
}

/** client-go's nextRotationDeadline: notBefore + (0.7 + 0.2 × jitter) × lifetime. */
export function nextRotationDeadline_ms(notBefore_ms: number, notAfter_ms: number, jitter: number): number {
  const total_ms = notAfter_ms - notBefore_ms;
  return notBefore_ms + Math.round(total_ms * (0.7 + 0.2 * jitter));
}

export function certificateDates(certPem: string): { notBefore_ms: number; notAfter_ms: number } {
  const cert = new X509Certificate(certPem);
  return { notBefore_ms: Date.parse(cert.validFrom), notAfter_ms: Date.parse(cert.validTo) };
}

export class CertificateManager {
  private current: KeyPair;
  private cancel: (() => void) | undefined;
  /**
   * The key and request for the next rotation, made ahead of time: when the key is generated is
   * not observable, and the host's key generation (a subprocess) then never runs while virtual
   * time is being advanced towards the deadline.
   */
  private prepared: Promise<{ keyPem: string; csrPem: string }> | undefined;
  private stopped = false;
  /** When the current certificate is due for rotation (for status and tests). */
  deadline_ms = 0;

  constructor(private readonly opts: CertificateManagerOptions) {
    this.current = opts.initial;
  }

  get pair(): KeyPair {
    return this.current;
  }

  start(): void {
    this.prepare();
    this.schedule();
  }

  private prepare(): void {
    const user = `system:node:${this.opts.nodeName}`;
    this.prepared = this.opts.newKeyAndCsr({ commonName: user, organizations: ['system:nodes'] });
    this.prepared.catch(() => undefined);
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
  }

  private schedule(): void {
    const { notBefore_ms, notAfter_ms } = certificateDates(this.current.certPem);
    this.deadline_ms = nextRotationDeadline_ms(notBefore_ms, notAfter_ms, this.opts.random());
    this.after(this.deadline_ms - this.opts.clock.now_ms(), () => void this.rotate(BACKOFF_START_MS));
  }

  private after(delay_ms: number, fn: () => void): void {
    if (this.stopped) return;
    this.cancel = this.opts.clock.after(Math.max(0, delay_ms), fn);
  }

  private async rotate(backoff_ms: number): Promise<void> {
    if (this.stopped) return;
    const issued = await this.requestCertificate().catch((error: Error) => {
      this.opts.log?.(`certificate rotation for node ${this.opts.nodeName} failed: ${error.message}`);
      return undefined;
    });
    if (this.stopped) return;
    if (!issued) {
      this.after(backoff_ms, () => void this.rotate(Math.min(backoff_ms * 2, BACKOFF_MAX_MS)));
      return;
    }
    this.current = issued;
    this.opts.use(issued);
    this.schedule();
  }

  private async requestCertificate(): Promise<KeyPair> {
    const next = this.prepared;
    // A fresh key for every request, retries included: a used one is never sent twice.
    this.prepare();
    const { keyPem, csrPem } = await next!;
    const created = await this.opts.api.createCsr({
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest',
      metadata: { generateName: 'csr-' },
      spec: { request: Buffer.from(csrPem).toString('base64'), signerName: KUBELET_CLIENT_SIGNER, usages: ['digital signature', 'client auth'] },
    });
    if (created.status !== 201) throw new Error(`creating the CertificateSigningRequest answered ${created.status}: ${created.body?.message ?? ''}`);
    const name = String(created.body.metadata.name);
    const certPem = await this.waitForCertificate(name, this.opts.clock.now_ms() + WAIT_FOR_CERTIFICATE_MS);
    return { certPem, keyPem };
  }

  private async waitForCertificate(name: string, giveUpAt_ms: number): Promise<string> {
    for (;;) {
      const res = await this.opts.api.getCsr(name);
      if (res.status === 200) {
        const conditions: any[] = res.body?.status?.conditions ?? [];
        const refused = conditions.find((c) => (c.type === 'Denied' || c.type === 'Failed') && c.status !== 'False');
        if (refused) throw new Error(`CertificateSigningRequest ${name} is ${refused.type}: ${refused.message ?? ''}`);
        const cert = res.body?.status?.certificate;
        if (typeof cert === 'string' && cert !== '') return Buffer.from(cert, 'base64').toString('utf8');
      }
      if (this.stopped || this.opts.clock.now_ms() >= giveUpAt_ms) throw new Error(`timed out waiting for CertificateSigningRequest ${name} to be signed`);
      await new Promise<void>((done) => this.after(POLL_MS, done));
    }
  }
}
