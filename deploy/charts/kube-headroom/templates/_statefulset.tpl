{{/*
The topology as a StatefulSet (topology.statefulSet.enabled): each pod keeps its RocksDB state on
its own PVC, so a restart or a rollout restores only what the changelog gained since, not all of
it; and its static member's name (--group-instance-id, the pod name, as for every topology pod)
survives a rollout too, so a restart within session.timeout.ms triggers no rebalance. Same dict
as podSpec.
*/}}
{{- define "kube-headroom.statefulSet" -}}
{{- $root := .root -}}
{{- $sts := $root.Values.topology.statefulSet -}}
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: {{ printf "%s-%s" (include "kube-headroom.fullname" $root) .component }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "kube-headroom.componentLabels" . | nindent 4 }}
spec:
  replicas: {{ int .stage.replicas }}
  serviceName: {{ include "kube-headroom.topologyServiceName" $root }}
  # Streams instances need no ordering: start and replace them all at once.
  podManagementPolicy: Parallel
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
  volumeClaimTemplates:
    - metadata:
        name: state
        labels:
          {{- include "kube-headroom.componentSelectorLabels" . | nindent 10 }}
      spec:
        accessModes: [ReadWriteOnce]
        {{- with $sts.storageClassName }}
        storageClassName: {{ . }}
        {{- end }}
        resources:
          requests:
            storage: {{ $sts.size }}
{{- end }}

{{- define "kube-headroom.topologyServiceName" -}}
{{- printf "%s-topology" (include "kube-headroom.fullname" .) }}
{{- end }}
