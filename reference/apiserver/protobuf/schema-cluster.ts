/**
 * Protobuf messages for the rest of the built-in kinds the reference serves: the ones the
 * kubelet and the controllers exchange (Node, Lease, Event, EndpointSlice, Endpoints, Binding,
 * Eviction, TokenRequest, Scale, SubjectAccessReview, PodDisruptionBudget, PriorityClass), the
 * other core/v1 kinds (ReplicationController, ResourceQuota, LimitRange, PersistentVolume) and
 * the remaining groups (autoscaling/v2, networking, storage, certificates, admissionregistration,
 * authentication/authorization reviews), plus events.k8s.io/v1 Event (not served yet; its message
 * is here so that group can be served as protobuf from the start).
 *
 * Written in the compact form of ./schema-workloads.ts (one message a line, no comments) from the
 * field tags of upstream's API types. Field numbers and types are the wire contract, so they are
 * upstream's, taken from kubernetes/api at 10b39a39b:
 *   core/v1/generated.proto                  (Node, Event, Endpoints, Binding, ReplicationController,
 *                                             ResourceQuota, LimitRange, PersistentVolume)
 *   coordination/v1/generated.proto          (Lease)
 *   discovery/v1/generated.proto             (EndpointSlice)
 *   events/v1/generated.proto                (Event)
 *   policy/v1/generated.proto                (PodDisruptionBudget, Eviction)
 *   scheduling/v1/generated.proto            (PriorityClass)
 *   authentication/v1/generated.proto        (TokenRequest, TokenReview, SelfSubjectReview)
 *   authorization/v1/generated.proto         (SubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview)
 *   autoscaling/v1/generated.proto           (Scale)
 *   autoscaling/v2/generated.proto           (HorizontalPodAutoscaler)
 *   networking/v1/generated.proto            (Ingress, NetworkPolicy)
 *   storage/v1/generated.proto               (StorageClass)
 *   certificates/v1/generated.proto          (CertificateSigningRequest)
 *   admissionregistration/v1/generated.proto (Mutating/ValidatingWebhookConfiguration)
 * and kubernetes/apimachinery pkg/apis/meta/v1/generated.proto (DeleteOptions, in ./schema.ts).
 *
 * Field names are the JSON names (the `json:` tag in each group's types.go). Where upstream's
 * proto name differs they are renamed here: BoundObjectReference.uid (proto `uID`)
 * and *WebhookConfiguration.webhooks (`Webhooks`); DaemonEndpoint's `Port` is `Port` in JSON too. The Go-embedded fields
 * (PersistentVolumeSpec.persistentVolumeSource, IngressRule.ingressRuleValue,
 * RuleWithOperations.rule) are in ./codec.ts INLINE_FIELDS, and the messages that are a
 * []string in Go and JSON (ExtraValue, AttestationValue: `+protobuf.nullable=true`) in its
 * STRING_LISTS. Left out: APIService (kube-aggregator) and CustomResourceDefinition
 * (apiextensions-apiserver), whose protos live in other repositories.
 */

