@component:apiserver
Feature: API Server — the request pipeline
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）

  The notes draw the pipeline as a chain — Authentication → Authorization → Admission (Mutating →
  Validating) → Schema Validation → etcd Write — and give a table of what each stage does and its
  common implementations. Each stage's job is one rule; the order is its own rule.

  Upstream disagrees with the notes on two points, both recorded as errata: object validation runs
  *before* validating admission, not after it; and built-in types are validated by hand-written Go
  validation (OpenAPI schemas validate custom resources), with field types checked while decoding.

  @erratum
  Rule: PIPE-ORDER — authentication, authorization, mutating admission, object validation, validating admission, then the etcd write
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: A write request passes Authentication → Authorization → Admission (Mutating → Validating)
      → Schema Validation → etcd Write, in that order.
    Quote: "Admission Control（准入控制，Mutating → Validating） → Schema Validation（对象校验） → etcd Write（持久化）"
    Upstream: object validation runs between mutating and validating admission. In
      staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go, Create calls
      rest.BeforeCreate (which runs the type's strategy Validate) before createValidation (the
      validating admission chain); the docs page "Dynamic Admission Control"
      (kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/) says
      validating webhooks run "after the incoming object is validated by the API server".

    @requires:kube.api @requires:kube.authn
    Scenario: a failed authentication ends the request even where authorization would allow anyone
      Given an anonymous request for GET "/version" is answered 200
      When a request with bearer token "not-a-real-token" asks for GET "/version"
      Then the response status is 401

    @requires:kube.api @requires:kube.rbac @requires:kube.admission
    Scenario: a request refused by authorization never reaches admission
      Given a validating webhook "observer" that admits every configmap create and records it
      When "carol" creates ConfigMap "c1"
      Then the response status is 403 with reason "Forbidden"
      And webhook "observer" has recorded no configmap create, though it records the client's create of ConfigMap "control"

    @requires:kube.api @requires:kube.admission
    Scenario: an invalid object is refused by validation before any validating webhook is called
      Given a validating webhook "observer" that admits every configmap create and records it
      And a mutating webhook "labeller" that adds label "seen=yes" to every configmap create and records it
      When the client creates ConfigMap "Bad_Name"
      Then the response status is 422 with reason "Invalid"
      And webhook "labeller" has recorded exactly 1 configmap create
      And webhook "observer" has recorded no configmap create, though it records the client's create of ConfigMap "control"

    @requires:kube.api @requires:kube.admission @requires:kube.storage
    Scenario: an object refused by a validating webhook is never written to the store
      Given a validating webhook "deny-all" that refuses every configmap create with message "no"
      When the client creates ConfigMap "c1"
      Then the response is refused with a message containing 'admission webhook "deny-all.kubespec.test" denied the request: no'
      And the store holds no key "/registry/configmaps/{ns}/c1"

    @requires:kube.api @requires:kube.audit
    Scenario: the request trace shows a create passing every stage in upstream's order
      Given the request trace is recording
      When the client creates ConfigMap "c1"
      And the client creates ConfigMap "Bad_Name"
      Then the first POST to "/api/v1/namespaces/{ns}/configmaps" in the request trace passed the stages "authentication, authorization, mutating-admission, schema-validation, validating-admission, storage"
      And the second POST to "/api/v1/namespaces/{ns}/configmaps" in the request trace was refused at "schema-validation" after passing "authentication, authorization, mutating-admission"

  Rule: PIPE-AUTHN-IDENTITY — authentication establishes who the caller is
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: The Authentication stage establishes "who you are"; a request whose credentials are not
      accepted by any authenticator is refused with 401.
    Quote: "Authentication | 确认“你是谁”"

    A SelfSubjectReview (`kubectl auth whoami`) would show the identity directly; the reference does
    not serve it yet, so the scenarios read the identity from what authorization says about it.

    @requires:kube.api @requires:kube.authn @requires:kube.rbac
    Scenario: the identity established by authentication is the one authorization judges
      Given a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to group "dev"
      When a request with a client certificate for user "alice" in group "dev" lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When a request with a client certificate for user "alice" in group "dev" lists pods in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "alice", verb "list" and resource "pods"

    @requires:kube.api @requires:kube.authn @requires:kube.authn.anonymous
    Scenario: a request without credentials is judged as system:anonymous
      When a request with no credentials lists pods in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "system:anonymous", verb "list" and resource "pods"

    @requires:kube.api @requires:kube.authn
    Scenario: a bearer token nobody issued is answered 401
      When a request with bearer token "not-a-real-token" lists pods in the scenario's namespace
      Then the response status is 401 with reason "Unauthorized"

    # With anonymous authentication off (kube-apiserver `--anonymous-auth=false`), a request that
    # carries no credentials has no identity at all, and is refused before authorization is asked.

    @requires:kube.api @requires:kube.authn @requires:kube.authn.anonymous-off
    Scenario: with anonymous authentication off, a request without credentials is answered 401
      When a request with no credentials lists pods in the scenario's namespace
      Then the response status is 401 with reason "Unauthorized"
      When a request with no credentials asks for GET "/version"
      Then the response status is 401 with reason "Unauthorized"

    @requires:kube.api @requires:kube.authn @requires:kube.authn.anonymous @requires:kube.rbac
    Scenario: a client certificate that the cluster's CA did not sign is answered 401, not treated as anonymous
      Given a ClusterRole "reader-{ns}" allowing "list" on "pods"
      And a ClusterRoleBinding binding ClusterRole "reader-{ns}" to group "system:unauthenticated"
      When a request with no credentials lists pods in the scenario's namespace
      Then the response status is 200
      When a request with a self-signed client certificate for user "mallory" in group "system:masters" lists pods in the scenario's namespace
      Then the response status is 401 with reason "Unauthorized"

  Rule: PIPE-AUTHN-X509 — a client certificate authenticates its Common Name as the user and its Organizations as groups
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: X.509 client certificates are one of the common authenticators.
    Quote: "X.509 Client Cert、ServiceAccount Token、OIDC、Webhook Token"

    @requires:kube.api @requires:kube.authn @requires:kube.rbac
    Scenario: CN becomes the user name and O becomes a group
      Given a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to group "ops"
      When a request with a client certificate for user "bob" in group "ops" lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When a request with a client certificate for user "bob" in group "ops" deletes ConfigMap "any" in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "bob", verb "delete" and resource "configmaps"

  Rule: PIPE-AUTHN-SA-TOKEN — a service account token authenticates as system:serviceaccount:<namespace>:<name>
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: ServiceAccount tokens are one of the common authenticators.
    Quote: "ServiceAccount Token"

    A SelfSubjectReview would show the identity directly; the reference does not serve it yet, so the
    scenarios read the identity from what authorization says about it, as PIPE-AUTHN-IDENTITY does.

    @requires:kube.api @requires:kube.authn @requires:kube.rbac
    Scenario: a token requested for a service account authenticates as that account
      Given service account "robot" in the scenario's namespace
      And a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to service account "robot"
      When a token valid for 600 seconds is requested for service account "robot" through its token subresource
      And a request with that token lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When a request with that token lists pods in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "system:serviceaccount:{ns}:robot", verb "list" and resource "pods"

    @requires:kube.api @requires:kube.authn @requires:kube.rbac @requires:clock.virtual
    Scenario: an expired service account token is answered 401, not treated as anonymous
      Given service account "robot" in the scenario's namespace
      And a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to service account "robot"
      When a token valid for 600 seconds is requested for service account "robot" through its token subresource
      And a request with that token lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When 12 minutes of virtual time pass
      And a request with that token lists ConfigMaps in the scenario's namespace
      Then the response status is 401 with reason "Unauthorized"

    @requires:kube.api @requires:kube.authn @requires:kube.rbac
    Scenario: a service account token carries the groups system:serviceaccounts and system:serviceaccounts:<namespace>
      Given service account "robot" in the scenario's namespace
      And a Role "config-reader" in the scenario's namespace allowing "list" on "configmaps"
      And a Role "pod-reader" in the scenario's namespace allowing "list" on "pods"
      And a RoleBinding binding Role "config-reader" to group "system:serviceaccounts"
      And a RoleBinding binding Role "pod-reader" to group "system:serviceaccounts:{ns}"
      When a token valid for 600 seconds is requested for service account "robot" through its token subresource
      And a request with that token lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When a request with that token lists pods in the scenario's namespace
      Then the response status is 200

  Rule: PIPE-AUTHN-EXTERNAL — webhook token authentication: the API server asks a TokenReview service who a bearer token is, and trusts its answer
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: OIDC and Webhook Token authentication are common implementations of the Authentication stage.
      With webhook token authentication (--authentication-token-webhook-config-file) the API server POSTs
      a TokenReview (authentication.k8s.io/v1, spec.token) to the service and takes status.user — username
      and groups — as the caller when status.authenticated is true; a token the service does not
      authenticate, and no other authenticator knows, is 401 (staging/src/k8s.io/apiserver/plugin/pkg/authenticator/token/webhook/webhook.go).
      The service is hosted by the suite, as the admission webhooks are. OIDC, the other one named,
      is PIPE-AUTHN-OIDC.
    Quote: "OIDC、Webhook Token"

    @requires:kube.api @requires:kube.rbac @requires:kube.authn @requires:kube.authn.webhook
    Scenario: a token the TokenReview service vouches for acts as the user and groups it names
      Given a TokenReview service "idp" that authenticates token "tok-erin" as user "erin" in group "idp-users"
      And a Role "reader" in the scenario's namespace allowing "list" on "pods"
      And a RoleBinding binding Role "reader" to group "idp-users"
      When a request with bearer token "tok-erin" lists pods in the scenario's namespace
      Then the response status is 200
      And TokenReview service "idp" was asked about token "tok-erin"

    @requires:kube.api @requires:kube.rbac @requires:kube.authn @requires:kube.authn.webhook
    Scenario: the user the service names is the one authorization sees
      Given a TokenReview service "idp" that authenticates token "tok-erin" as user "erin" in group "idp-users"
      When a request with bearer token "tok-erin" lists pods in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "erin", verb "list" and resource "pods"

    @requires:kube.api @requires:kube.authn @requires:kube.authn.webhook
    Scenario: a token the service does not authenticate is 401
      Given a TokenReview service "idp" that authenticates token "tok-erin" as user "erin" in group "idp-users"
      When a request with bearer token "tok-mallory" lists pods in the scenario's namespace
      Then the response status is 401
      And TokenReview service "idp" was asked about token "tok-mallory"

  Rule: PIPE-AUTHN-OIDC — OIDC token authentication: an ID token the configured issuer signed, for the configured client and not expired, acts as the user and groups its claims name
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: OIDC is one of the common implementations of the Authentication stage. With
      --oidc-issuer-url and --oidc-client-id the API server fetches the issuer's discovery document
      ({issuer}/.well-known/openid-configuration) and the key set it names, and accepts a bearer token
      that is a JWT with that `iss`, signed by one of those keys, whose `aud` holds the client ID and
      whose `exp` has not passed; anything else from that issuer is 401. The username is the
      --oidc-username-claim claim (default `sub`); with no --oidc-username-prefix, a claim other than
      `email` is prefixed with `<issuer URL>#` ("-" means no prefix); the groups are the
      --oidc-groups-claim claim (staging/src/k8s.io/apiserver/plugin/pkg/authenticator/token/oidc/oidc.go,
      pkg/kubeapiserver/options/authentication.go). The issuer is hosted by the suite, as the
      admission webhooks are.
    Quote: "OIDC、Webhook Token"

    @requires:kube.api @requires:kube.rbac @requires:kube.authn @requires:kube.authn.oidc
    Scenario: a valid ID token acts as <issuer URL>#<subject> with the groups the token names
      Given an OIDC issuer "idp" that the API server trusts with the flags:
        | --oidc-client-id    | kubernetes |
        | --oidc-groups-claim | groups     |
      And a Role "reader" in the scenario's namespace allowing "list" on "pods"
      And a RoleBinding binding Role "reader" to group "idp-users"
      When issuer "idp" signs an ID token for audience "kubernetes" with subject "erin" and group "idp-users", expiring in 10 minutes
      And a request with that ID token lists pods in the scenario's namespace
      Then the response status is 200
      And a SelfSubjectReview made with that ID token names user "<issuer URL>#erin" in group "idp-users"

    @requires:kube.api @requires:kube.authn @requires:kube.authn.oidc
    Scenario Outline: the username claim and prefix flags name the user (claim "<claim>", prefix "<prefix>")
      Given an OIDC issuer "idp" that the API server trusts with the flags:
        | --oidc-client-id       | kubernetes |
        | --oidc-username-claim  | <claim>    |
        | --oidc-username-prefix | <prefix>   |
        | --oidc-groups-claim    | groups     |
        | --oidc-groups-prefix   | <gprefix>  |
      When issuer "idp" signs an ID token for audience "kubernetes" with subject "erin" and group "idp-users", expiring in 10 minutes
      Then a SelfSubjectReview made with that ID token names user "<user>" in group "<group>"

      Examples:
        | claim | prefix | gprefix | user             | group          |
        | email |        |         | erin@example.com | idp-users      |
        | sub   | oidc:  | oidc:   | oidc:erin        | oidc:idp-users |
        | sub   | -      |         | erin             | idp-users      |

    @requires:kube.api @requires:kube.authn @requires:kube.authn.oidc
    Scenario Outline: an ID token <what> is 401
      Given an OIDC issuer "idp" that the API server trusts with the flags:
        | --oidc-client-id    | kubernetes |
        | --oidc-groups-claim | groups     |
      When <signer> signs an ID token for audience "<audience>" with subject "erin" and group "idp-users", expiring in <minutes> minutes
      And a request with that ID token lists pods in the scenario's namespace
      Then the response status is 401 with reason "Unauthorized"

      Examples:
        | what                                              | signer                               | audience       | minutes |
        | signed by a key the issuer never published        | a key issuer "idp" never published   | kubernetes     | 10      |
        | that expired ten minutes ago                      | issuer "idp"                         | kubernetes     | -10     |
        | issued to another client                          | issuer "idp"                         | another-client | 10      |

  Rule: PIPE-AUTHZ — authorization decides what an authenticated caller may do; a refusal is 403
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: The Authorization stage establishes "what you can do"; RBAC is the mainstream authorizer
      (ABAC and Webhook exist too). An authenticated caller without permission is refused with 403.
    Quote: "Authorization | 确认“你能做什么” | RBAC（主流）、ABAC、Webhook"

    @requires:kube.api @requires:kube.rbac
    Scenario: an authenticated user with no grants is answered 403, not 401
      When "carol" lists pods in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "carol", verb "list" and resource "pods"

    @requires:kube.api @requires:kube.rbac
    Scenario: the authorizer's answer can be asked for without making the request
      Given a Role "reader" in the scenario's namespace allowing "get,list" on "pods"
      And a RoleBinding binding Role "reader" to user "carol"
      When a SubjectAccessReview asks whether "carol" may "delete" "pods" in the scenario's namespace
      Then the review's status.allowed is false
      And a SubjectAccessReview asking whether "carol" may "list" "pods" in the scenario's namespace has status.allowed true

  Rule: PIPE-MUTATING — mutating admission may change the object, e.g. inject a sidecar or set defaults
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: Mutating admission modifies objects (sidecar injection, default values); it is typically
      implemented with a MutatingWebhookConfiguration.
    Quote: "Mutating Admission | 修改对象（注入 sidecar、设置默认值） | MutatingWebhookConfiguration"

    @requires:kube.api @requires:kube.admission
    Scenario: a mutating webhook's patch is what gets stored
      Given a mutating webhook "sidecar" that adds a container named "proxy" to every pod create
      When Pod "web" is created with one container named "app"
      Then the response status is 201
      And Pod "web" as read back has containers "app" and "proxy" in that order

    @requires:kube.api
    Scenario: the built-in DefaultTolerationSeconds plugin sets default tolerations on every new pod
      When Pod "web" is created with no tolerations
      Then Pod "web" as read back tolerates "node.kubernetes.io/not-ready" with effect "NoExecute" for 300 s
      And Pod "web" as read back tolerates "node.kubernetes.io/unreachable" with effect "NoExecute" for 300 s

  Rule: PIPE-MUTATING-BEFORE-VALIDATING — validating admission sees the object after every mutation
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: Within admission, the mutating phase runs before the validating phase.
    Quote: "Admission Control（准入控制，Mutating → Validating）"

    @requires:kube.api @requires:kube.admission
    Scenario: a validating webhook sees the label a mutating webhook added
      Given a mutating webhook "labeller" that adds label "seen=yes" to every configmap create and records it
      And a validating webhook "observer" that admits every configmap create and records it
      When ConfigMap "c1" is created
      Then the configmap recorded by webhook "observer" has label "seen=yes"

  Rule: PIPE-VALIDATING — validating admission refuses objects that break policy, e.g. resource quotas
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: Validating admission rejects illegal objects (resource quota, policy checks), implemented e.g.
      by ValidatingAdmissionPolicy or OPA/Gatekeeper. It may refuse but never modify.
    Quote: "Validating Admission | 拒绝非法对象（资源限额、策略校验） | ValidatingAdmissionPolicy、OPA/Gatekeeper"

    The ResourceQuota admission plugin runs last in the validating phase (after the webhooks) and
    refuses a create that would take an object count past a quota of the namespace, with
    "exceeded quota: <quota>, requested: …, used: …, limited: …" (plugin/pkg/admission/resourcequota).
    A pod also counts against the compute resources a quota names (requests.cpu, limits.memory, …):
    the namespace's running pods plus the new one must stay within it (pkg/quota/v1/evaluator/core/pods.go).

    @requires:kube.api @requires:kube.admission.quota
    Scenario: a ResourceQuota refuses the object that would exceed it
      Given a ResourceQuota "q" in the scenario's namespace that leaves room for 2 more ConfigMaps
      And ConfigMaps "a" and "b" are created while the quota allows them
      When the client creates ConfigMap "c"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "exceeded quota: q, requested: configmaps=1"
      And ConfigMap "c" does not exist

    @requires:kube.api @requires:kube.admission.quota
    Scenario: a ResourceQuota on requests.cpu refuses the pod whose requests would take the namespace past it
      Given a ResourceQuota "compute" in the scenario's namespace with hard "requests.cpu=1"
      And Pod "a" requesting 600m CPU is created while the quota allows it
      When Pod "b" is created requesting 500m CPU
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1"

    # pending: needs ValidatingAdmissionPolicy (CEL) steps and a target that evaluates CEL; the reference has no CEL evaluator.
    @pending @requires:kube.api
    Scenario: a ValidatingAdmissionPolicy written in CEL refuses a non-conforming object
      Given a ValidatingAdmissionPolicy "max-replicas" bound to the scenario's namespace with expression "object.spec.replicas <= 5"
      When Deployment "big" is created with 6 replicas
      Then the response is refused with a message containing "max-replicas"
      And Deployment "big" does not exist

  @erratum
  Rule: PIPE-SCHEMA-VALIDATION — malformed field types are refused 400 while decoding; missing or invalid fields are refused 422 Invalid
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: Schema Validation checks field types and required fields against the built-in OpenAPI schema.
    Quote: "Schema Validation | 校验字段类型与必填项 | 内置 OpenAPI Schema"
    Upstream: built-in types are not validated against OpenAPI: field types are checked when the body is
      decoded (400 BadRequest), and required/semantic checks are hand-written per type
      (pkg/apis/core/validation/validation.go, pkg/apis/apps/validation/validation.go) and answered
      422 Invalid with one cause per field. OpenAPI v3 schemas validate custom resources
      (staging/src/k8s.io/apiextensions-apiserver) and drive kubectl/fieldValidation checks of unknown fields.

    @requires:kube.api
    Scenario: a pod without containers is refused 422 Invalid, naming the field
      When Pod "empty" is created with no containers
      Then the response status is 422 with reason "Invalid"
      And the response details list a cause for field "spec.containers" of type "FieldValueRequired"

    @requires:kube.api
    Scenario: a string where an integer belongs is refused 400 before validation
      When Deployment "typo" is created with body field "spec.replicas" set to the string "three"
      Then the response status is 400 with reason "BadRequest"

    # core.MaxSecretSize (pkg/apis/core/types.go) bounds what a ConfigMap or Secret may hold: 1 MiB.
    @requires:kube.api
    Scenario: a ConfigMap holding more than 1 MiB of data is refused 422 Invalid; one of exactly 1 MiB is stored
      When the client creates ConfigMap "too-big" holding 1048577 bytes of data
      Then the response status is 422 with reason "Invalid"
      And the response message contains "Too long"
      And the response message contains "1048576 bytes"
      When the client creates ConfigMap "just-fits" holding 1048576 bytes of data
      Then the response status is 201

    # fieldValidation (KEP-2885, server-side field validation): duplicate keys are strict decoding errors.
    @requires:kube.api
    Scenario: a body naming a field twice is refused 400 under fieldValidation=Strict, warned about under Warn
      When the client creates ConfigMap "dup" from a body that gives data key "v" twice, with fieldValidation "Strict"
      Then the response status is 400 with reason "BadRequest"
      And the response message contains 'duplicate field "data.v"'
      When the client creates ConfigMap "dup" from a body that gives data key "v" twice, with fieldValidation "Warn"
      Then the response status is 201
      And the response carries a Warning containing 'duplicate field "data.v"'
      When the client creates ConfigMap "dup2" from a body that gives data key "v" twice, with fieldValidation "Ignore"
      Then the response status is 201
      And the response carries no Warning

  Rule: PIPE-PERSIST-LAST — only a request that passed every stage is written to etcd
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: The etcd write (persistence) is the last stage; a request refused at any earlier stage leaves the store untouched.
    Quote: "→ etcd Write（持久化）"

    @requires:kube.api @requires:kube.rbac @requires:kube.storage
    Scenario: a request refused by authorization writes nothing
      When "carol" creates ConfigMap "c1"
      Then the response status is 403 with reason "Forbidden"
      And the store holds no key "/registry/configmaps/{ns}/c1"

    @requires:kube.api @requires:kube.storage
    Scenario: an accepted create is in the store when the response arrives
      When the client creates ConfigMap "c1"
      Then the response status is 201
      And the store holds key "/registry/configmaps/{ns}/c1"
