/** The authentication stage's public surface (see each module for the upstream behaviour it follows). */
export { x509Authenticator, X509_AUTHENTICATOR_NAME } from './x509.ts';
export { tokenFileAuthenticator, parseTokenFile, TokenFileError, TOKEN_FILE_AUTHENTICATOR_NAME } from './tokenfile.ts';
export {
  serviceAccountTokens,
  SERVICE_ACCOUNT_AUTHENTICATOR_NAME,
  DEFAULT_TOKEN_EXPIRATION_SECONDS,
  type ServiceAccountTokenOptions,
  type ServiceAccountTokens,
  type MintRequest,
  type MintedToken,
  type ObjectWithMeta,
} from './serviceaccount.ts';
export { anonymousAuthenticator, ANONYMOUS_AUTHENTICATOR_NAME } from './anonymous.ts';
export { unionAuthenticator, withAuthenticatedGroup, unauthorizedStatus, type UnionOptions } from './union.ts';
export { bearerToken, INVALID_BEARER_TOKEN } from './bearer.ts';
export type { SigningKey } from './jwt.ts';
export * from './users.ts';
