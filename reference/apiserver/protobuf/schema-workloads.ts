/**
 * Protobuf messages for the Pod, the Service and the workload kinds (Deployment, ReplicaSet,
 * DaemonSet, StatefulSet, Job, CronJob; and the PersistentVolumeClaim a StatefulSet templates),
 * written for this project in a compact form (one message a line, no comments) from the field tags
 * of upstream's API types: the field numbers and types are the wire contract, so they are
 * upstream's, taken from
 *   kubernetes/api core/v1/generated.proto   (Pod, PodSpec and everything under it; Service; PersistentVolumeClaim)
 *   kubernetes/api apps/v1/generated.proto   (Deployment, ReplicaSet, DaemonSet, StatefulSet)
 *   kubernetes/api batch/v1/generated.proto  (Job, CronJob)
 *   kubernetes/apimachinery pkg/api/resource/generated.proto (Quantity),
 *   pkg/util/intstr/generated.proto (IntOrString)
 * as of kubernetes/api 10b39a39b (fields newer than the clients here are harmless: absent on the
 * wire). Left out: Job's alpha `scheduling` (field 17; its messages live in scheduling/v1alpha3).
 *
 * Field names are the JSON names, except the fields Go embeds (`json:""` in core/v1 types.go):
 * Volume.volumeSource, Probe.handler, EphemeralContainer.ephemeralContainerCommon and the
 * `localObjectReference` of the key selectors and env/volume sources. Their members sit at the
 * parent's level in JSON; ./codec.ts INLINE_FIELDS lists them.
 * LocalObjectReference and ObjectReference are in ./schema.ts CORE_V1_PROTO.
 */

export const RESOURCE_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.api.resource;
message Quantity { optional string string = 1; }
`;

export const INTSTR_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.util.intstr;
message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; }
`;