export const CORE_V1_CLUSTER_PROTO = `
syntax = "proto2";
package k8s.io.api.core.v1;
message Node { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional NodeSpec spec = 2; optional NodeStatus status = 3; }
message NodeSpec { optional string podCIDR = 1; repeated string podCIDRs = 7; optional string providerID = 3; optional bool unschedulable = 4; repeated Taint taints = 5; optional NodeConfigSource configSource = 6; optional string externalID = 2; optional NodePodPreemptionPolicy podPreemptionPolicy = 8; }
message Taint { optional string key = 1; optional string value = 2; optional string effect = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time timeAdded = 4; }
message NodeConfigSource { optional ConfigMapNodeConfigSource configMap = 2; }
message ConfigMapNodeConfigSource { optional string namespace = 1; optional string name = 2; optional string uid = 3; optional string resourceVersion = 4; optional string kubeletConfigKey = 5; }
message NodePodPreemptionPolicy { repeated string disableResizePreemption = 1; }
message NodeStatus { map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> capacity = 1; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> allocatable = 2; optional string phase = 3; repeated NodeCondition conditions = 4; repeated NodeAddress addresses = 5; optional NodeDaemonEndpoints daemonEndpoints = 6; optional NodeSystemInfo nodeInfo = 7; repeated ContainerImage images = 8; repeated string volumesInUse = 9; repeated AttachedVolume volumesAttached = 10; optional NodeConfigStatus config = 11; repeated NodeRuntimeHandler runtimeHandlers = 12; optional NodeFeatures features = 13; repeated string declaredFeatures = 14; }
message NodeCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastHeartbeatTime = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4; optional string reason = 5; optional string message = 6; }
message NodeAddress { optional string type = 1; optional string address = 2; }
message NodeDaemonEndpoints { optional DaemonEndpoint kubeletEndpoint = 1; }
message DaemonEndpoint { optional int32 Port = 1; }
message NodeSystemInfo { optional string machineID = 1; optional string systemUUID = 2; optional string bootID = 3; optional string kernelVersion = 4; optional string osImage = 5; optional string containerRuntimeVersion = 6; optional string kubeletVersion = 7; optional string kubeProxyVersion = 8; optional string operatingSystem = 9; optional string architecture = 10; optional NodeSwapStatus swap = 11; }
message NodeSwapStatus { optional int64 capacity = 1; }
message ContainerImage { repeated string names = 1; optional int64 sizeBytes = 2; }
message AttachedVolume { optional string name = 1; optional string devicePath = 2; }
message NodeConfigStatus { optional NodeConfigSource assigned = 1; optional NodeConfigSource active = 2; optional NodeConfigSource lastKnownGood = 3; optional string error = 4; }
message NodeRuntimeHandler { optional string name = 1; optional NodeRuntimeHandlerFeatures features = 2; }
message NodeRuntimeHandlerFeatures { optional bool recursiveReadOnlyMounts = 1; optional bool userNamespaces = 2; }
message NodeFeatures { optional bool supplementalGroupsPolicy = 1; }
message NodeList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Node items = 2; }
message Event { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ObjectReference involvedObject = 2; optional string reason = 3; optional string message = 4; optional EventSource source = 5; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time firstTimestamp = 6; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTimestamp = 7; optional int32 count = 8; optional string type = 9; optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime eventTime = 10; optional EventSeries series = 11; optional string action = 12; optional ObjectReference related = 13; optional string reportingComponent = 14; optional string reportingInstance = 15; }
message EventSource { optional string component = 1; optional string host = 2; }
message EventSeries { optional int32 count = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime lastObservedTime = 2; }
message EventList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Event items = 2; }
message Endpoints { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; repeated EndpointSubset subsets = 2; }
message EndpointSubset { repeated EndpointAddress addresses = 1; repeated EndpointAddress notReadyAddresses = 2; repeated EndpointPort ports = 3; }
message EndpointAddress { optional string ip = 1; optional string hostname = 3; optional string nodeName = 4; optional ObjectReference targetRef = 2; }
message EndpointPort { optional string name = 1; optional int32 port = 2; optional string protocol = 3; optional string appProtocol = 4; }
message EndpointsList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Endpoints items = 2; }
message Binding { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ObjectReference target = 2; }
message ReplicationController { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ReplicationControllerSpec spec = 2; optional ReplicationControllerStatus status = 3; }
message ReplicationControllerSpec { optional int32 replicas = 1; optional int32 minReadySeconds = 4; map<string, string> selector = 2; optional PodTemplateSpec template = 3; }
message ReplicationControllerStatus { optional int32 replicas = 1; optional int32 fullyLabeledReplicas = 2; optional int32 readyReplicas = 4; optional int32 availableReplicas = 5; optional int64 observedGeneration = 3; repeated ReplicationControllerCondition conditions = 6; }
message ReplicationControllerCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3; optional string reason = 4; optional string message = 5; }
message ReplicationControllerList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ReplicationController items = 2; }
message ResourceQuota { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ResourceQuotaSpec spec = 2; optional ResourceQuotaStatus status = 3; }
message ResourceQuotaSpec { map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> hard = 1; repeated string scopes = 2; optional ScopeSelector scopeSelector = 3; }
message ScopeSelector { repeated ScopedResourceSelectorRequirement matchExpressions = 1; }
message ScopedResourceSelectorRequirement { optional string scopeName = 1; optional string operator = 2; repeated string values = 3; }
message ResourceQuotaStatus { map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> hard = 1; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> used = 2; }
message ResourceQuotaList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ResourceQuota items = 2; }
message LimitRange { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional LimitRangeSpec spec = 2; }
message LimitRangeSpec { repeated LimitRangeItem limits = 1; }
message LimitRangeItem { optional string type = 1; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> max = 2; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> min = 3; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> default = 4; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> defaultRequest = 5; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> maxLimitRequestRatio = 6; }
message LimitRangeList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated LimitRange items = 2; }
message PersistentVolume { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional PersistentVolumeSpec spec = 2; optional PersistentVolumeStatus status = 3; }
message PersistentVolumeSpec { map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> capacity = 1; optional PersistentVolumeSource persistentVolumeSource = 2; repeated string accessModes = 3; optional ObjectReference claimRef = 4; optional string persistentVolumeReclaimPolicy = 5; optional string storageClassName = 6; repeated string mountOptions = 7; optional string volumeMode = 8; optional VolumeNodeAffinity nodeAffinity = 9; optional string volumeAttributesClassName = 10; }
message PersistentVolumeSource { optional GCEPersistentDiskVolumeSource gcePersistentDisk = 1; optional AWSElasticBlockStoreVolumeSource awsElasticBlockStore = 2; optional HostPathVolumeSource hostPath = 3; optional GlusterfsPersistentVolumeSource glusterfs = 4; optional NFSVolumeSource nfs = 5; optional RBDPersistentVolumeSource rbd = 6; optional ISCSIPersistentVolumeSource iscsi = 7; optional CinderPersistentVolumeSource cinder = 8; optional CephFSPersistentVolumeSource cephfs = 9; optional FCVolumeSource fc = 10; optional FlockerVolumeSource flocker = 11; optional FlexPersistentVolumeSource flexVolume = 12; optional AzureFilePersistentVolumeSource azureFile = 13; optional VsphereVirtualDiskVolumeSource vsphereVolume = 14; optional QuobyteVolumeSource quobyte = 15; optional AzureDiskVolumeSource azureDisk = 16; optional PhotonPersistentDiskVolumeSource photonPersistentDisk = 17; optional PortworxVolumeSource portworxVolume = 18; optional ScaleIOPersistentVolumeSource scaleIO = 19; optional LocalVolumeSource local = 20; optional StorageOSPersistentVolumeSource storageos = 21; optional CSIPersistentVolumeSource csi = 22; }
message GlusterfsPersistentVolumeSource { optional string endpoints = 1; optional string path = 2; optional bool readOnly = 3; optional string endpointsNamespace = 4; }
message RBDPersistentVolumeSource { repeated string monitors = 1; optional string image = 2; optional string fsType = 3; optional string pool = 4; optional string user = 5; optional string keyring = 6; optional SecretReference secretRef = 7; optional bool readOnly = 8; }
message SecretReference { optional string name = 1; optional string namespace = 2; }
message ISCSIPersistentVolumeSource { optional string targetPortal = 1; optional string iqn = 2; optional int32 lun = 3; optional string iscsiInterface = 4; optional string fsType = 5; optional bool readOnly = 6; repeated string portals = 7; optional bool chapAuthDiscovery = 8; optional bool chapAuthSession = 11; optional SecretReference secretRef = 10; optional string initiatorName = 12; }
message CinderPersistentVolumeSource { optional string volumeID = 1; optional string fsType = 2; optional bool readOnly = 3; optional SecretReference secretRef = 4; }
message CephFSPersistentVolumeSource { repeated string monitors = 1; optional string path = 2; optional string user = 3; optional string secretFile = 4; optional SecretReference secretRef = 5; optional bool readOnly = 6; }
message FlexPersistentVolumeSource { optional string driver = 1; optional string fsType = 2; optional SecretReference secretRef = 3; optional bool readOnly = 4; map<string, string> options = 5; }
message AzureFilePersistentVolumeSource { optional string secretName = 1; optional string shareName = 2; optional bool readOnly = 3; optional string secretNamespace = 4; }
message ScaleIOPersistentVolumeSource { optional string gateway = 1; optional string system = 2; optional SecretReference secretRef = 3; optional bool sslEnabled = 4; optional string protectionDomain = 5; optional string storagePool = 6; optional string storageMode = 7; optional string volumeName = 8; optional string fsType = 9; optional bool readOnly = 10; }
message LocalVolumeSource { optional string path = 1; optional string fsType = 2; }
message StorageOSPersistentVolumeSource { optional string volumeName = 1; optional string volumeNamespace = 2; optional string fsType = 3; optional bool readOnly = 4; optional ObjectReference secretRef = 5; }
message CSIPersistentVolumeSource { optional string driver = 1; optional string volumeHandle = 2; optional bool readOnly = 3; optional string fsType = 4; map<string, string> volumeAttributes = 5; optional SecretReference controllerPublishSecretRef = 6; optional SecretReference nodeStageSecretRef = 7; optional SecretReference nodePublishSecretRef = 8; optional SecretReference controllerExpandSecretRef = 9; optional SecretReference nodeExpandSecretRef = 10; }
message VolumeNodeAffinity { optional NodeSelector required = 1; }
message PersistentVolumeStatus { optional string phase = 1; optional string message = 2; optional string reason = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastPhaseTransitionTime = 4; }
message PersistentVolumeList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated PersistentVolume items = 2; }
message TopologySelectorTerm { repeated TopologySelectorLabelRequirement matchLabelExpressions = 1; }
message TopologySelectorLabelRequirement { optional string key = 1; repeated string values = 2; }
`;

