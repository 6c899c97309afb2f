@component:apiserver
Feature: API Server — Pod Security admission
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）

  The notes give validating admission the job of refusing objects that break policy ("策略校验").
  The policy every cluster has built in is Pod Security admission (the PodSecurity plugin, on by
  default since Kubernetes 1.25): a namespace's labels `pod-security.kubernetes.io/enforce`,
  `warn` and `audit` (each with an optional `-version`, `latest` or `v1.N`) name one of the Pod
  Security Standards' levels — privileged, baseline, restricted
  (kubernetes.io/docs/concepts/security/pod-security-standards/) — and the checks are
  k8s.io/pod-security-admission's policy/check_*.go. `enforce` refuses a pod with 403 Forbidden,
  `warn` answers with a Warning header, `audit` adds an annotation to the request's audit record.
  Workloads with a pod template (Deployments, Jobs, …) are only warned about and audited. The labels
  themselves are checked: one naming no level is refused, and raising `enforce` warns which pods
  already running the new level would refuse.

  The pods here are created in the scenario's own namespace; those a policy must refuse would be
  privileged, so on a real cluster a wrong implementation's pod never runs anything but pause.

  Rule: PIPE-POD-SECURITY — validating admission refuses pods that break their namespace's Pod Security level, warns and audits
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）
    Claim: Validating admission rejects objects that break policy. Pod Security admission is that
      policy for pods: a pod that violates the namespace's `enforce` level is refused 403 with
      upstream's message (`pods "x" is forbidden: violates PodSecurity "restricted:latest": …`,
      one reason per failed check, with the containers and fields it names); the `warn` level
      lets it in with a `Warning: 299 - "would violate PodSecurity …"` header; the `audit` level
      annotates the request's audit record (`pod-security.kubernetes.io/audit-violations`).
    Quote: "Validating Admission | 拒绝非法对象（资源限额、策略校验）"

    @requires:kube.api @requires:kube.podsecurity
    Scenario: enforce=restricted refuses a privileged pod with a hostPath volume, naming each violation
      Given the scenario's namespace has label "pod-security.kubernetes.io/enforce" set to "restricted"
      When the client creates a privileged Pod "priv" with a hostPath volume "root"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains 'pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)'
      And the response message contains 'restricted volume types (volume "root" uses restricted volume type "hostPath")'
      And Pod "priv" was not created

    @requires:kube.api @requires:kube.podsecurity
    Scenario: baseline admits a plain pod that restricted refuses, and refuses a pod on the host network
      Given the scenario's namespace has label "pod-security.kubernetes.io/enforce" set to "baseline"
      When the client creates a plain Pod "plain"
      Then the response status is 201
      When the client creates a plain Pod "hostnet" on the host network
      Then the response status is 403 with reason "Forbidden"
      And the response message contains 'pods "hostnet" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork)'
      When the scenario's namespace has label "pod-security.kubernetes.io/enforce" set to "restricted"
      And the client creates a plain Pod "plain-2"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains 'violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false'

    @requires:kube.api @requires:kube.podsecurity
    Scenario: warn=restricted lets a pod in with a warning per violation; a pod that meets restricted gets none
      Given the scenario's namespace has label "pod-security.kubernetes.io/enforce" set to "baseline"
      And the scenario's namespace has label "pod-security.kubernetes.io/warn" set to "restricted"
      And the scenario's namespace has label "pod-security.kubernetes.io/warn-version" set to "latest"
      When the client creates a plain Pod "plain"
      Then the response status is 201
      And the response carries the warning 'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'
      When the client creates a Pod "hardened" that meets restricted
      Then the response status is 201
      And the response carries no warning

    @requires:kube.api @requires:kube.podsecurity
    Scenario: a Pod Security label naming no level is refused 422; a stricter enforce label warns which existing pods it would refuse
      Given the client creates a plain Pod "plain"
      And the response status is 201
      When the client sets label "pod-security.kubernetes.io/enforce" on the scenario's namespace to "strictest"
      Then the response status is 422 with reason "Invalid"
      And the response message contains 'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strictest": must be one of privileged, baseline, restricted'
      When the client sets label "pod-security.kubernetes.io/enforce" on the scenario's namespace to "restricted"
      Then the response status is 200
      And the response carries a warning containing 'existing pods in namespace "{ns}" violate the new PodSecurity enforce level "restricted:latest"'
      And the response carries a warning containing 'plain: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile'

    @requires:kube.api @requires:kube.podsecurity
    Scenario: a Deployment whose pod template breaks the enforced level is created with a warning, not refused
      Given the scenario's namespace has label "pod-security.kubernetes.io/enforce" set to "restricted"
      And the scenario's namespace has label "pod-security.kubernetes.io/warn" set to "restricted"
      When the client creates a Deployment "web" whose pod template is privileged
      Then the response status is 201
      And the response carries a warning containing 'would violate PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true)'

    @requires:kube.api @requires:kube.podsecurity @requires:kube.audit
    Scenario: audit=baseline admits a privileged pod and records the violation on the request's audit record
      Given the scenario's namespace has label "pod-security.kubernetes.io/audit" set to "baseline"
      And the request trace is recording
      When the client creates a privileged Pod "priv" with a hostPath volume "root"
      Then the response status is 201
      And the response carries no warning
      And the last POST to "/api/v1/namespaces/{ns}/pods" in the request trace has annotation "pod-security.kubernetes.io/audit-violations" set to 'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true), hostPath volumes (volume "root")'
