/**
 * `kubespec/contract`: what an outside target implements — the Target, Session and facet types,
 * the capability vocabulary, the errors a facet raises (CompactedError, StoreUnavailableError)
 * and CONTRACT_VERSION. It depends on nothing else in the project.
 *
 * For now the definitions live in adapters/ and this module re-exports them; the physical move
 * (reference/ then importing contract/ instead of adapters/) waits until the component branches
 * that also edit adapters/contract.ts have landed. The public path is this one either way.
 */
export * from '../adapters/contract.ts';
export * from '../adapters/capabilities.ts';