export const COORDINATION_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.coordination.v1;
message Lease { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional LeaseSpec spec = 2; }
message LeaseSpec { optional string holderIdentity = 1; optional int32 leaseDurationSeconds = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime acquireTime = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime renewTime = 4; optional int32 leaseTransitions = 5; optional string strategy = 6; optional string preferredHolder = 7; }
message LeaseList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Lease items = 2; }
`;

export const DISCOVERY_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.discovery.v1;
message EndpointSlice { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional string addressType = 4; repeated Endpoint endpoints = 2; repeated EndpointPort ports = 3; }
message Endpoint { repeated string addresses = 1; optional EndpointConditions conditions = 2; optional string hostname = 3; optional k8s.io.api.core.v1.ObjectReference targetRef = 4; map<string, string> deprecatedTopology = 5; optional string nodeName = 6; optional string zone = 7; optional EndpointHints hints = 8; }
message EndpointConditions { optional bool ready = 1; optional bool serving = 2; optional bool terminating = 3; }
message EndpointHints { repeated ForZone forZones = 1; repeated ForNode forNodes = 2; }
message ForZone { optional string name = 1; }
message ForNode { optional string name = 1; }
message EndpointPort { optional string name = 1; optional string protocol = 2; optional int32 port = 3; optional string appProtocol = 4; }
message EndpointSliceList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated EndpointSlice items = 2; }
`;

