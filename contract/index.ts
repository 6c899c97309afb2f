/**
 * `kubespec/contract`: what an outside target implements — the Target, Session and facet types,
 * the capability vocabulary, the errors a facet raises (CompactedError, StoreUnavailableError),
 * the CRI v1 types a runtime facet speaks, and CONTRACT_VERSION. The reference, the built-in
 * adapters and outside targets all import it; it imports nothing else in the project.
 */
export * from './contract.ts';
export * from './capabilities.ts';
export * as cri from './cri.ts';