export const CORE_V1_WORKLOAD_PROTO = `
syntax = "proto2";
package k8s.io.api.core.v1;
message PodTemplateSpec { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional PodSpec spec = 2; }
message PodSpec { repeated Volume volumes = 1; repeated Container initContainers = 20; repeated Container containers = 2; repeated EphemeralContainer ephemeralContainers = 34; optional string restartPolicy = 3; optional int64 terminationGracePeriodSeconds = 4; optional int64 activeDeadlineSeconds = 5; optional string dnsPolicy = 6; map<string, string> nodeSelector = 7; optional string serviceAccountName = 8; optional string serviceAccount = 9; optional bool automountServiceAccountToken = 21; optional string nodeName = 10; optional bool hostNetwork = 11; optional bool hostPID = 12; optional bool hostIPC = 13; optional bool shareProcessNamespace = 27; optional PodSecurityContext securityContext = 14; repeated LocalObjectReference imagePullSecrets = 15; optional string hostname = 16; optional string subdomain = 17; optional Affinity affinity = 18; optional string schedulerName = 19; repeated Toleration tolerations = 22; repeated HostAlias hostAliases = 23; optional string priorityClassName = 24; optional int32 priority = 25; optional PodDNSConfig dnsConfig = 26; repeated PodReadinessGate readinessGates = 28; optional string runtimeClassName = 29; optional bool enableServiceLinks = 30; optional string preemptionPolicy = 31; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> overhead = 32; repeated TopologySpreadConstraint topologySpreadConstraints = 33; optional bool setHostnameAsFQDN = 35; optional PodOS os = 36; optional bool hostUsers = 37; repeated PodSchedulingGate schedulingGates = 38; repeated PodResourceClaim resourceClaims = 39; optional ResourceRequirements resources = 40; optional string hostnameOverride = 41; optional PodSchedulingGroup schedulingGroup = 43; repeated EvictionResponder evictionResponders = 44; }
message EvictionResponder { optional string name = 1; optional int32 priority = 2; }
message PodSchedulingGroup { optional string podGroupName = 1; }
message ResourceRequirements { map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 1; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> requests = 2; repeated ResourceClaim claims = 3; }
message ResourceClaim { optional string name = 1; optional string request = 2; }
message PodResourceClaim { optional string name = 1; optional string resourceClaimName = 3; optional string resourceClaimTemplateName = 4; }
message PodSchedulingGate { optional string name = 1; }
message PodOS { optional string name = 1; }
message TopologySpreadConstraint { optional int32 maxSkew = 1; optional string topologyKey = 2; optional string whenUnsatisfiable = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 4; optional int32 minDomains = 5; optional string nodeAffinityPolicy = 6; optional string nodeTaintsPolicy = 7; repeated string matchLabelKeys = 8; }
message PodReadinessGate { optional string conditionType = 1; }
message PodDNSConfig { repeated string nameservers = 1; repeated string searches = 2; repeated PodDNSConfigOption options = 3; }
message PodDNSConfigOption { optional string name = 1; optional string value = 2; }
message HostAlias { optional string ip = 1; repeated string hostnames = 2; }
message Toleration { optional string key = 1; optional string operator = 2; optional string value = 3; optional string effect = 4; optional int64 tolerationSeconds = 5; }
message Affinity { optional NodeAffinity nodeAffinity = 1; optional PodAffinity podAffinity = 2; optional PodAntiAffinity podAntiAffinity = 3; }
message PodAntiAffinity { repeated PodAffinityTerm requiredDuringSchedulingIgnoredDuringExecution = 1; repeated WeightedPodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution = 2; }
message WeightedPodAffinityTerm { optional int32 weight = 1; optional PodAffinityTerm podAffinityTerm = 2; }
message PodAffinityTerm { optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 1; repeated string namespaces = 2; optional string topologyKey = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector namespaceSelector = 4; repeated string matchLabelKeys = 5; repeated string mismatchLabelKeys = 6; }
message PodAffinity { repeated PodAffinityTerm requiredDuringSchedulingIgnoredDuringExecution = 1; repeated WeightedPodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution = 2; }
message NodeAffinity { optional NodeSelector requiredDuringSchedulingIgnoredDuringExecution = 1; repeated PreferredSchedulingTerm preferredDuringSchedulingIgnoredDuringExecution = 2; }
message PreferredSchedulingTerm { optional int32 weight = 1; optional NodeSelectorTerm preference = 2; }
message NodeSelectorTerm { repeated NodeSelectorRequirement matchExpressions = 1; repeated NodeSelectorRequirement matchFields = 2; }
message NodeSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message NodeSelector { repeated NodeSelectorTerm nodeSelectorTerms = 1; }
message PodSecurityContext { optional SELinuxOptions seLinuxOptions = 1; optional WindowsSecurityContextOptions windowsOptions = 8; optional int64 runAsUser = 2; optional int64 runAsGroup = 6; optional bool runAsNonRoot = 3; repeated int64 supplementalGroups = 4; optional string supplementalGroupsPolicy = 12; optional int64 fsGroup = 5; repeated Sysctl sysctls = 7; optional string fsGroupChangePolicy = 9; optional SeccompProfile seccompProfile = 10; optional AppArmorProfile appArmorProfile = 11; optional string seLinuxChangePolicy = 13; }
message AppArmorProfile { optional string type = 1; optional string localhostProfile = 2; }
message SeccompProfile { optional string type = 1; optional string localhostProfile = 2; }
message Sysctl { optional string name = 1; optional string value = 2; }
message WindowsSecurityContextOptions { optional string gmsaCredentialSpecName = 1; optional string gmsaCredentialSpec = 2; optional string runAsUserName = 3; optional bool hostProcess = 4; }
message SELinuxOptions { optional string user = 1; optional string role = 2; optional string type = 3; optional string level = 4; }
message EphemeralContainer { optional EphemeralContainerCommon ephemeralContainerCommon = 1; optional string targetContainerName = 2; }
message EphemeralContainerCommon { optional string name = 1; optional string image = 2; repeated string command = 3; repeated string args = 4; optional string workingDir = 5; repeated ContainerPort ports = 6; repeated EnvFromSource envFrom = 19; repeated EnvVar env = 7; optional ResourceRequirements resources = 8; repeated ContainerResizePolicy resizePolicy = 23; optional string restartPolicy = 24; repeated ContainerRestartRule restartPolicyRules = 25; repeated VolumeMount volumeMounts = 9; repeated VolumeDevice volumeDevices = 21; optional Probe livenessProbe = 10; optional Probe readinessProbe = 11; optional Probe startupProbe = 22; optional Lifecycle lifecycle = 12; optional string terminationMessagePath = 13; optional string terminationMessagePolicy = 20; optional string imagePullPolicy = 14; optional SecurityContext securityContext = 15; optional bool stdin = 16; optional bool stdinOnce = 17; optional bool tty = 18; }
message SecurityContext { optional Capabilities capabilities = 1; optional bool privileged = 2; optional SELinuxOptions seLinuxOptions = 3; optional WindowsSecurityContextOptions windowsOptions = 10; optional int64 runAsUser = 4; optional int64 runAsGroup = 8; optional bool runAsNonRoot = 5; optional bool readOnlyRootFilesystem = 6; optional bool allowPrivilegeEscalation = 7; optional string procMount = 9; optional SeccompProfile seccompProfile = 11; optional AppArmorProfile appArmorProfile = 12; }
message Capabilities { repeated string add = 1; repeated string drop = 2; }
message Lifecycle { optional LifecycleHandler postStart = 1; optional LifecycleHandler preStop = 2; optional string stopSignal = 3; }
message LifecycleHandler { optional ExecAction exec = 1; optional HTTPGetAction httpGet = 2; optional TCPSocketAction tcpSocket = 3; optional SleepAction sleep = 4; }
message SleepAction { optional int64 seconds = 1; }
message TCPSocketAction { optional k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 1; optional string host = 2; }
message HTTPGetAction { optional string path = 1; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString port = 2; optional string host = 3; optional string scheme = 4; repeated HTTPHeader httpHeaders = 5; optional string protocol = 6; }
message HTTPHeader { optional string name = 1; optional string value = 2; }
message ExecAction { repeated string command = 1; }
message Probe { optional ProbeHandler handler = 1; optional int32 initialDelaySeconds = 2; optional int32 timeoutSeconds = 3; optional int32 periodSeconds = 4; optional int32 successThreshold = 5; optional int32 failureThreshold = 6; optional int64 terminationGracePeriodSeconds = 7; }
message ProbeHandler { optional ExecAction exec = 1; optional HTTPGetAction httpGet = 2; optional TCPSocketAction tcpSocket = 3; optional GRPCAction grpc = 4; }
message GRPCAction { optional int32 port = 1; optional string service = 2; optional string mode = 3; }
message VolumeDevice { optional string name = 1; optional string devicePath = 2; }
message VolumeMount { optional string name = 1; optional bool readOnly = 2; optional string recursiveReadOnly = 7; optional string mountPath = 3; optional string subPath = 4; optional string mountPropagation = 5; optional string subPathExpr = 6; repeated string bindMountOptions = 8; }
message ContainerRestartRule { optional string action = 1; optional ContainerRestartRuleOnExitCodes exitCodes = 2; }
message ContainerRestartRuleOnExitCodes { optional string operator = 1; repeated int32 values = 2; }
message ContainerResizePolicy { optional string resourceName = 1; optional string restartPolicy = 2; }
message EnvVar { optional string name = 1; optional string value = 2; optional EnvVarSource valueFrom = 3; }
message EnvVarSource { optional ObjectFieldSelector fieldRef = 1; optional ResourceFieldSelector resourceFieldRef = 2; optional ConfigMapKeySelector configMapKeyRef = 3; optional SecretKeySelector secretKeyRef = 4; optional FileKeySelector fileKeyRef = 5; }
message FileKeySelector { optional string volumeName = 1; optional string path = 2; optional string key = 3; optional bool optional = 4; }
message SecretKeySelector { optional LocalObjectReference localObjectReference = 1; optional string key = 2; optional bool optional = 3; }
message ConfigMapKeySelector { optional LocalObjectReference localObjectReference = 1; optional string key = 2; optional bool optional = 3; }
message ResourceFieldSelector { optional string containerName = 1; optional string resource = 2; optional k8s.io.apimachinery.pkg.api.resource.Quantity divisor = 3; }
message ObjectFieldSelector { optional string apiVersion = 1; optional string fieldPath = 2; }
message EnvFromSource { optional string prefix = 1; optional ConfigMapEnvSource configMapRef = 2; optional SecretEnvSource secretRef = 3; }
message SecretEnvSource { optional LocalObjectReference localObjectReference = 1; optional bool optional = 2; }
message ConfigMapEnvSource { optional LocalObjectReference localObjectReference = 1; optional bool optional = 2; }
message ContainerPort { optional string name = 1; optional int32 hostPort = 2; optional int32 containerPort = 3; optional string protocol = 4; optional string hostIP = 5; }
message Container { optional string name = 1; optional string image = 2; repeated string command = 3; repeated string args = 4; optional string workingDir = 5; repeated ContainerPort ports = 6; repeated EnvFromSource envFrom = 19; repeated EnvVar env = 7; optional ResourceRequirements resources = 8; repeated ContainerResizePolicy resizePolicy = 23; optional string restartPolicy = 24; repeated ContainerRestartRule restartPolicyRules = 25; repeated VolumeMount volumeMounts = 9; repeated VolumeDevice volumeDevices = 21; optional Probe livenessProbe = 10; optional Probe readinessProbe = 11; optional Probe startupProbe = 22; optional Lifecycle lifecycle = 12; optional string terminationMessagePath = 13; optional string terminationMessagePolicy = 20; optional string imagePullPolicy = 14; optional SecurityContext securityContext = 15; optional bool stdin = 16; optional bool stdinOnce = 17; optional bool tty = 18; }
message Volume { optional string name = 1; optional VolumeSource volumeSource = 2; }
message VolumeSource { optional HostPathVolumeSource hostPath = 1; optional EmptyDirVolumeSource emptyDir = 2; optional GCEPersistentDiskVolumeSource gcePersistentDisk = 3; optional AWSElasticBlockStoreVolumeSource awsElasticBlockStore = 4; optional GitRepoVolumeSource gitRepo = 5; optional SecretVolumeSource secret = 6; optional NFSVolumeSource nfs = 7; optional ISCSIVolumeSource iscsi = 8; optional GlusterfsVolumeSource glusterfs = 9; optional PersistentVolumeClaimVolumeSource persistentVolumeClaim = 10; optional RBDVolumeSource rbd = 11; optional FlexVolumeSource flexVolume = 12; optional CinderVolumeSource cinder = 13; optional CephFSVolumeSource cephfs = 14; optional FlockerVolumeSource flocker = 15; optional DownwardAPIVolumeSource downwardAPI = 16; optional FCVolumeSource fc = 17; optional AzureFileVolumeSource azureFile = 18; optional ConfigMapVolumeSource configMap = 19; optional VsphereVirtualDiskVolumeSource vsphereVolume = 20; optional QuobyteVolumeSource quobyte = 21; optional AzureDiskVolumeSource azureDisk = 22; optional PhotonPersistentDiskVolumeSource photonPersistentDisk = 23; optional ProjectedVolumeSource projected = 26; optional PortworxVolumeSource portworxVolume = 24; optional ScaleIOVolumeSource scaleIO = 25; optional StorageOSVolumeSource storageos = 27; optional CSIVolumeSource csi = 28; optional EphemeralVolumeSource ephemeral = 29; optional ImageVolumeSource image = 30; }
message ImageVolumeSource { optional string reference = 1; optional string pullPolicy = 2; }
message EphemeralVolumeSource { optional PersistentVolumeClaimTemplate volumeClaimTemplate = 1; }
message PersistentVolumeClaimTemplate { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional PersistentVolumeClaimSpec spec = 2; }
message PersistentVolumeClaimSpec { repeated string accessModes = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 4; optional VolumeResourceRequirements resources = 2; optional string volumeName = 3; optional string storageClassName = 5; optional string volumeMode = 6; optional TypedLocalObjectReference dataSource = 7; optional TypedObjectReference dataSourceRef = 8; optional string volumeAttributesClassName = 9; }
message TypedObjectReference { optional string apiGroup = 1; optional string kind = 2; optional string name = 3; optional string namespace = 4; }
message TypedLocalObjectReference { optional string apiGroup = 1; optional string kind = 2; optional string name = 3; }
message VolumeResourceRequirements { map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 1; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> requests = 2; }
message CSIVolumeSource { optional string driver = 1; optional bool readOnly = 2; optional string fsType = 3; map<string, string> volumeAttributes = 4; optional LocalObjectReference nodePublishSecretRef = 5; }
message StorageOSVolumeSource { optional string volumeName = 1; optional string volumeNamespace = 2; optional string fsType = 3; optional bool readOnly = 4; optional LocalObjectReference secretRef = 5; }
message ScaleIOVolumeSource { optional string gateway = 1; optional string system = 2; optional LocalObjectReference secretRef = 3; optional bool sslEnabled = 4; optional string protectionDomain = 5; optional string storagePool = 6; optional string storageMode = 7; optional string volumeName = 8; optional string fsType = 9; optional bool readOnly = 10; }
message PortworxVolumeSource { optional string volumeID = 1; optional string fsType = 2; optional bool readOnly = 3; }
message ProjectedVolumeSource { repeated VolumeProjection sources = 1; optional int32 defaultMode = 2; optional int64 defaultUser = 3; }
message VolumeProjection { optional SecretProjection secret = 1; optional DownwardAPIProjection downwardAPI = 2; optional ConfigMapProjection configMap = 3; optional ServiceAccountTokenProjection serviceAccountToken = 4; optional ClusterTrustBundleProjection clusterTrustBundle = 5; optional PodCertificateProjection podCertificate = 6; }
message PodCertificateProjection { optional string signerName = 1; optional string keyType = 2; optional int32 maxExpirationSeconds = 3; optional string credentialBundlePath = 4; optional string keyPath = 5; optional string certificateChainPath = 6; map<string, string> userAnnotations = 7; optional int64 user = 8; }
message ClusterTrustBundleProjection { optional string name = 1; optional string signerName = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector labelSelector = 3; optional bool optional = 5; optional string path = 4; optional int64 user = 6; }
message ServiceAccountTokenProjection { optional string audience = 1; optional int64 expirationSeconds = 2; optional string path = 3; optional int64 user = 4; }
message ConfigMapProjection { optional LocalObjectReference localObjectReference = 1; repeated KeyToPath items = 2; optional bool optional = 4; }
message KeyToPath { optional string key = 1; optional string path = 2; optional int32 mode = 3; optional int64 user = 4; }
message DownwardAPIProjection { repeated DownwardAPIVolumeFile items = 1; }
message DownwardAPIVolumeFile { optional string path = 1; optional ObjectFieldSelector fieldRef = 2; optional ResourceFieldSelector resourceFieldRef = 3; optional int32 mode = 4; optional int64 user = 5; }
message SecretProjection { optional LocalObjectReference localObjectReference = 1; repeated KeyToPath items = 2; optional bool optional = 4; }
message PhotonPersistentDiskVolumeSource { optional string pdID = 1; optional string fsType = 2; }
message AzureDiskVolumeSource { optional string diskName = 1; optional string diskURI = 2; optional string cachingMode = 3; optional string fsType = 4; optional bool readOnly = 5; optional string kind = 6; }
message QuobyteVolumeSource { optional string registry = 1; optional string volume = 2; optional bool readOnly = 3; optional string user = 4; optional string group = 5; optional string tenant = 6; }
message VsphereVirtualDiskVolumeSource { optional string volumePath = 1; optional string fsType = 2; optional string storagePolicyName = 3; optional string storagePolicyID = 4; }
message ConfigMapVolumeSource { optional LocalObjectReference localObjectReference = 1; repeated KeyToPath items = 2; optional int32 defaultMode = 3; optional bool optional = 4; optional int64 defaultUser = 5; }
message AzureFileVolumeSource { optional string secretName = 1; optional string shareName = 2; optional bool readOnly = 3; }
message FCVolumeSource { repeated string targetWWNs = 1; optional int32 lun = 2; optional string fsType = 3; optional bool readOnly = 4; repeated string wwids = 5; }
message DownwardAPIVolumeSource { repeated DownwardAPIVolumeFile items = 1; optional int32 defaultMode = 2; optional int64 defaultUser = 3; }
message FlockerVolumeSource { optional string datasetName = 1; optional string datasetUUID = 2; }
message CephFSVolumeSource { repeated string monitors = 1; optional string path = 2; optional string user = 3; optional string secretFile = 4; optional LocalObjectReference secretRef = 5; optional bool readOnly = 6; }
message CinderVolumeSource { optional string volumeID = 1; optional string fsType = 2; optional bool readOnly = 3; optional LocalObjectReference secretRef = 4; }
message FlexVolumeSource { optional string driver = 1; optional string fsType = 2; optional LocalObjectReference secretRef = 3; optional bool readOnly = 4; map<string, string> options = 5; }
message RBDVolumeSource { repeated string monitors = 1; optional string image = 2; optional string fsType = 3; optional string pool = 4; optional string user = 5; optional string keyring = 6; optional LocalObjectReference secretRef = 7; optional bool readOnly = 8; }
message PersistentVolumeClaimVolumeSource { optional string claimName = 1; optional bool readOnly = 2; }
message GlusterfsVolumeSource { optional string endpoints = 1; optional string path = 2; optional bool readOnly = 3; }
message ISCSIVolumeSource { optional string targetPortal = 1; optional string iqn = 2; optional int32 lun = 3; optional string iscsiInterface = 4; optional string fsType = 5; optional bool readOnly = 6; repeated string portals = 7; optional bool chapAuthDiscovery = 8; optional bool chapAuthSession = 11; optional LocalObjectReference secretRef = 10; optional string initiatorName = 12; }
message NFSVolumeSource { optional string server = 1; optional string path = 2; optional bool readOnly = 3; }
message SecretVolumeSource { optional string secretName = 1; repeated KeyToPath items = 2; optional int32 defaultMode = 3; optional bool optional = 4; optional int64 defaultUser = 5; }
message GitRepoVolumeSource { optional string repository = 1; optional string revision = 2; optional string directory = 3; }
message AWSElasticBlockStoreVolumeSource { optional string volumeID = 1; optional string fsType = 2; optional int32 partition = 3; optional bool readOnly = 4; }
message GCEPersistentDiskVolumeSource { optional string pdName = 1; optional string fsType = 2; optional int32 partition = 3; optional bool readOnly = 4; }
message EmptyDirVolumeSource { optional string medium = 1; optional k8s.io.apimachinery.pkg.api.resource.Quantity sizeLimit = 2; optional int32 mode = 3; }
message HostPathVolumeSource { optional string path = 1; optional string type = 2; }
message Service { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ServiceSpec spec = 2; optional ServiceStatus status = 3; }
message ServiceStatus { optional LoadBalancerStatus loadBalancer = 1; repeated k8s.io.apimachinery.pkg.apis.meta.v1.Condition conditions = 2; }
message LoadBalancerStatus { repeated LoadBalancerIngress ingress = 1; }
message LoadBalancerIngress { optional string ip = 1; optional string hostname = 2; optional string ipMode = 3; repeated PortStatus ports = 4; }
message PortStatus { optional int32 port = 1; optional string protocol = 2; optional string error = 3; }
message ServiceSpec { repeated ServicePort ports = 1; map<string, string> selector = 2; optional string clusterIP = 3; repeated string clusterIPs = 18; optional string type = 4; repeated string externalIPs = 5; optional string sessionAffinity = 7; optional string loadBalancerIP = 8; repeated string loadBalancerSourceRanges = 9; optional string externalName = 10; optional string externalTrafficPolicy = 11; optional int32 healthCheckNodePort = 12; optional bool publishNotReadyAddresses = 13; optional SessionAffinityConfig sessionAffinityConfig = 14; repeated string ipFamilies = 19; optional string ipFamilyPolicy = 17; optional bool allocateLoadBalancerNodePorts = 20; optional string loadBalancerClass = 21; optional string internalTrafficPolicy = 22; optional string trafficDistribution = 23; }
message SessionAffinityConfig { optional ClientIPConfig clientIP = 1; }
message ClientIPConfig { optional int32 timeoutSeconds = 1; }
message ServicePort { optional string name = 1; optional string protocol = 2; optional string appProtocol = 6; optional int32 port = 3; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString targetPort = 4; optional int32 nodePort = 5; }
message Pod { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional PodSpec spec = 2; optional PodStatus status = 3; }
message PodStatus { optional int64 observedGeneration = 17; optional string phase = 1; repeated PodCondition conditions = 2; optional string message = 3; optional string reason = 4; optional string nominatedNodeName = 11; optional string hostIP = 5; repeated HostIP hostIPs = 16; optional string podIP = 6; repeated PodIP podIPs = 12; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startTime = 7; repeated ContainerStatus initContainerStatuses = 10; repeated ContainerStatus containerStatuses = 8; optional string qosClass = 9; repeated ContainerStatus ephemeralContainerStatuses = 13; optional string resize = 14; repeated PodResourceClaimStatus resourceClaimStatuses = 15; optional PodExtendedResourceClaimStatus extendedResourceClaimStatus = 18; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> allocatedResources = 19; optional ResourceRequirements resources = 20; repeated NodeAllocatableResourceClaimStatus nodeAllocatableResourceClaimStatuses = 21; repeated PodVolumeHealth volumeHealth = 22; }
message PodVolumeHealth { optional string name = 1; repeated VolumeHealthCondition healthConditions = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3; }
message VolumeHealthCondition { optional string status = 1; optional string reason = 2; optional string message = 3; }
message NodeAllocatableResourceClaimStatus { optional string resourceClaimName = 1; repeated string containers = 2; repeated NodeAllocatableMappedResources mapping = 4; repeated NodeAllocatableOverheadResources overhead = 5; }
message NodeAllocatableOverheadResources { optional string name = 1; optional k8s.io.apimachinery.pkg.api.resource.Quantity perPod = 2; optional k8s.io.apimachinery.pkg.api.resource.Quantity perContainer = 3; }
message NodeAllocatableMappedResources { optional string name = 1; optional k8s.io.apimachinery.pkg.api.resource.Quantity quantity = 2; }
message PodExtendedResourceClaimStatus { repeated ContainerExtendedResourceRequest requestMappings = 1; optional string resourceClaimName = 2; }
message ContainerExtendedResourceRequest { optional string containerName = 1; optional string resourceName = 2; optional string requestName = 3; }
message PodResourceClaimStatus { optional string name = 1; optional string resourceClaimName = 2; }
message ContainerStatus { optional string name = 1; optional ContainerState state = 2; optional ContainerState lastState = 3; optional bool ready = 4; optional int32 restartCount = 5; optional string image = 6; optional string imageID = 7; optional string containerID = 8; optional bool started = 9; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> allocatedResources = 10; optional ResourceRequirements resources = 11; repeated VolumeMountStatus volumeMounts = 12; optional ContainerUser user = 13; repeated ResourceStatus allocatedResourcesStatus = 14; optional string stopSignal = 15; }
message ResourceStatus { optional string name = 1; repeated ResourceHealth resources = 2; }
message ResourceHealth { optional string resourceID = 1; optional string health = 2; optional string message = 6; }
message ContainerUser { optional LinuxContainerUser linux = 1; }
message LinuxContainerUser { optional int64 uid = 1; optional int64 gid = 2; repeated int64 supplementalGroups = 3; }
message VolumeMountStatus { optional string name = 1; optional string mountPath = 2; optional bool readOnly = 3; optional string recursiveReadOnly = 4; optional VolumeStatus volumeStatus = 5; }
message VolumeStatus { optional ImageVolumeStatus image = 1; }
message ImageVolumeStatus { optional string imageRef = 1; }
message ContainerState { optional ContainerStateWaiting waiting = 1; optional ContainerStateRunning running = 2; optional ContainerStateTerminated terminated = 3; }
message ContainerStateTerminated { optional int32 exitCode = 1; optional int32 signal = 2; optional string reason = 3; optional string message = 4; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startedAt = 5; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time finishedAt = 6; optional string containerID = 7; }
message ContainerStateRunning { optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startedAt = 1; }
message ContainerStateWaiting { optional string reason = 1; optional string message = 2; }
message PodIP { optional string ip = 1; }
message HostIP { optional string ip = 1; }
message PodCondition { optional string type = 1; optional int64 observedGeneration = 7; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastProbeTime = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4; optional string reason = 5; optional string message = 6; }
message PodList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Pod items = 2; }
message ServiceList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Service items = 2; }
message PersistentVolumeClaim { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional PersistentVolumeClaimSpec spec = 2; optional PersistentVolumeClaimStatus status = 3; }
message PersistentVolumeClaimStatus { optional string phase = 1; repeated string accessModes = 2; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> capacity = 3; repeated PersistentVolumeClaimCondition conditions = 4; map<string, k8s.io.apimachinery.pkg.api.resource.Quantity> allocatedResources = 5; map<string, string> allocatedResourceStatuses = 7; optional string currentVolumeAttributesClassName = 8; optional ModifyVolumeStatus modifyVolumeStatus = 9; optional VolumeHealthStatus healthStatus = 10; }
message VolumeHealthStatus { repeated VolumeHealthCondition healthConditions = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 2; }
message ModifyVolumeStatus { optional string targetVolumeAttributesClassName = 1; optional string status = 2; }
message PersistentVolumeClaimCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastProbeTime = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4; optional string reason = 5; optional string message = 6; }
message PersistentVolumeClaimList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated PersistentVolumeClaim items = 2; }
`;