export const EVENTS_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.events.v1;
message Event { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime eventTime = 2; optional EventSeries series = 3; optional string reportingController = 4; optional string reportingInstance = 5; optional string action = 6; optional string reason = 7; optional k8s.io.api.core.v1.ObjectReference regarding = 8; optional k8s.io.api.core.v1.ObjectReference related = 9; optional string note = 10; optional string type = 11; optional k8s.io.api.core.v1.EventSource deprecatedSource = 12; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time deprecatedFirstTimestamp = 13; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time deprecatedLastTimestamp = 14; optional int32 deprecatedCount = 15; }
message EventSeries { optional int32 count = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime lastObservedTime = 2; }
message EventList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Event items = 2; }
`;

export const POLICY_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.policy.v1;
message PodDisruptionBudget { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional PodDisruptionBudgetSpec spec = 2; optional PodDisruptionBudgetStatus status = 3; }
message PodDisruptionBudgetSpec { optional k8s.io.apimachinery.pkg.util.intstr.IntOrString minAvailable = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString maxUnavailable = 3; optional string unhealthyPodEvictionPolicy = 4; }
message PodDisruptionBudgetStatus { optional int64 observedGeneration = 1; map<string, k8s.io.apimachinery.pkg.apis.meta.v1.Time> disruptedPods = 2; optional int32 disruptionsAllowed = 3; optional int32 currentHealthy = 4; optional int32 desiredHealthy = 5; optional int32 expectedPods = 6; repeated k8s.io.apimachinery.pkg.apis.meta.v1.Condition conditions = 7; }
message PodDisruptionBudgetList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated PodDisruptionBudget items = 2; }
message Eviction { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions deleteOptions = 2; }
`;

