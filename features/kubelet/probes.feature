@component:kubelet
Feature: kubelet — health checks (probes)
  Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行

  The kubelet runs three kinds of probe (liveness, readiness, startup), each with a consequence
  on failure, through three mechanisms (httpGet, tcpSocket, exec), each with its own success
  criterion. The notes end with a warning about Pods without a readiness probe.

  Probe timing follows the upstream defaults unless a scenario sets them: periodSeconds 10,
  failureThreshold 3, successThreshold 1, timeoutSeconds 1 (k8s.io/api core/v1 Probe). Upstream
  has a fourth mechanism, grpc (PROBE-FOUR-MECHANISMS).

  How the scenarios drive a probe, so that any cluster can run them: an exec probe reads a file
  in the container (`cat /tmp/live`, `/tmp/ready`, `/tmp/started`), the container's command makes
  the files it should start with, and the scenario removes or creates them by exec into the
  container (`kubelet.probes`). Failed probes are counted from the kubelet's `Unhealthy` events.
  HTTP and TCP behaviours come from small images (`kubespec/http:STATUS`, `kubespec/tcp:PORT`,
  `kubespec/slow:SECONDS`: the fake runtime's vocabulary, README § fake runtime; on the cri target
  the same images are real busybox processes — `nc` answering the status — in real containers).
  Pods are bound to the scenario's node by spec.nodeName. The scenarios hold on real time as on
  virtual time: the cri target runs them against containerd.

  Rule: PROBE-LIVENESS-RESTARTS — a failing liveness probe makes the kubelet restart the container
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: The liveness probe checks that the container is alive; when it fails (failureThreshold
      consecutive times) the kubelet kills the container and it is restarted per restartPolicy.
    Quote: "**Liveness Probe** | 检测容器是否存活 | 重启容器"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: three consecutive liveness failures restart the container once
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a liveness probe with periodSeconds 10 and failureThreshold 3
      When the liveness probe of container "app" in pod "web" fails 3 times in a row
      Then within 5 seconds container "app" of pod "web" has restartCount 1
      And the last termination of container "app" of pod "web" was caused by the kubelet killing it
      And pod "web" has an event with reason "Unhealthy" mentioning "Liveness probe failed"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: two failures followed by a success do not restart the container
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a liveness probe with periodSeconds 10 and failureThreshold 3
      When the liveness probe of container "app" in pod "web" fails 2 times in a row
      And the liveness probe of container "app" in pod "web" succeeds once
      And the liveness probe of container "app" in pod "web" fails 2 times in a row
      Then container "app" of pod "web" has restartCount 0

  Rule: PROBE-READINESS-ENDPOINTS — a failing readiness probe takes the Pod out of its Services' endpoints
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: The readiness probe checks that the container is ready to take traffic; on failure the
      Pod is removed from the Service's ready endpoints (the container is not restarted). Upstream
      the EndpointSlice keeps the endpoint with conditions.ready false; kube-proxy only routes to
      ready endpoints.
    Quote: "**Readiness Probe** | 检测容器是否就绪接收流量 | 从 Service Endpoint 中移除"

    @requires:kube.api @requires:controllers.endpointslice @requires:controllers.endpoint @requires:kubelet @requires:kubelet.probes
    Scenario: an unready pod is marked not ready in the EndpointSlice and is not restarted
      Given a cluster with node "n1"
      And a Service "web" selecting "app=web" on port 80
      And running pods "web-1" and "web-2" labelled "app=web" whose container "app" has a readiness probe with failureThreshold 3
      Then within 10 seconds the EndpointSlices of Service "web" list pod "web-1" with ready "true" and pod "web-2" with ready "true"
      When the readiness probe of container "app" in pod "web-2" fails 3 times in a row
      Then within 10 seconds pod "web-2" has condition "Ready" with status "False"
      And within 5 seconds the EndpointSlices of Service "web" list pod "web-1" with ready "true" and pod "web-2" with ready "false"
      And the Endpoints of Service "web" list pod "web-1" under addresses and pod "web-2" under notReadyAddresses
      And container "app" of pod "web-2" has restartCount 0

    # The controllers' half alone, on any cluster: the test writes the pod's Ready condition as the
    # kubelet does after the failed probes, and both the EndpointSlice and the legacy Endpoints
    # object take the pod out of the ready endpoints while still listing it.

    @requires:kube.api @requires:controllers.endpointslice @requires:controllers.endpoint
    Scenario: a pod whose Ready condition turns False stays listed, as not ready, in the Service's EndpointSlice and Endpoints
      Given a Service "web" selecting "app=web" with ready pods "web-1" and "web-2"
      Then within 10 seconds the EndpointSlices of Service "web" list pod "web-1" with ready "true" and pod "web-2" with ready "true"
      When the test marks pod "web-2" not ready, as its kubelet would after failed readiness probes
      Then within 10 seconds the EndpointSlices of Service "web" list pod "web-1" with ready "true" and pod "web-2" with ready "false"
      And the Endpoints of Service "web" list pod "web-1" under addresses and pod "web-2" under notReadyAddresses

    @requires:kube.api @requires:controllers.endpointslice @requires:kubelet @requires:kubelet.probes @requires:proxy.traffic
    Scenario: no new connection to the Service reaches the unready pod, and it returns once ready again
      Given a cluster with node "n1"
      And a Service "web" selecting "app=web" on port 80
      And running pods "web-1" and "web-2" labelled "app=web" whose container "app" has a readiness probe with failureThreshold 1
      When the readiness probe of container "app" in pod "web-2" fails once
      And I open 100 new connections to Service "web" port 80
      Then pod "web-1" received 100 connections and pod "web-2" received 0
      When the readiness probe of container "app" in pod "web-2" succeeds once
      And I open 200 new connections to Service "web" port 80
      Then pod "web-2" received at least 1 of the last 200 connections

  Rule: PROBE-STARTUP-GATES — until the startup probe succeeds, liveness and readiness probes do not run
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: The startup probe checks whether the application has finished starting; before it
      succeeds the liveness and readiness probes have no effect. (Upstream also kills the container
      when the startup probe itself exhausts failureThreshold.)
    Quote: "**Startup Probe** | 检测容器是否启动完成 | 在 Startup Probe 成功前，Liveness/Readiness 不生效"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: a failing liveness probe is ignored while the startup probe has not yet succeeded
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a startup probe with periodSeconds 10 and failureThreshold 30 and a liveness probe that always fails
      When 120 seconds pass with the startup probe of container "app" failing
      Then container "app" of pod "web" has restartCount 0
      And the liveness probe of container "app" in pod "web" has been run 0 times
      And pod "web" has condition "Ready" with status "False"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: once the startup probe succeeds, the liveness probe takes over
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a startup probe and a liveness probe with periodSeconds 10 and failureThreshold 3
      When the startup probe of container "app" in pod "web" succeeds once
      And the liveness probe of container "app" in pod "web" fails 3 times in a row
      Then within 5 seconds container "app" of pod "web" has restartCount 1

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: a startup probe that exhausts its failureThreshold kills the container
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a startup probe with periodSeconds 10 and failureThreshold 3 and a liveness probe that always fails
      Then within 40 seconds container "app" of pod "web" has restartCount 1
      And the last termination of container "app" of pod "web" was caused by the kubelet killing it
      And pod "web" has an event with reason "Killing" mentioning "failed startup probe, will be restarted"

  Rule: PROBE-HTTPGET-2XX-3XX — an httpGet probe succeeds on a status code from 200 to 399
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: httpGet sends an HTTP GET; a 2xx or 3xx answer is success, anything else failure.
      Upstream: "greater than or equal to 200 and less than 400" (pod-lifecycle.md § Check mechanisms).
    Quote: "**httpGet**：发送 HTTP GET 请求，2xx/3xx 视为成功。"

    @requires:kube.api @requires:kubelet
    Scenario Outline: a readiness httpGet probe answered <code> makes the container ready "<ready>"
      # 302 points Location at another host: the kubelet does not follow it, and the 3xx itself
      # counts as success (pkg/probe/http/http.go: a non-local redirect is a warning). 399 is no
      # redirect and carries no Location: it succeeds by the [200, 400) range alone.
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" runs image "kubespec/http:<code>" with an httpGet readiness probe on path "/ready" port 8080 and failureThreshold 1
      When 15 seconds pass
      Then container "app" of pod "web" has ready "<ready>"

      Examples:
        | code | ready |
        | 200  | true  |
        | 302  | true  |
        | 399  | true  |
        | 400  | false |
        | 500  | false |

  Rule: PROBE-TCPSOCKET-CONNECT — a tcpSocket probe succeeds when the TCP connection opens
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: tcpSocket tries to open a TCP connection to the port; success if it connects, even
      when the container closes it at once.
    Quote: "**tcpSocket**：尝试建立 TCP 连接，连接成功视为成功。"

    @requires:kube.api @requires:kubelet
    Scenario: a listening port is ready; a closed port is not
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" runs image "kubespec/tcp:9000" with a tcpSocket readiness probe on port 9000
      And a running pod "dead" whose container "app" runs image "kubespec/hang" with a tcpSocket readiness probe on port 9000
      When 15 seconds pass
      Then container "app" of pod "web" has ready "true"
      And container "app" of pod "dead" has ready "false"

  Rule: PROBE-EXEC-EXIT-ZERO — an exec probe succeeds when the command exits 0
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: exec runs a command inside the container; exit code 0 is success, any other code failure.
    Quote: "**exec**：在容器内执行命令，退出码为 0 视为成功。"

    @requires:kube.api @requires:kubelet
    Scenario Outline: an exec readiness probe exiting <code>
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has an exec readiness probe running "sh -c 'exit <code>'" with failureThreshold 1
      When 15 seconds pass
      Then container "app" of pod "web" has ready "<ready>"

      Examples:
        | code | ready |
        | 0    | true  |
        | 1    | false |
        | 2    | false |

  @erratum
  Rule: PROBE-FOUR-MECHANISMS — probes have four mechanisms: exec, grpc, httpGet, tcpSocket
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: Probes support three mechanisms: httpGet, tcpSocket and exec.
    Quote: "探针支持三种探测方式"
    Upstream: "There are four different ways to check a container using a probe" — exec, grpc,
      httpGet, tcpSocket; grpc succeeds when the gRPC health check answers SERVING (kubernetes/website
      pod-lifecycle.md § Check mechanisms; GA since v1.27). Each probe sets exactly one.

    @requires:kube.api @requires:kubelet @requires:kubelet.probes.grpc
    Scenario Outline: a grpc readiness probe answered <status>
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" serves the gRPC health service on port 9090 answering "<status>"
      And container "app" of pod "web" has a grpc readiness probe on port 9090 with failureThreshold 1
      When 15 seconds pass
      Then container "app" of pod "web" has ready "<ready>"

      Examples:
        | status      | ready |
        | SERVING     | true  |
        | NOT_SERVING | false |

    @requires:kube.api
    Scenario: a probe with two mechanisms is rejected by the API server
      When I create a pod whose container "app" has a readiness probe with both exec and tcpSocket
      Then the create answer is 422 Invalid with a cause on field "spec.containers[0].readinessProbe.tcpSocket" saying "may not specify more than 1 handler type"

  Rule: PROBE-NO-READINESS-READY-AT-START — without a readiness probe a container counts as ready as soon as it starts
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: A container without a readiness probe is added to the Service endpoints as soon as it
      starts, possibly before the application can serve, so requests may fail. (Upstream: "If a
      container does not provide a readiness probe, the default state is Success.")
    Quote: "如果不配置 Readiness Probe，容器一启动就会被加入 Service Endpoint，可能在应用初始化完成前就收到流量"

    @requires:kube.api @requires:controllers.endpointslice @requires:kubelet @requires:proxy.dataplane
    Scenario: a slow-starting pod with no readiness probe is a ready endpoint, and kube-proxy sends new connections to it, before it listens
      Given a cluster with node "n1"
      And kube-proxy on nodes "n1"
      And a Service "web" selecting "app=web" on port 80 targeting port 8080
      When I create pod "web-1" labelled "app=web" whose container "app" runs "sh -c 'sleep 30; httpd -f -p 8080'" with no readiness probe
      Then within 10 seconds the EndpointSlices of Service "web" list pod "web-1" with ready "true"
      And a new connection from node "n1" to the clusterIP of Service "web" port 80 is sent to pod "web-1" port 8080

    @requires:kube.api @requires:controllers.endpointslice @requires:kubelet @requires:proxy.traffic
    Scenario: a slow-starting pod with no readiness probe is an endpoint before it listens, and connections fail
      Given a cluster with node "n1"
      And a Service "web" selecting "app=web" on port 80 targeting port 8080
      When I create pod "web-1" labelled "app=web" whose container "app" runs "sh -c 'sleep 30; httpd -f -p 8080'" with no readiness probe
      Then within 10 seconds the EndpointSlices of Service "web" list pod "web-1" with ready "true"
      And a connection to Service "web" port 80 made now is refused or reset

  Rule: PROBE-READINESS-NOT-RESTARTED — a failing readiness probe makes the Pod not Ready, and restarts nothing
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: The consequence of a readiness failure is removal from the Service's endpoints, not a
      restart: the kubelet sets the container's ready to false and the Pod's Ready and
      ContainersReady conditions to False (what the EndpointSlice controller reads; the endpoint
      half is PROBE-READINESS-ENDPOINTS), and sets them back when the probe passes again.
    Quote: "**Readiness Probe** | 检测容器是否就绪接收流量 | 从 Service Endpoint 中移除"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: readiness failures flip Ready to False without a restart, and a success flips it back
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a readiness probe with periodSeconds 10 and failureThreshold 3
      When the readiness probe of container "app" in pod "web" fails 3 times in a row
      Then within 5 seconds pod "web" has condition "Ready" with status "False"
      And pod "web" has condition "ContainersReady" with status "False"
      And container "app" of pod "web" has restartCount 0
      When the readiness probe of container "app" in pod "web" succeeds once
      Then within 5 seconds pod "web" has condition "Ready" with status "True"

  Rule: PROBE-NO-READINESS-READY-WHEN-STARTED — a container with no readiness probe is ready as soon as it runs
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: Without a readiness probe the container counts as ready the moment it starts, whether
      or not the application in it can serve yet ("If a container does not provide a readiness
      probe, the default state is Success": pod-lifecycle.md § Container probes). The kubelet's
      half of PROBE-NO-READINESS-READY-AT-START.
    Quote: "如果不配置 Readiness Probe，容器一启动就会被加入 Service Endpoint，可能在应用初始化完成前就收到流量"

    @requires:kube.api @requires:kubelet
    Scenario: a container still sleeping before it listens is ready and its pod Ready
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has no readiness probe and runs "sh -c 'sleep 30; httpd -f -p 8080'"
      Then within 2 seconds pod "web" has condition "Ready" with status "True"
      And container "app" of pod "web" has ready "true"

  Rule: PROBE-INITIAL-DELAY — no probe runs before initialDelaySeconds have passed since the container started
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: The notes name the probes but not their timing. Upstream (k8s.io/api core/v1 Probe,
      pod-lifecycle.md § Container probes): initialDelaySeconds is how long after the container
      starts the first probe may run (default 0); then every periodSeconds (default 10).
    Quote: "kubelet 执行三类探针（Probe）"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: a readiness probe with initialDelaySeconds 30 leaves the container unready for 30 seconds
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a readiness probe with initialDelaySeconds 30 and periodSeconds 5
      When 25 seconds pass
      Then container "app" of pod "web" has ready "false"
      And within 15 seconds container "app" of pod "web" has ready "true"

  Rule: PROBE-TIMEOUT-FAILS — a probe that takes longer than timeoutSeconds fails
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: The notes give only the success criteria. Upstream: timeoutSeconds (default 1) bounds
      each probe; an HTTP answer, a connection or an exec command that takes longer is a failure
      (pkg/kubelet/prober/prober.go; exec timeouts count since v1.20, ExecProbeTimeout).
    Quote: "**httpGet**：发送 HTTP GET 请求，2xx/3xx 视为成功。"

    @requires:kube.api @requires:kubelet
    Scenario Outline: an HTTP answer after 5 seconds with timeoutSeconds <timeout> makes the container ready "<ready>"
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" runs image "kubespec/slow:5" with an httpGet readiness probe on port 8080 and timeoutSeconds <timeout>
      When 20 seconds pass
      Then container "app" of pod "web" has ready "<ready>"

      Examples:
        | timeout | ready |
        | 1       | false |
        | 10      | true  |

    @requires:kube.api @requires:kubelet
    Scenario: an exec probe whose command sleeps past timeoutSeconds fails
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has an exec readiness probe running "sh -c 'sleep 5; exit 0'" with timeoutSeconds 1
      When 20 seconds pass
      Then container "app" of pod "web" has ready "false"

  Rule: PROBE-SUCCESS-THRESHOLD — readiness may need several successes in a row; liveness and startup must use 1
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: Upstream: successThreshold (default 1) is how many consecutive successes flip a failed
      probe to success. A readiness probe may set more; liveness and startup probes must set 1,
      and the API refuses anything else with 422 "must be 1"
      (pkg/apis/core/validation/validation.go validateContainers).
    Quote: "kubelet 执行三类探针（Probe）"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: with successThreshold 3 and periodSeconds 10 the container is not ready before its third success
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" has a readiness probe with periodSeconds 10 and successThreshold 3
      When 15 seconds pass
      Then container "app" of pod "web" has ready "false"
      And within 20 seconds container "app" of pod "web" has ready "true"

    @requires:kube.api
    Scenario Outline: a <kind> probe with successThreshold 2 is refused
      When I create a pod whose container "app" has a <kind> probe with successThreshold 2
      Then the create answer is 422 Invalid with a cause on field "spec.containers[0].<kind>Probe.successThreshold" saying "must be 1"

      Examples:
        | kind     |
        | liveness |
        | startup  |

    @requires:kube.api
    Scenario: a readiness probe with successThreshold 2 is accepted
      When I create a pod whose container "app" has a readiness probe with successThreshold 2
      Then the create answer is 201

  Rule: PROBE-TERMINATION-GRACE — a liveness kill uses the probe's terminationGracePeriodSeconds when it sets one
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: A liveness failure restarts the container by killing it: SIGTERM, then SIGKILL when the
      grace period ends. Upstream the probe's own terminationGracePeriodSeconds, when set, replaces
      the pod's for that kill (KEP-2238, GA in v1.28; pod-lifecycle.md § Probe-level
      terminationGracePeriodSeconds).
    Quote: "**Liveness Probe** | 检测容器是否存活 | 重启容器"

    @requires:kube.api @requires:kubelet @requires:kubelet.probes
    Scenario: a container ignoring SIGTERM is killed 5 seconds after its liveness failure, not 600
      Given a cluster with node "n1"
      And a running pod "web" whose container "app" ignores SIGTERM, has terminationGracePeriodSeconds 600 on the pod and a liveness probe with terminationGracePeriodSeconds 5
      When the liveness probe of container "app" in pod "web" fails 1 time in a row
      Then within 8 seconds container "app" of pod "web" has restartCount 1
      And the last termination of container "app" of pod "web" was caused by the kubelet killing it

  @untestable
  Rule: PROBE-READINESS-ADVICE — configure a readiness probe for every Pod in production
    Source: 000_1662d8c5cea2447f.txt § 数据平面 / kubelet / 健康检查执行
    Claim: In production every Pod should have a readiness probe.
    Quote: "生产环境中**强烈建议为每个 Pod 配置 Readiness Probe**"
    Untestable: operational advice about how to write workloads; the behaviour it guards against is checked by PROBE-NO-READINESS-READY-AT-START.
