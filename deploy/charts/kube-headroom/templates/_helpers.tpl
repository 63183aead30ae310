{{/* Chart name, truncated to the 63 characters a label value allows. */}}
{{- define "kube-headroom.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-qualified name; stage objects append -ingest, -topology, ... (kept short enough). */}}
{{- define "kube-headroom.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "kube-headroom.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "kube-headroom.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kube-headroom.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "kube-headroom.labels" -}}
helm.sh/chart: {{ include "kube-headroom.chart" . }}
{{ include "kube-headroom.selectorLabels" . }}
app.kubernetes.io/version: {{ include "kube-headroom.tag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: kube-headroom
{{- end }}

{{/* Labels of one stage's objects; takes (dict "root" $ "component" "ingest"). */}}
{{- define "kube-headroom.componentLabels" -}}
{{ include "kube-headroom.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "kube-headroom.componentSelectorLabels" -}}
{{ include "kube-headroom.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "kube-headroom.tag" -}}
{{- default .Chart.AppVersion .Values.image.tag }}
{{- end }}

{{- define "kube-headroom.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "kube-headroom.tag" .) }}
{{- end }}

{{/* Components that run: one "all-in-one", or the stages. */}}
{{- define "kube-headroom.webhookComponent" -}}
{{- if .Values.allInOne.enabled }}all-in-one{{ else }}webhook{{ end }}
{{- end }}

{{/* A stage's ServiceAccount: <serviceAccount.name or fullname>-<component>; takes (dict "root" $ "component" c). */}}
{{- define "kube-headroom.serviceAccountName" -}}
{{- printf "%s-%s" (default (include "kube-headroom.fullname" .root) .root.Values.serviceAccount.name) .component }}
{{- end }}

{{- define "kube-headroom.leaseName" -}}
{{- printf "%s-ingest" (include "kube-headroom.fullname" .) }}
{{- end }}

{{/*
Kafka identities of the release: the Streams application id (consumer group, changelog and
transactional-id prefix) and the actuator's consumer group. Empty values derive from the topic
prefix, as the CLI does, so two releases with different prefixes on one Kafka never share them.
*/}}
{{- define "kube-headroom.applicationId" -}}
{{- default (printf "%stopology" .Values.kafka.topicPrefix) .Values.topology.applicationId }}
{{- end }}

{{- define "kube-headroom.actuatorGroupId" -}}
{{- default (printf "%sactuator" .Values.kafka.topicPrefix) .Values.actuator.groupId }}
{{- end }}

{{- define "kube-headroom.metricsServiceName" -}}
{{- printf "%s-metrics" (include "kube-headroom.fullname" .) }}
{{- end }}

{{/* The topology's bookings (explain --live), on every topology pod's metrics port, in every mode. */}}
{{- define "kube-headroom.bookingsServiceName" -}}
{{- printf "%s-bookings" (include "kube-headroom.fullname" .) }}
{{- end }}

{{- define "kube-headroom.bookingsUrl" -}}
{{- printf "%s://%s.%s.svc:%d" (ternary "https" "http" .Values.metrics.secure) (include "kube-headroom.bookingsServiceName" .) .Release.Namespace (int .Values.metrics.port) }}
{{- end }}

{{- define "kube-headroom.webhookServiceName" -}}
{{- printf "%s-webhook" (include "kube-headroom.fullname" .) }}
{{- end }}

{{/* Secret names are the runbook's (one operator per namespace). */}}
{{- define "kube-headroom.metricsCertSecret" -}}metrics-server-cert{{- end }}
{{- define "kube-headroom.webhookCertSecret" -}}
{{- if .Values.certmanager.enabled }}webhook-server-cert{{ else }}{{ .Values.webhook.existingCertSecret }}{{ end }}
{{- end }}

{{- define "kube-headroom.metricsCertPath" -}}/tmp/k8s-metrics-server/metrics-certs{{- end }}
{{- define "kube-headroom.webhookCertPath" -}}/tmp/k8s-webhook-server/serving-certs{{- end }}
{{- define "kube-headroom.stateDir" -}}/var/lib/headroom/state{{- end }}
{{- define "kube-headroom.kafkaPropsDir" -}}/etc/headroom/kafka{{- end }}
{{- define "kube-headroom.auditKafkaPropsDir" -}}/etc/headroom/audit-kafka{{- end }}

{{/* Configuration errors the chart can catch before anything reaches the cluster. */}}
{{- define "kube-headroom.validate" -}}
{{- if not .Values.kafka.bootstrapServers }}
{{- fail "kafka.bootstrapServers is required" }}
{{- end }}
{{- if and .Values.metrics.certManagerTLS (not .Values.certmanager.enabled) }}
{{- fail "metrics.certManagerTLS=true needs certmanager.enabled=true" }}
{{- end }}
{{- if and .Values.metrics.certManagerTLS (not .Values.metrics.secure) }}
{{- fail "metrics.certManagerTLS=true needs metrics.secure=true" }}
{{- end }}
{{- if and .Values.webhook.enabled (not .Values.certmanager.enabled) (or (not .Values.webhook.existingCertSecret) (not .Values.webhook.caBundle)) }}
{{- fail "webhook.enabled without cert-manager needs webhook.existingCertSecret and webhook.caBundle" }}
{{- end }}
{{- /* Kafka's legal characters for topic names, group ids and Streams application ids */}}
{{- if not (regexMatch "^[a-zA-Z0-9._-]*$" (toString .Values.kafka.topicPrefix)) }}
{{- fail (printf "kafka.topicPrefix may only contain letters, digits, '.', '_' and '-': %q" (toString .Values.kafka.topicPrefix)) }}
{{- end }}
{{- range $what, $id := dict "topology.applicationId" (include "kube-headroom.applicationId" .) "actuator.groupId" (include "kube-headroom.actuatorGroupId" .) }}
{{- if not (regexMatch "^[a-zA-Z0-9._-]+$" $id) }}
{{- fail (printf "%s may only contain letters, digits, '.', '_' and '-': %q" $what $id) }}
{{- end }}
{{- end }}
{{- if .Values.allInOne.enabled }}
{{- range $stage := list "ingest" "topology" "actuator" "webhook" }}
{{- if (index $.Values $stage).kafka.clientProperties.secretName }}
{{- fail (printf "%s.kafka.clientProperties needs the split stages: with allInOne.enabled every stage runs in one process, which logs in with kafka.clientProperties" $stage) }}
{{- end }}
{{- end }}
{{- end }}
{{- range $stage := list "ingest" "topology" "actuator" "webhook" }}
{{- if and (index $.Values $stage).kafka.clientProperties.secretName $.Values.kafka.envFromSecret }}
{{- fail (printf "%s.kafka.clientProperties cannot be combined with kafka.envFromSecret: its HEADROOM_KAFKA_* variables would override the stage's login" $stage) }}
{{- end }}
{{- end }}
{{- if and .Values.kafka.auditClientProperties.secretName .Values.kafka.envFromSecret }}
{{- fail "kafka.auditClientProperties cannot be combined with kafka.envFromSecret: its HEADROOM_KAFKA_* variables would override the audit identity's login" }}
{{- end }}
{{- if lt (int .Values.kafka.topics.partitions) 1 }}
{{- fail "kafka.topics.partitions must be at least 1" }}
{{- end }}
{{- if lt (int .Values.kafka.topics.replicationFactor) 1 }}
{{- fail "kafka.topics.replicationFactor must be at least 1" }}
{{- end }}
{{- end }}

{{/*
One Headroom container and the pod-level fields around it. Takes a dict:
  root       the chart context ($)
  component  ingest | topology | actuator | webhook | all-in-one
  command    the headroom subcommand (ingest | topology | actuator | webhook | run)
  stage      this component's values (replicas, resources)
  lease      true: leader-elect on the ingest Lease
  state      true: runs the Streams topology (state dir, application id)
  webhook    true: serve the admission webhook
  persistent true: a StatefulSet pod: state on its PVC (every topology pod is a static member by pod name)
*/}}
{{- define "kube-headroom.podSpec" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- /* this stage's own Kafka login (<stage>.kafka.clientProperties), else the release's */}}
{{- $kafkaProps := $v.kafka.clientProperties -}}
{{- if ne .component "all-in-one" }}
{{- if .stage.kafka.clientProperties.secretName }}
{{- $kafkaProps = .stage.kafka.clientProperties -}}
{{- end }}
{{- end }}
serviceAccountName: {{ include "kube-headroom.serviceAccountName" . }}
automountServiceAccountToken: {{ include "kube-headroom.callsApi" (dict "root" $root "component" .component) }}
{{- with $v.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
securityContext:
  {{- toYaml $v.podSecurityContext | nindent 2 }}
containers:
  - name: headroom
    image: {{ include "kube-headroom.image" $root }}
    imagePullPolicy: {{ $v.image.pullPolicy }}
    args:
      - {{ .command }}
      - --kafka-bootstrap-servers={{ $v.kafka.bootstrapServers }}
      {{- if $kafkaProps.secretName }}
      - --kafka-client-properties={{ include "kube-headroom.kafkaPropsDir" $root }}/{{ $kafkaProps.key }}
      {{- end }}
      - --topic-prefix={{ $v.kafka.topicPrefix }}
      - --topic-create={{ $v.kafka.topics.create }}
      - --topic-replication-factor={{ int $v.kafka.topics.replicationFactor }}
      - --topic-min-insync-replicas={{ int (default 2 $v.kafka.topics.minInsyncReplicas) }}
      - --topic-partitions={{ int $v.kafka.topics.partitions }}
      - --topic-retention={{ $v.kafka.topics.retention }}
      - --health-port={{ int $v.health.port }}
      - --metrics-port={{ int $v.metrics.port }}
      - --metrics-secure={{ $v.metrics.secure }}
      - --metrics-auth={{ $v.metrics.auth }}
      - --metrics-pod-series={{ int (default 0 $v.metrics.podSeries) }}
      {{- if $v.metrics.certManagerTLS }}
      - --metrics-cert-path={{ include "kube-headroom.metricsCertPath" $root }}
      {{- end }}
      {{- if .lease }}
      - --leader-election-namespace={{ $root.Release.Namespace }}
      - --leader-election-lease={{ include "kube-headroom.leaseName" $root }}
      {{- end }}
      {{- if .state }}
      - --state-dir={{ include "kube-headroom.stateDir" $root }}
      - --application-id={{ include "kube-headroom.applicationId" $root }}
      - --num-standby-replicas={{ int $v.topology.standbyReplicas }}
      {{- with $v.topology.sessionTimeout }}
      - --session-timeout={{ . }}
      {{- end }}
      {{- with $v.topology.transactionTimeout }}
      - --transaction-timeout={{ . }}
      {{- end }}
      {{- /* static membership always: a container the kubelet restarts (a crash, the stall
      watchdog's exit) keeps its pod name and takes its old member's place at once, instead of
      waiting up to max.poll.interval.ms for a stuck or dead member (docs/reliability.md, finding 7) */}}
      - --group-instance-id=$(HEADROOM_POD_NAME)
      {{- /* advertised to the other instances, which forward explain --live for the nodes this one
      holds (topology DESIGN.md, "Live bookings"); an IPv6 pod IP needs no brackets here: Kafka
      Streams takes the port after the last colon, and LiveBookings brackets it in URLs */}}
      - --application-server=$(HEADROOM_POD_IP):{{ int $v.metrics.port }}
      {{- end }}
      {{- if has .component (list "actuator" "all-in-one") }}
      - --actuator-group-id={{ include "kube-headroom.actuatorGroupId" $root }}
      {{- with $v.actuator.maxDecisionAge }}
      - --max-decision-age={{ . }}
      {{- end }}
      {{- with $v.actuator.sessionTimeout }}
      - --actuator-session-timeout={{ . }}
      {{- end }}
      {{- end }}
      {{- if .webhook }}
      - --webhook-port={{ int $v.webhook.port }}
      - --webhook-cert-dir={{ include "kube-headroom.webhookCertPath" $root }}
      {{- end }}
      {{- with $v.extraArgs }}
      {{- toYaml . | nindent 6 }}
      {{- end }}
    env:
      - name: HEADROOM_POD_NAME
        valueFrom:
          fieldRef:
            fieldPath: metadata.name
      - name: HEADROOM_POD_NAMESPACE
        valueFrom:
          fieldRef:
            fieldPath: metadata.namespace
      {{- if .state }}
      - name: HEADROOM_POD_IP
        valueFrom:
          fieldRef:
            fieldPath: status.podIP
      {{- end }}
      {{- if and (has .component (list "actuator" "all-in-one")) $v.kafka.auditClientProperties.secretName }}
      {{- /* kubectl headroom audit/explain log in with this file instead of the actuator's */}}
      - name: HEADROOM_AUDIT_KAFKA_CLIENT_PROPERTIES
        value: {{ include "kube-headroom.auditKafkaPropsDir" $root }}/{{ $v.kafka.auditClientProperties.key }}
      {{- end }}
      {{- if has .component (list "actuator" "all-in-one") }}
      {{- /* kubectl headroom explain runs in this pod: it asks the topology's bookings Service first */}}
      - name: HEADROOM_LIVE_URL
        value: {{ include "kube-headroom.bookingsUrl" $root | quote }}
      {{- if $v.metrics.certManagerTLS }}
      - name: HEADROOM_LIVE_CA_FILE
        value: {{ include "kube-headroom.metricsCertPath" $root }}/ca.crt
      {{- else if $v.metrics.secure }}
      - name: HEADROOM_LIVE_INSECURE
        value: "true" # the metrics certificate is self-signed per pod: nothing to verify it against
      {{- end }}
      {{- end }}
      - name: JAVA_TOOL_OPTIONS
        value: {{ $v.jvmOptions | quote }}
      - name: HEADROOM_LOG_LEVEL
        value: {{ $v.logging.level | default "info" | quote }}
      - name: HEADROOM_LOG_FORMAT
        value: {{ $v.logging.format | default "text" | quote }}
      {{- with $v.extraEnv }}
      {{- toYaml . | nindent 6 }}
      {{- end }}
    {{- with $v.kafka.envFromSecret }}
    envFrom:
      - secretRef:
          name: {{ . }}
    {{- end }}
    ports:
      - name: metrics
        containerPort: {{ int $v.metrics.port }}
        protocol: TCP
      - name: health
        containerPort: {{ int $v.health.port }}
        protocol: TCP
      {{- if .webhook }}
      - name: webhook
        containerPort: {{ int $v.webhook.port }}
        protocol: TCP
      {{- end }}
    startupProbe:
      httpGet:
        path: /healthz
        port: health
      periodSeconds: 5
      failureThreshold: 30
    livenessProbe:
      httpGet:
        path: /healthz
        port: health
      periodSeconds: 10
      timeoutSeconds: 3
      failureThreshold: 3
    readinessProbe:
      httpGet:
        path: /readyz
        port: health
      periodSeconds: 5
      timeoutSeconds: 3
      failureThreshold: 3
    resources:
      {{- toYaml .stage.resources | nindent 6 }}
    securityContext:
      {{- toYaml $v.securityContext | nindent 6 }}
    volumeMounts:
      - name: tmp
        mountPath: /tmp
      {{- if .state }}
      - name: state
        mountPath: {{ include "kube-headroom.stateDir" $root }}
      {{- end }}
      {{- if $kafkaProps.secretName }}
      - name: kafka-client
        mountPath: {{ include "kube-headroom.kafkaPropsDir" $root }}
        readOnly: true
      {{- end }}
      {{- if and (has .component (list "actuator" "all-in-one")) $v.kafka.auditClientProperties.secretName }}
      - name: audit-kafka-client
        mountPath: {{ include "kube-headroom.auditKafkaPropsDir" $root }}
        readOnly: true
      {{- end }}
      {{- if $v.metrics.certManagerTLS }}
      - name: metrics-certs
        mountPath: {{ include "kube-headroom.metricsCertPath" $root }}
        readOnly: true
      {{- end }}
      {{- if .webhook }}
      - name: webhook-certs
        mountPath: {{ include "kube-headroom.webhookCertPath" $root }}
        readOnly: true
      {{- end }}
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: 256Mi
  {{- if and .state (not .persistent) }}
  - name: state
    emptyDir:
      sizeLimit: {{ $v.topology.stateVolume.sizeLimit }}
  {{- end }}
  {{- if $kafkaProps.secretName }}
  - name: kafka-client
    secret:
      secretName: {{ $kafkaProps.secretName }}
  {{- end }}
  {{- if and (has .component (list "actuator" "all-in-one")) $v.kafka.auditClientProperties.secretName }}
  - name: audit-kafka-client
    secret:
      secretName: {{ $v.kafka.auditClientProperties.secretName }}
  {{- end }}
  {{- if $v.metrics.certManagerTLS }}
  - name: metrics-certs
    secret:
      secretName: {{ include "kube-headroom.metricsCertSecret" $root }}
  {{- end }}
  {{- if .webhook }}
  - name: webhook-certs
    secret:
      secretName: {{ include "kube-headroom.webhookCertSecret" $root }}
  {{- end }}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* A Deployment for one component; same dict as podSpec plus "replicas". */}}
{{- define "kube-headroom.deployment" -}}
{{- $root := .root -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ printf "%s-%s" (include "kube-headroom.fullname" $root) .component }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "kube-headroom.componentLabels" . | nindent 4 }}
spec:
  replicas: {{ int .stage.replicas }}
  revisionHistoryLimit: 3
  selector:
    matchLabels:
      {{- include "kube-headroom.componentSelectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "kube-headroom.componentSelectorLabels" . | nindent 8 }}
        {{- with $root.Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        kubectl.kubernetes.io/default-container: headroom
        {{- with $root.Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      {{- include "kube-headroom.podSpec" . | nindent 6 }}
{{- end }}

{{/* The components this release runs, as a list of podSpec dicts (without root). */}}
{{- define "kube-headroom.components" -}}
{{- if .Values.allInOne.enabled }}
- {component: all-in-one, command: run, values: allInOne, lease: true, state: true, webhook: {{ .Values.webhook.enabled }}}
{{- else }}
- {component: ingest, command: ingest, values: ingest, lease: true, state: false, webhook: false}
- {component: topology, command: topology, values: topology, lease: false, state: true, webhook: false, persistent: {{ .Values.topology.statefulSet.enabled }}}
- {component: actuator, command: actuator, values: actuator, lease: false, state: false, webhook: false}
{{- if .Values.webhook.enabled }}
- {component: webhook, command: webhook, values: webhook, lease: false, state: false, webhook: true}
{{- end }}
{{- end }}
{{- end }}

{{/*
"true" when the component's pod calls the API server and so mounts its token: ingest, actuator and
all-in-one always; topology and webhook only for the metrics port's TokenReview and
SubjectAccessReview (metrics.auth=kubernetes).
*/}}
{{- define "kube-headroom.callsApi" -}}
{{- or (not (has .component (list "topology" "webhook"))) (eq .root.Values.metrics.auth "kubernetes") -}}
{{- end }}