export const SCHEDULING_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.scheduling.v1;
message PriorityClass { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional int32 value = 2; optional bool globalDefault = 3; optional string description = 4; optional string preemptionPolicy = 5; }
message PriorityClassList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated PriorityClass items = 2; }
`;

export const AUTHENTICATION_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.authentication.v1;
message TokenRequest { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional TokenRequestSpec spec = 2; optional TokenRequestStatus status = 3; }
message TokenRequestSpec { repeated string audiences = 1; optional int64 expirationSeconds = 4; optional BoundObjectReference boundObjectRef = 3; map<string, AttestationValue> attestations = 5; }
message BoundObjectReference { optional string kind = 1; optional string apiVersion = 2; optional string name = 3; optional string uid = 4; }
message AttestationValue { repeated string items = 1; }
message TokenRequestStatus { optional string token = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time expirationTimestamp = 2; }
message TokenReview { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional TokenReviewSpec spec = 2; optional TokenReviewStatus status = 3; }
message TokenReviewSpec { optional string token = 1; repeated string audiences = 2; }
message TokenReviewStatus { optional bool authenticated = 1; optional UserInfo user = 2; repeated string audiences = 4; optional string error = 3; }
message UserInfo { optional string username = 1; optional string uid = 2; repeated string groups = 3; map<string, ExtraValue> extra = 4; }
message ExtraValue { repeated string items = 1; }
message SelfSubjectReview { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional SelfSubjectReviewStatus status = 2; }
message SelfSubjectReviewStatus { optional UserInfo userInfo = 1; }
`;

export const AUTHORIZATION_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.authorization.v1;
message SubjectAccessReview { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional SubjectAccessReviewSpec spec = 2; optional SubjectAccessReviewStatus status = 3; }
message SubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; optional string user = 3; repeated string groups = 4; map<string, ExtraValue> extra = 5; optional string uid = 6; }
message ResourceAttributes { optional string namespace = 1; optional string verb = 2; optional string group = 3; optional string version = 4; optional string resource = 5; optional string subresource = 6; optional string name = 7; optional FieldSelectorAttributes fieldSelector = 8; optional LabelSelectorAttributes labelSelector = 9; }
message FieldSelectorAttributes { optional string rawSelector = 1; repeated k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement requirements = 2; }
message LabelSelectorAttributes { optional string rawSelector = 1; repeated k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement requirements = 2; }
message NonResourceAttributes { optional string path = 1; optional string verb = 2; }
message ExtraValue { repeated string items = 1; }
message SubjectAccessReviewStatus { optional bool allowed = 1; optional bool denied = 4; optional string reason = 2; optional string evaluationError = 3; }
message SelfSubjectAccessReview { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional SelfSubjectAccessReviewSpec spec = 2; optional SubjectAccessReviewStatus status = 3; }
message SelfSubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; }
message SelfSubjectRulesReview { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional SelfSubjectRulesReviewSpec spec = 2; optional SubjectRulesReviewStatus status = 3; }
message SelfSubjectRulesReviewSpec { optional string namespace = 1; }
message SubjectRulesReviewStatus { repeated ResourceRule resourceRules = 1; repeated NonResourceRule nonResourceRules = 2; optional bool incomplete = 3; optional string evaluationError = 4; }
message ResourceRule { repeated string verbs = 1; repeated string apiGroups = 2; repeated string resources = 3; repeated string resourceNames = 4; }
message NonResourceRule { repeated string verbs = 1; repeated string nonResourceURLs = 2; }
`;

export const AUTOSCALING_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.autoscaling.v1;
message Scale { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ScaleSpec spec = 2; optional ScaleStatus status = 3; }
message ScaleSpec { optional int32 replicas = 1; }
message ScaleStatus { optional int32 replicas = 1; optional string selector = 2; }
`;

