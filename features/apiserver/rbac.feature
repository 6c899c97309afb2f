@component:apiserver
Feature: API Server — RBAC's three core concepts
  Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念

  The notes' info box names three RBAC concepts: roles (a set of verb + resource permissions, namespaced
  or cluster-wide), bindings (attach a role to a User, Group or ServiceAccount), and aggregated
  ClusterRoles (merge roles selected by label, so permissions grow without editing the original role).
  Each subject kind is its own rule, because each is matched differently.

  Rule: RBAC-ROLE — a Role grants exactly the listed verbs on the listed resources in its namespace
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: A Role defines a set of permissions, each a verb plus a resource; anything not listed is denied.
    Quote: "Role / ClusterRole：定义一组权限（动词 + 资源）。"

    @requires:kube.api @requires:kube.rbac
    Scenario: a read-only role allows list but not delete
      Given a Role "reader" in the scenario's namespace allowing "get,list" on "pods"
      And a RoleBinding binding Role "reader" to user "dave"
      When "dave" lists pods in the scenario's namespace
      Then the response status is 200
      When "dave" deletes Pod "anything" in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

    @requires:kube.api @requires:kube.rbac
    Scenario: a Role grants nothing outside its namespace
      Given Namespace "other-{ns}" exists
      And a Role "reader" in the scenario's namespace allowing "get,list" on "pods"
      And a RoleBinding binding Role "reader" to user "dave"
      When "dave" lists pods in Namespace "other-{ns}"
      Then the response status is 403 with reason "Forbidden"

    @requires:kube.api @requires:kube.rbac
    Scenario: a Role on pods grants none of the pods' subresources
      Given a Role "pod-admin" in the scenario's namespace allowing "get,list,create,update" on "pods"
      And a RoleBinding binding Role "pod-admin" to user "dave"
      When "dave" sends GET to the "log" subresource of Pod "web"
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "dave", verb "get" and resource "pods/log"
      When "dave" sends POST to the "exec" subresource of Pod "web"
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "dave", verb "create" and resource "pods/exec"
      When "dave" sends PUT to the "status" subresource of Pod "web"
      Then the response status is 403 with reason "Forbidden"
      And the response message names user "dave", verb "update" and resource "pods/status"

    @requires:kube.api @requires:kube.rbac
    Scenario: a rule naming a subresource grants that subresource and not the pod itself
      Given a Role "log-reader" in the scenario's namespace allowing "get" on "pods/log"
      And a RoleBinding binding Role "log-reader" to user "dave"
      When "dave" sends GET to the "log" subresource of Pod "web"
      Then the response status is 404 with reason "NotFound"
      When "dave" sends GET to Pod "web"
      Then the response status is 403 with reason "Forbidden"

  Rule: RBAC-RULE-MATCH — a rule allows a request only if its verbs, API groups, resources (with subresources) and resource names all match, or for a non-resource path its verbs and URLs
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: A role's permission is a verb plus a resource. Upstream's rule fields say exactly which
      requests that is (kubernetes.io/docs/reference/access-authn-authz/rbac/ "Referring to
      resources"; RuleAllows in plugin/pkg/auth/authorizer/rbac/rbac.go): `*` matches any verb, API
      group or resource; a subresource is named `resource/subresource` and `*/subresource` grants it
      on every resource but no resource itself; resourceNames confine a rule to the named objects (so
      a named rule never allows list); a request for a path outside the API (`/healthz`) is matched
      only by nonResourceURLs, exactly or by a trailing `*` prefix, and a resource rule never grants it.
    Quote: "Role / ClusterRole：定义一组权限（动词 + 资源）。"

    @requires:kube.api @requires:kube.rbac
    Scenario: wildcards, subresources and resource names decide which resource requests a rule allows
      Given a ClusterRole "matcher-{ns}" with the rules:
        | verbs | apiGroups | resources   | resourceNames |
        | get   | ""        | configmaps  | app-config    |
        | *     | apps      | deployments | -             |
        | list  | *         | widgets     | -             |
        | get   | ""        | */status    | -             |
      And a ClusterRoleBinding binding ClusterRole "matcher-{ns}" to user "ivy"
      Then SubjectAccessReviews for "ivy" answer:
        | verb   | group       | resource    | subresource | name       | allowed |
        | get    | ""          | configmaps  | -           | app-config | true    |
        | get    | ""          | configmaps  | -           | other      | false   |
        | list   | ""          | configmaps  | -           | -          | false   |
        | watch  | ""          | configmaps  | -           | app-config | false   |
        | delete | apps        | deployments | -           | web        | true    |
        | create | apps        | deployments | -           | -          | true    |
        | patch  | apps        | deployments | scale       | web        | false   |
        | get    | ""          | deployments | -           | web        | false   |
        | list   | example.com | widgets     | -           | -          | true    |
        | list   | other.io    | widgets     | -           | -          | true    |
        | list   | example.com | gadgets     | -           | -          | false   |
        | get    | ""          | pods        | status      | web        | true    |
        | get    | ""          | services    | status      | web        | true    |
        | get    | ""          | pods        | -           | web        | false   |
        | get    | ""          | pods        | log         | web        | false   |
        | get    | apps        | deployments | status      | web        | false   |
        | get    | batch       | jobs        | status      | web        | false   |

    @requires:kube.api @requires:kube.rbac
    Scenario: a non-resource path is allowed only by a matching nonResourceURL and verb
      Given a ClusterRole "paths-{ns}" with the rules:
        | verbs | apiGroups | resources | nonResourceURLs   |
        | get   | -         | -         | /healthz,/logs/*  |
        | get   | *         | *         | -                 |
      And a ClusterRoleBinding binding ClusterRole "paths-{ns}" to user "ivy"
      Then SubjectAccessReviews for "ivy" answer:
        | verb | path              | allowed |
        | get  | /healthz          | true    |
        | post | /healthz          | false   |
        | get  | /healthz/ping     | false   |
        | get  | /logs/kube.log    | true    |
        | get  | /logs/a/b         | true    |
        | get  | /logs             | false   |
        | get  | /version          | false   |

  Rule: RBAC-CLUSTERROLE — a ClusterRole bound by a ClusterRoleBinding grants its permissions in every namespace
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: ClusterRole is the cluster-scoped form of Role; ClusterRoleBinding binds it cluster-wide.
    Quote: "RoleBinding / ClusterRoleBinding：将 Role 绑定到 Subject"

    @requires:kube.api @requires:kube.rbac
    Scenario: a cluster-wide binding reaches every namespace and cluster-scoped resources
      Given Namespace "other-{ns}" exists
      And a ClusterRole "node-and-pod-reader-{ns}" allowing "list" on "pods,nodes"
      And a ClusterRoleBinding binding ClusterRole "node-and-pod-reader-{ns}" to user "erin"
      When "erin" lists pods in Namespace "other-{ns}"
      Then the response status is 200
      When "erin" lists nodes
      Then the response status is 200

    @requires:kube.api @requires:kube.rbac
    Scenario: a ClusterRole bound by a RoleBinding is confined to that binding's namespace
      Given Namespace "other-{ns}" exists
      And a ClusterRole "pod-reader-{ns}" allowing "list" on "pods"
      And a RoleBinding in the scenario's namespace binding ClusterRole "pod-reader-{ns}" to user "erin"
      When "erin" lists pods in the scenario's namespace
      Then the response status is 200
      When "erin" lists pods in Namespace "other-{ns}"
      Then the response status is 403 with reason "Forbidden"

    @requires:kube.api @requires:kube.rbac
    Scenario: a ClusterRole bound by a RoleBinding grants nothing on cluster-scoped resources
      Given a ClusterRole "node-lister-{ns}" allowing "list" on "pods,nodes"
      And a RoleBinding in the scenario's namespace binding ClusterRole "node-lister-{ns}" to user "erin"
      When "erin" lists pods in the scenario's namespace
      Then the response status is 200
      When "erin" lists nodes
      Then the response status is 403 with reason "Forbidden"

  Rule: RBAC-SUBJECT-USER — a binding whose subject is a User applies to requests authenticated as that user name
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: A binding attaches a role to a Subject of kind User.
    Quote: "将 Role 绑定到 Subject（User、Group、ServiceAccount）"

    @requires:kube.api @requires:kube.rbac
    Scenario: only the named user gains the permission
      Given a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to user "frank"
      When "frank" lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When "frankie" lists ConfigMaps in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

  Rule: RBAC-SUBJECT-GROUP — a binding whose subject is a Group applies to every user in that group
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: A binding attaches a role to a Subject of kind Group.
    Quote: "将 Role 绑定到 Subject（User、Group、ServiceAccount）"

    @requires:kube.api @requires:kube.rbac
    Scenario: membership in the group is what grants access
      Given a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to group "auditors"
      When "gina" in group "auditors" lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When "gina" in group "developers" lists ConfigMaps in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

  Rule: RBAC-SUBJECT-SERVICEACCOUNT — a binding whose subject is a ServiceAccount applies to that account only
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: A binding attaches a role to a Subject of kind ServiceAccount (namespace + name).
    Quote: "将 Role 绑定到 Subject（User、Group、ServiceAccount）"

    @requires:kube.api @requires:kube.rbac
    Scenario: the bound account may act; another account in the same namespace may not
      Given service accounts "builder" and "other" in the scenario's namespace
      And a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to service account "builder"
      When "system:serviceaccount:{ns}:builder" lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When "system:serviceaccount:{ns}:other" lists ConfigMaps in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

    @requires:kube.api @requires:kube.rbac
    Scenario: a ServiceAccount subject without a namespace means the account of the binding's namespace
      Given Namespace "other-{ns}" exists
      And a Role "reader" in the scenario's namespace allowing "list" on "configmaps"
      And a RoleBinding binding Role "reader" to service account "builder" named without a namespace
      When "system:serviceaccount:{ns}:builder" lists ConfigMaps in the scenario's namespace
      Then the response status is 200
      When "system:serviceaccount:other-{ns}:builder" lists ConfigMaps in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

  Rule: RBAC-NO-ESCALATION — nobody can grant, by writing a role or a binding, a permission she does not already hold unless she may escalate or bind
    Source: 000_1662d8c5cea2447f.txt § 常见陷阱与最佳实践 / 陷阱 (RBAC 权限配置不当) and § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: Least privilege must hold: over-broad ClusterRole bindings are a security risk. It only
      holds if the right to write roles and bindings is not a way to get every other right, so a
      user may create or update a Role/ClusterRole only with rules she already holds (in the
      request's namespace), and a RoleBinding/ClusterRoleBinding only to a role whose rules she
      already holds where the binding applies — unless she is granted `escalate` on the role
      resource or `bind` on the referenced role. Upstream's RBAC privilege-escalation prevention
      (kubernetes.io/docs/reference/access-authn-authz/rbac/ "Privilege escalation prevention and
      bootstrapping"; pkg/registry/rbac/*/policybased/storage.go, ConfirmNoEscalation in
      pkg/registry/rbac/validation/rule.go) answers 403 Forbidden naming the missing rules.
    Quote: "过于宽松的 ClusterRole 绑定带来安全风险 … 遵循最小权限原则"

    @requires:kube.api @requires:kube.rbac
    Scenario: the right to create ClusterRoles does not let her create one granting everything
      Given a ClusterRole "role-maker-{ns}" allowing "create" on "rbac.authorization.k8s.io/clusterroles"
      And a ClusterRoleBinding binding ClusterRole "role-maker-{ns}" to user "mallory"
      When "mallory" creates a ClusterRole "everything-{ns}" allowing "*" on "*/*"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains 'user "mallory"'
      And the response message contains "is attempting to grant RBAC permissions not currently held"
      And ClusterRole "everything-{ns}" does not exist

    @requires:kube.api @requires:kube.rbac
    Scenario: the right to create ClusterRoleBindings does not let her bind herself to cluster-admin
      Given a ClusterRole "binder-{ns}" allowing "create" on "rbac.authorization.k8s.io/clusterrolebindings"
      And a ClusterRoleBinding binding ClusterRole "binder-{ns}" to user "mallory"
      When "mallory" creates a ClusterRoleBinding "mallory-admin-{ns}" binding ClusterRole "cluster-admin" to user "mallory"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "is attempting to grant RBAC permissions not currently held"
      When "mallory" lists secrets in the scenario's namespace
      Then the response status is 403 with reason "Forbidden"

    @requires:kube.api @requires:kube.rbac
    Scenario: escalate on ClusterRoles lets her create one beyond her own rights
      Given a ClusterRole "escalator-{ns}" allowing "create,escalate" on "rbac.authorization.k8s.io/clusterroles"
      And a ClusterRoleBinding binding ClusterRole "escalator-{ns}" to user "mallory"
      When "mallory" creates a ClusterRole "everything-{ns}" allowing "*" on "*/*"
      Then the response status is 201

    @requires:kube.api @requires:kube.rbac
    Scenario: bind on cluster-admin lets her bind it
      Given a ClusterRole "binder-{ns}" allowing "create" on "rbac.authorization.k8s.io/clusterrolebindings"
      And a ClusterRole "admin-binder-{ns}" allowing "bind" on "rbac.authorization.k8s.io/clusterroles" named "cluster-admin"
      And a ClusterRoleBinding binding ClusterRole "binder-{ns}" to user "mallory"
      And a ClusterRoleBinding binding ClusterRole "admin-binder-{ns}" to user "mallory"
      When "mallory" creates a ClusterRoleBinding "nick-admin-{ns}" binding ClusterRole "cluster-admin" to user "nick"
      Then the response status is 201

    @requires:kube.api @requires:kube.rbac
    Scenario: a role and a binding within the rights she holds are allowed
      Given a Role "role-writer" in the scenario's namespace allowing "create" on "rbac.authorization.k8s.io/roles,rbac.authorization.k8s.io/rolebindings"
      And a Role "pod-reader" in the scenario's namespace allowing "get,list" on "pods"
      And a RoleBinding binding Role "role-writer" to user "mallory"
      And a RoleBinding binding Role "pod-reader" to user "mallory"
      When "mallory" creates a Role "pod-getter" in the scenario's namespace allowing "get" on "pods"
      Then the response status is 201
      When "mallory" creates a RoleBinding "nick-gets" in the scenario's namespace binding Role "pod-getter" to user "nick"
      Then the response status is 201
      When "mallory" creates a Role "pod-deleter" in the scenario's namespace allowing "get,delete" on "pods"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "is attempting to grant RBAC permissions not currently held"

    @requires:kube.api @requires:kube.rbac
    Scenario: a RoleBinding to a ClusterRole needs its rights only in the binding's namespace
      Given Namespace "other-{ns}" exists
      And a ClusterRole "rolebinding-maker-{ns}" allowing "create" on "rbac.authorization.k8s.io/rolebindings"
      And a ClusterRoleBinding binding ClusterRole "rolebinding-maker-{ns}" to user "mallory"
      And a ClusterRole "pod-reader-{ns}" allowing "get,list" on "pods"
      And a RoleBinding in the scenario's namespace binding ClusterRole "pod-reader-{ns}" to user "mallory"
      When "mallory" creates a RoleBinding "nick-reads" in the scenario's namespace binding ClusterRole "pod-reader-{ns}" to user "nick"
      Then the response status is 201
      When "mallory" creates a RoleBinding "nick-reads" in Namespace "other-{ns}" binding ClusterRole "pod-reader-{ns}" to user "nick"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "is attempting to grant RBAC permissions not currently held"

    @requires:kube.api @requires:kube.rbac
    Scenario: an update that widens a role beyond her rights is refused
      Given a Role "role-editor" in the scenario's namespace allowing "get,update" on "rbac.authorization.k8s.io/roles"
      And a Role "pod-getter" in the scenario's namespace allowing "get" on "pods"
      And a RoleBinding binding Role "role-editor" to user "mallory"
      And a RoleBinding binding Role "pod-getter" to user "mallory"
      When "mallory" updates Role "pod-getter" to allow "get,delete" on "pods"
      Then the response status is 403 with reason "Forbidden"
      And the response message contains "is attempting to grant RBAC permissions not currently held"
      When "mallory" updates Role "pod-getter" to allow "get" on "pods"
      Then the response status is 200

  Rule: RBAC-AGGREGATION — an aggregated ClusterRole gains the rules of every ClusterRole its label selector matches
    Source: 000_1662d8c5cea2447f.txt § 控制平面 / API Server / 请求处理链（Request Pipeline）/ RBAC 的三个核心概念
    Claim: An aggregated ClusterRole merges several ClusterRoles through a label selector, so permissions
      can be extended without modifying the original role.
    Quote: "聚合 ClusterRole：通过 Label Selector 合并多个 ClusterRole，扩展权限时无需修改原角色。"

    @requires:kube.api @requires:kube.rbac @requires:controllers.clusterrole-aggregation
    Scenario: labelling a new ClusterRole extends the aggregate without editing it
      Given a cluster with the controllers running
      And a ClusterRole "monitoring-{ns}" with an aggregationRule selecting label "rbac.example.com/aggregate-to-monitoring-{ns}=true"
      And a ClusterRoleBinding binding ClusterRole "monitoring-{ns}" to user "hank"
      When a ClusterRole "endpoints-reader-{ns}" allowing "list" on "endpoints" is created with label "rbac.example.com/aggregate-to-monitoring-{ns}=true"
      Then within 10 s ClusterRole "monitoring-{ns}" lists a rule allowing "list" on "endpoints"
      And "hank" listing endpoints in the scenario's namespace is answered 200
      And ClusterRole "endpoints-reader-{ns}" is unchanged

    @requires:kube.api @requires:kube.rbac @requires:controllers.clusterrole-aggregation
    Scenario: rules written by hand into an aggregated ClusterRole are overwritten
      Given a cluster with the controllers running
      And a ClusterRole "monitoring-{ns}" with an aggregationRule selecting label "rbac.example.com/aggregate-to-monitoring-{ns}=true"
      When ClusterRole "monitoring-{ns}" is updated to list a rule allowing "delete" on "pods"
      Then within 10 s ClusterRole "monitoring-{ns}" lists no rule allowing "delete" on "pods"

    @requires:kube.api @requires:kube.rbac @requires:controllers.clusterrole-aggregation
    Scenario: a role labelled aggregate-to-view extends view, and through it edit and admin; removing it takes the rule away again
      Given a cluster with the controllers running
      Then ClusterRole "edit" holds every rule of ClusterRole "view", and ClusterRole "admin" every rule of ClusterRole "edit"
      When a ClusterRole "widgets-reader-{ns}" allowing "list" on "example.com/widgets" is created with label "rbac.authorization.k8s.io/aggregate-to-view=true"
      Then within 10 s ClusterRoles "view", "edit" and "admin" each list a rule allowing "list" on "example.com/widgets"
      When ClusterRole "widgets-reader-{ns}" is deleted
      Then within 10 s ClusterRoles "view", "edit" and "admin" each list no rule allowing "list" on "example.com/widgets"
