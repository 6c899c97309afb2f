/**
 * A small PKI built with the openssl CLI (node:crypto cannot issue X.509 certificates): a CA,
 * a serving certificate with SANs, and client certificates whose subject carries the identity
 * the API server reads (CN = user, O = groups; see authn/x509.ts). Keys are EC P-256, which
 * Node, Go's crypto/tls (kubectl) and OpenSSL all accept, and which is quick to generate.
 * Each call works in a fresh temporary directory and removes it.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const KEY_ARGS = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const DEFAULT_DAYS = 365;

export interface CertAndKey {
  certPem: string;
  keyPem: string;
}

export interface ServerCertOptions {
  commonName?: string;
  dnsNames?: string[];
  ipAddresses?: string[];
  days?: number;
}

export interface ClientCertOptions {
  commonName: string;
  organizations?: string[];
  days?: number;
  /** Explicit dates instead of `days` from now: for a server on a clock other than the wall clock. */
  validity?: Validity;
}

export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

export async function createCa(opts: { commonName?: string; days?: number } = {}): Promise<CertAndKey> {
  return inTempDir(async (dir) => {
    await openssl(dir, [
      'req', '-x509', '-new', ...KEY_ARGS, '-keyout', 'ca.key', '-out', 'ca.crt',
      '-subj', subject({ commonName: opts.commonName ?? 'kubespec-ca' }),
      '-days', String(opts.days ?? DEFAULT_DAYS * 10),
      '-addext', 'basicConstraints=critical,CA:TRUE',
      '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
    ]);
    return { certPem: await readFile(join(dir, 'ca.crt'), 'utf8'), keyPem: await readFile(join(dir, 'ca.key'), 'utf8') };
  });
}

/** A serving certificate; by default for localhost and 127.0.0.1 plus the in-cluster names. */
export async function issueServerCert(ca: CertAndKey, opts: ServerCertOptions = {}): Promise<CertAndKey> {
  const dns = opts.dnsNames ?? ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
  const ips = opts.ipAddresses ?? ['127.0.0.1'];
  const san = [...dns.map((d) => `DNS:${d}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
  const ext = ['basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', 'extendedKeyUsage=serverAuth', `subjectAltName=${san}`];
  return issue(ca, subject({ commonName: opts.commonName ?? 'kube-apiserver' }), ext, opts.days);
}

/** A client certificate: CN is the user name, each O a group. */
export async function issueClientCert(ca: CertAndKey, opts: ClientCertOptions): Promise<CertAndKey> {
  const ext = ['basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', 'extendedKeyUsage=clientAuth'];
  if (opts.validity) {
    const { keyPem, csrPem } = await newKeyAndCsr(opts);
    return { certPem: await signCsr(ca, csrPem, opts.validity), keyPem };
  }
  return issue(ca, subject(opts), ext, opts.days);
}

/** A fresh EC P-256 key and a PKCS#10 request for this subject (what a kubelet sends in a CSR). */
export async function newKeyAndCsr(opts: { commonName: string; organizations?: string[] }): Promise<{ keyPem: string; csrPem: string }> {
  return inTempDir(async (dir) => {
    await openssl(dir, ['req', '-new', ...KEY_ARGS, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', subject(opts)]);
    return { keyPem: await readFile(join(dir, 'leaf.key'), 'utf8'), csrPem: await readFile(join(dir, 'leaf.csr'), 'utf8') };
  });
}

/**
 * Sign a PKCS#10 request as a client certificate valid over exactly these dates (`openssl ca`,
 * which, unlike `x509 -req`, takes a start date): what a CSR signer does with the cluster CA.
 * The subject is the request's; the extensions are the signer's, never the request's.
 */
export async function signCsr(ca: CertAndKey, csrPem: string, validity: Validity): Promise<string> {
  return inTempDir(async (dir) => {
    await writeFile(join(dir, 'ca.crt'), ca.certPem);
    await writeFile(join(dir, 'ca.key'), ca.keyPem, { mode: 0o600 });
    await writeFile(join(dir, 'leaf.csr'), csrPem);
    await writeFile(join(dir, 'index.txt'), '');
    await writeFile(join(dir, 'serial.txt'), `${randomBytes(16).toString('hex').replace(/^./, '1')}\n`);
    await writeFile(join(dir, 'ext.cnf'), ['basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=clientAuth'].join('\n') + '\n');
    await writeFile(join(dir, 'ca.cnf'), [
      '[ca]', 'default_ca = signer', '[signer]', 'database = index.txt', 'new_certs_dir = .', 'serial = serial.txt',
      'default_md = sha256', 'policy = any', 'unique_subject = no', 'copy_extensions = none', '[any]', 'organizationName = optional', 'commonName = supplied',
    ].join('\n') + '\n');
    await openssl(dir, [
      'ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.crt', '-keyfile', 'ca.key', '-in', 'leaf.csr', '-out', 'leaf.crt',
      '-startdate', asn1Time(validity.notBefore), '-enddate', asn1Time(validity.notAfter), '-extfile', 'ext.cnf', '-notext', '-preserveDN',
    ]);
    return readFile(join(dir, 'leaf.crt'), 'utf8');
  });
}

/** GeneralizedTime as `openssl ca -startdate` takes it: YYYYMMDDHHMMSSZ. */
function asn1Time(at: Date): string {
  return at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:T]/g, '');
}

async function issue(ca: CertAndKey, subj: string, extensions: string[], days = DEFAULT_DAYS): Promise<CertAndKey> {
  return inTempDir(async (dir) => {
    await writeFile(join(dir, 'ca.crt'), ca.certPem);
    await writeFile(join(dir, 'ca.key'), ca.keyPem, { mode: 0o600 });
    await writeFile(join(dir, 'ext.cnf'), extensions.join('\n') + '\n');
    await openssl(dir, ['req', '-new', ...KEY_ARGS, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', subj]);
    await openssl(dir, [
      'x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', 'leaf.crt', '-days', String(days), '-sha256', '-extfile', 'ext.cnf',
    ]);
    return { certPem: await readFile(join(dir, 'leaf.crt'), 'utf8'), keyPem: await readFile(join(dir, 'leaf.key'), 'utf8') };
  });
}

/** An openssl -subj string: `/O=a/O=b/CN=name`, with '/' and '\' escaped inside values. */
export function subject(opts: { commonName: string; organizations?: string[] }): string {
  const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\//g, '\\/');
  return [...(opts.organizations ?? []).map((o) => `/O=${esc(o)}`), `/CN=${esc(opts.commonName)}`].join('');
}

async function openssl(cwd: string, args: string[]): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`openssl ${args[0]} failed: ${err.stderr?.trim() || err.message}`);
  }
}

async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'kubespec-pki-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
