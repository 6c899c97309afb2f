/**
 * The request pipeline's stage interfaces, in upstream's order: Authentication → Authorization →
 * Mutating admission → Schema (object) validation → Validating admission → etcd write. The notes
 * (000 § API Server / 请求处理链) put schema validation after validating admission; upstream runs
 * it before (see handlers/admit.ts). Each stage is a small interface so that the
 * server (server core) and the security plugins (authn/, authz/, admission/) meet only here.
 */

/** Who made the request, as authentication established it (k8s.io/apiserver user.Info). */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
}

/** The credentials a request carried, as the HTTP layer saw them. */
export interface Credentials {
  headers: Record<string, string | string[] | undefined>;
  /** The verified TLS client certificate, if the connection presented one the CA signed. */
  clientCert?: {
    subjectCN: string;
    subjectO: string[];
    /** The certificate's validity (notBefore/notAfter), checked against the server's clock by the x509 authenticator. */
    notBefore_ms?: number;
    notAfter_ms?: number;
  };
  /** Why a certificate the client presented did not verify against the client CA (then there is no clientCert). */
  clientCertError?: string;
}

export type AuthnResult =
  | { kind: 'authenticated'; user: UserInfo; method: string }
  /** No credentials this authenticator understands: try the next one. */
  | { kind: 'no-credentials' }
  /** Credentials were present but wrong: the request fails with 401. */
  | { kind: 'rejected'; reason: string };

export interface Authenticator {
  readonly name: string;
  /**
   * A plain result when the answer needs no waiting (no credential of this kind, a static
   * token, a certificate): the union then goes on without a promise per authenticator, which
   * every request used to pay five times over.
   */
  authenticate(creds: Credentials): AuthnResult | Promise<AuthnResult>;
}

/** Whether a value is a promise (the answer of an authenticator or lister that had to wait). */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** k8s.io/apiserver authorizer.Attributes, the part RBAC reads. */
export interface RequestAttributes {
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; for non-resource requests the HTTP verb lower-cased. */
  verb: string;
  resourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** For non-resource requests (e.g. /version, /healthz). */
  path: string;
}

export type Decision = { allowed: true; reason: string } | { allowed: false; reason: string };

export interface Authorizer {
  /** A plain decision when it needs no waiting (RBAC over cached lists, the Node authorizer), as Authenticator. */
  authorize(attrs: RequestAttributes): Decision | Promise<Decision>;
  /**
   * The rules that apply to a user in a namespace (authorizer.RuleResolver), for
   * SelfSubjectRulesReview; an authorizer without it makes that review `incomplete`.
   */
  rulesFor?(user: UserInfo, namespace: string): Promise<RulesFor>;
}

/** authorizer.RuleResolver's answer, in SubjectRulesReviewStatus terms. */
export interface RulesFor {
  resourceRules: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }[];
  nonResourceRules: { verbs: string[]; nonResourceURLs?: string[] }[];
  incomplete: boolean;
  evaluationError?: string;
}

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subresource: string;
  namespace: string;
  name: string;
  user: UserInfo;
  /** The object being written; mutating plugins may change it in place. */
  object: any;
  oldObject?: any;
  dryRun: boolean;
  /** Adds a Warning response header (upstream's warning.AddWarning), e.g. PodSecurity's warn mode. */
  warn?(message: string): void;
  /** Adds an audit annotation to the request's audit record (audit.AddAuditAnnotation). */
  annotate?(key: string, value: string): void;
}

/** A plugin denies by throwing AdmissionDenied; the server answers with its Status. */
export class AdmissionDenied extends Error {
  constructor(
    message: string,
    readonly code = 403,
    readonly reason = 'Forbidden',
    readonly plugin = '',
  ) {
    super(message);
    this.name = 'AdmissionDenied';
  }
}

/**
 * `handles`, when a plugin has it, answers synchronously whether admit/validate could do anything
 * for these attributes; the chain skips the call (and the promise it costs) when it says no, as
 * upstream's chain asks admission.Interface Handles(operation) before Admit/Validate
 * (staging/src/k8s.io/apiserver/pkg/admission/chain.go). Ours may also look at the resource and
 * user; it must be false only where admit/validate would return at once without effect, and they
 * keep their own checks, so calling them directly behaves as before.
 */
export interface MutatingPlugin {
  readonly name: string;
  handles?(attrs: AdmissionAttributes): boolean;
  admit(attrs: AdmissionAttributes): Promise<void>;
}

export interface ValidatingPlugin {
  readonly name: string;
  handles?(attrs: AdmissionAttributes): boolean;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

export type StageName =
  | 'authentication'
  | 'authorization'
  | 'mutating-admission'
  | 'schema-validation'
  | 'validating-admission'
  | 'storage';

/** One stage a request passed or stopped at: the observable trace scenarios read. */
export interface StageRecord {
  stage: StageName;
  outcome: 'passed' | 'rejected';
  /** e.g. the authenticator that matched, the RBAC reason, a plugin name. */
  detail: string;
}

export interface RequestTrace {
  id: number;
  method: string;
  /** The path without the query. */
  path: string;
  /** The query without "?", when there was one: what tells a watch from a list (audit's requestURI). */
  query?: string;
  user?: string;
  /** For a create answered 201, the stored object's name (audit's objectRef.name). */
  objectName?: string;
  code: number;
  stages: StageRecord[];
  /** Audit annotations admission plugins added (e.g. pod-security.kubernetes.io/audit-violations). */
  annotations?: Record<string, string>;
}
