/** The PKI's public surface (all of it does I/O: openssl, files, sockets). */
export { createCa, issueServerCert, issueClientCert, newKeyAndCsr, signCsr, subject, type CertAndKey, type ServerCertOptions, type ClientCertOptions, type Validity } from './openssl.ts';
export { writeKubeconfig } from './kubeconfig.ts';
export { verifiedClientCert } from './peer.ts';
export { renderKubeconfig, type KubeconfigInput } from '../kubeconfig.ts';
