/**
 * The protobuf messages the reference serves, written for this project with upstream's field
 * numbers (the only thing on the wire besides the values). Field numbers come from:
 *   kubernetes/apimachinery pkg/runtime/generated.proto            (Unknown, TypeMeta, RawExtension)
 *   kubernetes/apimachinery pkg/apis/meta/v1/generated.proto       (ObjectMeta, ListMeta, Time, Condition, Status, WatchEvent, ...)
 *   kubernetes/api rbac/v1/generated.proto                          (Role, ClusterRole, RoleBinding, ClusterRoleBinding)
 *   kubernetes/api core/v1/generated.proto                          (ConfigMap, Secret, Namespace, ServiceAccount)
 * and, in ./schema-workloads.ts, Pod, Service, Deployment, ReplicaSet and Job; in ./schema-cluster.ts,
 * Node, Lease, Event, EndpointSlice and the other built-in kinds served.
 * Field *names* here are the JSON names (upstream's proto names differ in a few places, e.g.
 * FieldsV1's `Raw`, kept), since names never reach the wire and the JSON form is what the
 * server works with. Only the kinds listed in ./codec.ts KIND_MESSAGES are served as protobuf;
 * other kinds answer JSON (or 406 when the client takes protobuf only), as a CRD's do upstream.
 */

export const RUNTIME_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.runtime;
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message RawExtension { optional bytes raw = 1; }
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}
`;

export const META_V1_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message MicroTime { optional int64 seconds = 1; optional int32 nanos = 2; }
message FieldsV1 { optional bytes Raw = 1; }
message ManagedFieldsEntry {
  optional string manager = 1;
  optional string operation = 2;
  optional string apiVersion = 3;
  optional Time time = 4;
  optional string fieldsType = 6;
  optional FieldsV1 fieldsV1 = 7;
  optional string subresource = 8;
}
message OwnerReference {
  optional string apiVersion = 5;
  optional string kind = 1;
  optional string name = 3;
  optional string uid = 4;
  optional bool controller = 6;
  optional bool blockOwnerDeletion = 7;
}
message ObjectMeta {
  optional string name = 1;
  optional string generateName = 2;
  optional string namespace = 3;
  optional string selfLink = 4;
  optional string uid = 5;
  optional string resourceVersion = 6;
  optional int64 generation = 7;
  optional Time creationTimestamp = 8;
  optional Time deletionTimestamp = 9;
  optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11;
  map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13;
  repeated string finalizers = 14;
  repeated ManagedFieldsEntry managedFields = 17;
}
message ListMeta {
  optional string selfLink = 1;
  optional string resourceVersion = 2;
  optional string continue = 3;
  optional int64 remainingItemCount = 4;
}
message LabelSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message LabelSelector { map<string, string> matchLabels = 1; repeated LabelSelectorRequirement matchExpressions = 2; }
message StatusCause { optional string reason = 1; optional string message = 2; optional string field = 3; }
message StatusDetails {
  optional string name = 1;
  optional string group = 2;
  optional string kind = 3;
  optional string uid = 6;
  repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5;
}
message Status {
  optional ListMeta metadata = 1;
  optional string status = 2;
  optional string message = 3;
  optional string reason = 4;
  optional StatusDetails details = 5;
  optional int32 code = 6;
}
message Condition {
  optional string type = 1;
  optional string status = 2;
  optional int64 observedGeneration = 3;
  optional Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}
message Preconditions { optional string uid = 1; optional string resourceVersion = 2; }
message DeleteOptions {
  optional int64 gracePeriodSeconds = 1;
  optional Preconditions preconditions = 2;
  optional bool orphanDependents = 3;
  optional string propagationPolicy = 4;
  repeated string dryRun = 5;
  optional bool ignoreStoreReadErrorWithClusterBreakingPotential = 6;
}
message FieldSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message WatchEvent { optional string type = 1; optional k8s.io.apimachinery.pkg.runtime.RawExtension object = 2; }
`;

export const RBAC_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.rbac.v1;
message PolicyRule {
  repeated string verbs = 1;
  repeated string apiGroups = 2;
  repeated string resources = 3;
  repeated string resourceNames = 4;
  repeated string nonResourceURLs = 5;
}
message AggregationRule { repeated k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector clusterRoleSelectors = 1; }
message Subject { optional string kind = 1; optional string apiGroup = 2; optional string name = 3; optional string namespace = 4; }
message RoleRef { optional string apiGroup = 1; optional string kind = 2; optional string name = 3; }
message Role { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; repeated PolicyRule rules = 2; }
message ClusterRole {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated PolicyRule rules = 2;
  optional AggregationRule aggregationRule = 3;
}
message RoleBinding { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; repeated Subject subjects = 2; optional RoleRef roleRef = 3; }
message ClusterRoleBinding { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; repeated Subject subjects = 2; optional RoleRef roleRef = 3; }
message RoleList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Role items = 2; }
message ClusterRoleList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ClusterRole items = 2; }
message RoleBindingList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated RoleBinding items = 2; }
message ClusterRoleBindingList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ClusterRoleBinding items = 2; }
`;

export const CORE_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.core.v1;
message ConfigMap {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional bool immutable = 4;
  map<string, string> data = 2;
  map<string, bytes> binaryData = 3;
}
message ConfigMapList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ConfigMap items = 2; }
message Secret {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional bool immutable = 5;
  map<string, bytes> data = 2;
  map<string, string> stringData = 4;
  optional string type = 3;
}
message SecretList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Secret items = 2; }
message NamespaceSpec { repeated string finalizers = 1; }
message NamespaceCondition {
  optional string type = 1;
  optional string status = 2;
  optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4;
  optional string reason = 5;
  optional string message = 6;
}
message NamespaceStatus { optional string phase = 1; repeated NamespaceCondition conditions = 2; }
message Namespace {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional NamespaceSpec spec = 2;
  optional NamespaceStatus status = 3;
}
message NamespaceList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Namespace items = 2; }
message ObjectReference {
  optional string kind = 1;
  optional string namespace = 2;
  optional string name = 3;
  optional string uid = 4;
  optional string apiVersion = 5;
  optional string resourceVersion = 6;
  optional string fieldPath = 7;
}
message LocalObjectReference { optional string name = 1; }
message ServiceAccount {
  optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  repeated ObjectReference secrets = 2;
  repeated LocalObjectReference imagePullSecrets = 3;
  optional bool automountServiceAccountToken = 4;
}
message ServiceAccountList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ServiceAccount items = 2; }
`;