export const AUTOSCALING_V2_PROTO = `
syntax = "proto2";
package k8s.io.api.autoscaling.v2;
message HorizontalPodAutoscaler { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional HorizontalPodAutoscalerSpec spec = 2; optional HorizontalPodAutoscalerStatus status = 3; }
message HorizontalPodAutoscalerSpec { optional CrossVersionObjectReference scaleTargetRef = 1; optional int32 minReplicas = 2; optional int32 maxReplicas = 3; repeated MetricSpec metrics = 4; optional HorizontalPodAutoscalerBehavior behavior = 5; }
message CrossVersionObjectReference { optional string kind = 1; optional string name = 2; optional string apiVersion = 3; }
message MetricSpec { optional string type = 1; optional ObjectMetricSource object = 2; optional PodsMetricSource pods = 3; optional ResourceMetricSource resource = 4; optional ContainerResourceMetricSource containerResource = 7; optional ExternalMetricSource external = 5; }
message ObjectMetricSource { optional CrossVersionObjectReference describedObject = 1; optional MetricTarget target = 2; optional MetricIdentifier metric = 3; }
message MetricTarget { optional string type = 1; optional k8s.io.apimachinery.pkg.api.resource.Quantity value = 2; optional k8s.io.apimachinery.pkg.api.resource.Quantity averageValue = 3; optional int32 averageUtilization = 4; }
message MetricIdentifier { optional string name = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2; }
message PodsMetricSource { optional MetricIdentifier metric = 1; optional MetricTarget target = 2; }
message ResourceMetricSource { optional string name = 1; optional MetricTarget target = 2; }
message ContainerResourceMetricSource { optional string name = 1; optional MetricTarget target = 2; optional string container = 3; }
message ExternalMetricSource { optional MetricIdentifier metric = 1; optional MetricTarget target = 2; }
message HorizontalPodAutoscalerBehavior { optional HPAScalingRules scaleUp = 1; optional HPAScalingRules scaleDown = 2; }
message HPAScalingRules { optional int32 stabilizationWindowSeconds = 3; optional string selectPolicy = 1; repeated HPAScalingPolicy policies = 2; optional k8s.io.apimachinery.pkg.api.resource.Quantity tolerance = 4; }
message HPAScalingPolicy { optional string type = 1; optional int32 value = 2; optional int32 periodSeconds = 3; }
message HorizontalPodAutoscalerStatus { optional int64 observedGeneration = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastScaleTime = 2; optional int32 currentReplicas = 3; optional int32 desiredReplicas = 4; repeated MetricStatus currentMetrics = 5; repeated HorizontalPodAutoscalerCondition conditions = 6; }
message MetricStatus { optional string type = 1; optional ObjectMetricStatus object = 2; optional PodsMetricStatus pods = 3; optional ResourceMetricStatus resource = 4; optional ContainerResourceMetricStatus containerResource = 7; optional ExternalMetricStatus external = 5; }
message ObjectMetricStatus { optional MetricIdentifier metric = 1; optional MetricValueStatus current = 2; optional CrossVersionObjectReference describedObject = 3; }
message MetricValueStatus { optional k8s.io.apimachinery.pkg.api.resource.Quantity value = 1; optional k8s.io.apimachinery.pkg.api.resource.Quantity averageValue = 2; optional int32 averageUtilization = 3; }
message PodsMetricStatus { optional MetricIdentifier metric = 1; optional MetricValueStatus current = 2; }
message ResourceMetricStatus { optional string name = 1; optional MetricValueStatus current = 2; }
message ContainerResourceMetricStatus { optional string name = 1; optional MetricValueStatus current = 2; optional string container = 3; }
message ExternalMetricStatus { optional MetricIdentifier metric = 1; optional MetricValueStatus current = 2; }
message HorizontalPodAutoscalerCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3; optional string reason = 4; optional string message = 5; optional int64 observedGeneration = 6; }
message HorizontalPodAutoscalerList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated HorizontalPodAutoscaler items = 2; }
`;