export const APPS_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.apps.v1;
message ReplicaSet { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional ReplicaSetSpec spec = 2; optional ReplicaSetStatus status = 3; }
message ReplicaSetStatus { optional int32 replicas = 1; optional int32 fullyLabeledReplicas = 2; optional int32 readyReplicas = 4; optional int32 availableReplicas = 5; optional int32 terminatingReplicas = 7; optional int64 observedGeneration = 3; repeated ReplicaSetCondition conditions = 6; }
message ReplicaSetCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3; optional string reason = 4; optional string message = 5; }
message ReplicaSetSpec { optional int32 replicas = 1; optional int32 minReadySeconds = 4; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2; optional k8s.io.api.core.v1.PodTemplateSpec template = 3; }
message Deployment { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional DeploymentSpec spec = 2; optional DeploymentStatus status = 3; }
message DeploymentStatus { optional int64 observedGeneration = 1; optional int32 replicas = 2; optional int32 updatedReplicas = 3; optional int32 readyReplicas = 7; optional int32 availableReplicas = 4; optional int32 unavailableReplicas = 5; optional int32 terminatingReplicas = 9; repeated DeploymentCondition conditions = 6; optional int32 collisionCount = 8; }
message DeploymentCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastUpdateTime = 6; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 7; optional string reason = 4; optional string message = 5; }
message DeploymentSpec { optional int32 replicas = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2; optional k8s.io.api.core.v1.PodTemplateSpec template = 3; optional DeploymentStrategy strategy = 4; optional int32 minReadySeconds = 5; optional int32 revisionHistoryLimit = 6; optional bool paused = 7; optional int32 progressDeadlineSeconds = 9; }
message DeploymentStrategy { optional string type = 1; optional RollingUpdateDeployment rollingUpdate = 2; }
message RollingUpdateDeployment { optional k8s.io.apimachinery.pkg.util.intstr.IntOrString maxUnavailable = 1; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString maxSurge = 2; }
message DeploymentList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Deployment items = 2; }
message ReplicaSetList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated ReplicaSet items = 2; }
message StatefulSet { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional StatefulSetSpec spec = 2; optional StatefulSetStatus status = 3; }
message StatefulSetStatus { optional int64 observedGeneration = 1; optional int32 replicas = 2; optional int32 readyReplicas = 3; optional int32 currentReplicas = 4; optional int32 updatedReplicas = 5; optional string currentRevision = 6; optional string updateRevision = 7; optional int32 collisionCount = 9; repeated StatefulSetCondition conditions = 10; optional int32 availableReplicas = 11; }
message StatefulSetCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3; optional string reason = 4; optional string message = 5; }
message StatefulSetSpec { optional int32 replicas = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 2; optional k8s.io.api.core.v1.PodTemplateSpec template = 3; repeated k8s.io.api.core.v1.PersistentVolumeClaim volumeClaimTemplates = 4; optional string serviceName = 5; optional string podManagementPolicy = 6; optional StatefulSetUpdateStrategy updateStrategy = 7; optional int32 revisionHistoryLimit = 8; optional int32 minReadySeconds = 9; optional StatefulSetPersistentVolumeClaimRetentionPolicy persistentVolumeClaimRetentionPolicy = 10; optional StatefulSetOrdinals ordinals = 11; }
message StatefulSetOrdinals { optional int32 start = 1; }
message StatefulSetPersistentVolumeClaimRetentionPolicy { optional string whenDeleted = 1; optional string whenScaled = 2; }
message StatefulSetUpdateStrategy { optional string type = 1; optional RollingUpdateStatefulSetStrategy rollingUpdate = 2; }
message RollingUpdateStatefulSetStrategy { optional int32 partition = 1; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString maxUnavailable = 2; }
message DaemonSet { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional DaemonSetSpec spec = 2; optional DaemonSetStatus status = 3; }
message DaemonSetStatus { optional int32 currentNumberScheduled = 1; optional int32 numberMisscheduled = 2; optional int32 desiredNumberScheduled = 3; optional int32 numberReady = 4; optional int64 observedGeneration = 5; optional int32 updatedNumberScheduled = 6; optional int32 numberAvailable = 7; optional int32 numberUnavailable = 8; optional int32 collisionCount = 9; repeated DaemonSetCondition conditions = 10; }
message DaemonSetCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 3; optional string reason = 4; optional string message = 5; }
message DaemonSetSpec { optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 1; optional k8s.io.api.core.v1.PodTemplateSpec template = 2; optional DaemonSetUpdateStrategy updateStrategy = 3; optional int32 minReadySeconds = 4; optional int32 revisionHistoryLimit = 6; }
message DaemonSetUpdateStrategy { optional string type = 1; optional RollingUpdateDaemonSet rollingUpdate = 2; }
message RollingUpdateDaemonSet { optional k8s.io.apimachinery.pkg.util.intstr.IntOrString maxUnavailable = 1; optional k8s.io.apimachinery.pkg.util.intstr.IntOrString maxSurge = 2; }
message DaemonSetList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated DaemonSet items = 2; }
message StatefulSetList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated StatefulSet items = 2; }
`;

export const BATCH_V1_PROTO = `
syntax = "proto2";
package k8s.io.api.batch.v1;
message Job { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional JobSpec spec = 2; optional JobStatus status = 3; }
message JobStatus { repeated JobCondition conditions = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time startTime = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time completionTime = 3; optional int32 active = 4; optional int32 succeeded = 5; optional int32 failed = 6; optional int32 terminating = 11; optional string completedIndexes = 7; optional string failedIndexes = 10; optional UncountedTerminatedPods uncountedTerminatedPods = 8; optional int32 ready = 9; }
message UncountedTerminatedPods { repeated string succeeded = 1; repeated string failed = 2; }
message JobCondition { optional string type = 1; optional string status = 2; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastProbeTime = 3; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastTransitionTime = 4; optional string reason = 5; optional string message = 6; }
message JobSpec { optional int32 parallelism = 1; optional int32 completions = 2; optional int64 activeDeadlineSeconds = 3; optional PodFailurePolicy podFailurePolicy = 11; optional SuccessPolicy successPolicy = 16; optional int32 backoffLimit = 7; optional int32 backoffLimitPerIndex = 12; optional int32 maxFailedIndexes = 13; optional k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector selector = 4; optional bool manualSelector = 5; optional k8s.io.api.core.v1.PodTemplateSpec template = 6; optional int32 ttlSecondsAfterFinished = 8; optional string completionMode = 9; optional bool suspend = 10; optional string podReplacementPolicy = 14; optional string managedBy = 15; }
message SuccessPolicy { repeated SuccessPolicyRule rules = 1; }
message SuccessPolicyRule { optional string succeededIndexes = 1; optional int32 succeededCount = 2; }
message PodFailurePolicy { repeated PodFailurePolicyRule rules = 1; }
message PodFailurePolicyRule { optional string action = 1; optional PodFailurePolicyOnExitCodesRequirement onExitCodes = 2; repeated PodFailurePolicyOnPodConditionsPattern onPodConditions = 3; }
message PodFailurePolicyOnPodConditionsPattern { optional string type = 1; optional string status = 2; }
message PodFailurePolicyOnExitCodesRequirement { optional string containerName = 1; optional string operator = 2; repeated int32 values = 3; }
message JobList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated Job items = 2; }
message CronJob { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional CronJobSpec spec = 2; optional CronJobStatus status = 3; }
message CronJobStatus { repeated k8s.io.api.core.v1.ObjectReference active = 1; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastScheduleTime = 4; optional k8s.io.apimachinery.pkg.apis.meta.v1.Time lastSuccessfulTime = 5; }
message CronJobSpec { optional string schedule = 1; optional string timeZone = 8; optional int64 startingDeadlineSeconds = 2; optional string concurrencyPolicy = 3; optional bool suspend = 4; optional JobTemplateSpec jobTemplate = 5; optional int32 successfulJobsHistoryLimit = 6; optional int32 failedJobsHistoryLimit = 7; }
message JobTemplateSpec { optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1; optional JobSpec spec = 2; }
message CronJobList { optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta metadata = 1; repeated CronJob items = 2; }
`;