export const NETWORKING_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.networking.v1;
message Ingress { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional IngressSpec spec = 2; optional IngressStatus status = 3; }
message IngressSpec { optional string ingressClassName = 4; optional IngressBackend defaultBackend = 1; repeated IngressTLS tls = 2; repeated IngressRule rules = 3; }
message IngressBackend { optional IngressServiceBackend service = 4; optional k8s.io.api.core.v1.TypedLocalObjectReference resource = 3; }
message IngressServiceBackend { optional string name = 1; optional ServiceBackendPort port = 2; }
message ServiceBackendPort { optional string name = 1; optional int32 number = 2; }
message IngressTLS { repeated string hosts = 1; optional string secretName = 2; }
message IngressRule { optional string host = 1; optional IngressRuleValue ingressRuleValue = 2; }
message IngressRuleValue { optional HTTPIngressRuleValue http = 1; }
message HTTPIngressRuleValue { repeated HTTPIngressPath paths = 1; }
message HTTPIngressPath { optional string path = 1; optional string pathType = 3; optional IngressBackend backend = 2; }
message IngressStatus { optional IngressLoadBalancerStatus loadBalancer = 1; }
message IngressLoadBalancerStatus { repeated IngressLoadBalancerIngress ingress = 1; }
message IngressLoadBalancerIngress { optional string ip = 1; optional string hostname = 2; repeated IngressPortStatus ports = 4; }
message IngressPortStatus { optional int32 port = 1; optional string protocol = 2; optional string error = 3; }
message IngressList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Ingress items = 2; }
message NetworkPolicy { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional NetworkPolicySpec spec = 2; }
message NetworkPolicySpec { optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector podSelector = 1; repeated NetworkPolicyIngressRule ingress = 2; repeated NetworkPolicyEgressRule egress = 3; repeated string policyTypes = 4; }
message NetworkPolicyIngressRule { repeated NetworkPolicyPort ports = 1; repeated NetworkPolicyPeer from = 2; }
message NetworkPolicyPort { optional string protocol = 1; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 2; optional int32 endPort = 3; }
message NetworkPolicyPeer { optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector podSelector = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 2; optional IPBlock ipBlock = 3; }
message IPBlock { optional string cidr = 1; repeated string except = 2; }
message NetworkPolicyEgressRule { repeated NetworkPolicyPort ports = 1; repeated NetworkPolicyPeer to = 2; }
message NetworkPolicyList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated NetworkPolicy items = 2; }
`;

export const STORAGE_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.storage.v1;
message StorageClass { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional string provisioner = 2; map<string, string> parameters = 3; optional string reclaimPolicy = 4; repeated string mountOptions = 5; optional bool allowVolumeExpansion = 6; optional string volumeBindingMode = 7; repeated k8s.io.api.core.v1.TopologySelectorTerm allowedTopologies = 8; }
message StorageClassList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated StorageClass items = 2; }
`;

export const CERTIFICATES_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.certificates.v1;
message CertificateSigningRequest { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional CertificateSigningRequestSpec spec = 2; optional CertificateSigningRequestStatus status = 3; }
message CertificateSigningRequestSpec { optional bytes request = 1; optional string signerName = 7; optional int32 expirationSeconds = 8; repeated string usages = 5; optional string username = 2; optional string uid = 3; repeated string groups = 4; map<string, ExtraValue> extra = 6; }
message ExtraValue { repeated string items = 1; }
message CertificateSigningRequestStatus { repeated CertificateSigningRequestCondition conditions = 1; optional bytes certificate = 2; }
message CertificateSigningRequestCondition { optional string type = 1; optional string status = 6; optional string reason = 2; optional string message = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastUpdateTime = 4; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 5; }
message CertificateSigningRequestList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated CertificateSigningRequest items = 2; }
`;

export const ADMISSIONREGISTRATION_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.admissionregistration.v1;
message MutatingWebhookConfiguration { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; repeated MutatingWebhook webhooks = 2; }
message MutatingWebhook { optional string name = 1; optional WebhookClientConfig clientConfig = 2; repeated RuleWithOperations rules = 3; optional string failurePolicy = 4; optional string matchPolicy = 9; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 5; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector objectSelector = 11; optional string sideEffects = 6; optional int32 timeoutSeconds = 7; repeated string admissionReviewVersions = 8; optional string reinvocationPolicy = 10; repeated MatchCondition matchConditions = 12; }
message WebhookClientConfig { optional string url = 3; optional ServiceReference service = 1; optional bytes caBundle = 2; }
message ServiceReference { optional string namespace = 1; optional string name = 2; optional string path = 3; optional int32 port = 4; }
message RuleWithOperations { repeated string operations = 1; optional Rule rule = 2; }
message Rule { repeated string apiGroups = 1; repeated string apiVersions = 2; repeated string resources = 3; optional string scope = 4; }
message MatchCondition { optional string name = 1; optional string expression = 2; }
message MutatingWebhookConfigurationList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated MutatingWebhookConfiguration items = 2; }
message ValidatingWebhookConfiguration { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; repeated ValidatingWebhook webhooks = 2; }
message ValidatingWebhook { optional string name = 1; optional WebhookClientConfig clientConfig = 2; repeated RuleWithOperations rules = 3; optional string failurePolicy = 4; optional string matchPolicy = 9; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 5; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector objectSelector = 10; optional string sideEffects = 6; optional int32 timeoutSeconds = 7; repeated string admissionReviewVersions = 8; repeated MatchCondition matchConditions = 11; }
message ValidatingWebhookConfigurationList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ValidatingWebhookConfiguration items = 2; }
`;
