# Shared by tools/real-node/start and stop: where the node lives, its fixed ports, and the helpers.
# HEADROOM_REAL_NODE_DIR (default /var/tmp/kube-headroom-real-node) holds everything the node writes:
# certificates, etcd's data, containerd's root and state, the kubelet's root, logs/, pids/.
DIR="${HEADROOM_REAL_NODE_DIR:-/var/tmp/kube-headroom-real-node}"
NODE=headroom-real-node
# Fixed, off the ports kube-api-test and the kubelet's defaults take, so the real node can run
# beside the control-plane tests of other work trees.
ETCD_PORT=23791
ETCD_PEER_PORT=23792
APISERVER_PORT=26443
KUBELET_PORT=20250
SERVICE_CIDR=10.96.0.0/24
SERVICE_IP=10.96.0.1
# The CNI bridge only makes containerd report its network ready; the test pods use hostNetwork.
POD_CIDR=10.88.0.0/16
CNI_BRIDGE=headroom-cni0
CNI_BIN_DIR=/usr/lib/cni
# Where cAdvisor (inside the kubelet) looks for containerd; start links it to the node's socket.
STANDARD_CONTAINERD_SOCKET=/run/containerd/containerd.sock
# Started in this order; stopped in the reverse.
COMPONENTS=(etcd kube-apiserver containerd kubelet)
SYSCTLS=(vm.overcommit_memory kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes)

pid_of() { [[ -f "$DIR/pids/$1.pid" ]] && cat "$DIR/pids/$1.pid"; }
alive() { local pid; pid="$(pid_of "$1")" && [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; }
all_running() { local c; for c in "${COMPONENTS[@]}"; do alive "$c" || return 1; done; }

# launch NAME COMMAND...: in its own session, output to logs/NAME.log, pid to pids/NAME.pid.
launch() {
  local name="$1"; shift
  setsid "$@" >"$DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$DIR/pids/$name.pid"
}

# wait_for DESCRIPTION COMPONENT SECONDS COMMAND...: until COMMAND succeeds, while COMPONENT lives.
wait_for() {
  local what="$1" component="$2" seconds="$3"; shift 3
  local deadline=$(( $(date +%s) + seconds ))
  until "$@" >/dev/null 2>&1; do
    if ! alive "$component"; then
      echo "real node: step '$what' failed: $component exited; its last lines ($DIR/logs/$component.log):" >&2
      tail -n 5 "$DIR/logs/$component.log" >&2
      exit 1
    fi
    if (( $(date +%s) > deadline )); then
      echo "real node: step '$what' failed: not within ${seconds} s (see $DIR/logs/$component.log)" >&2
      exit 1
    fi
    sleep 0.5
  done
}

kubectl_admin() { local bin="$1"; shift; "$bin/kubectl" --kubeconfig "$DIR/admin.kubeconfig" "$@"; }
ctr_k8s() { ctr --address "$DIR/containerd/containerd.sock" --namespace k8s.io "$@"; }
node_ready() {
  [[ "$(kubectl_admin "$1" get node "$NODE" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}
node_ip() { hostname -I | awk '{print $1}'; }

save_sysctls() {
  local s; for s in "${SYSCTLS[@]}"; do echo "$s=$(sysctl -n "$s")"; done >"$DIR/sysctls.saved"
}
restore_sysctls() {
  [[ -f "$DIR/sysctls.saved" ]] || return 0
  while IFS= read -r line; do sysctl -q -w "$line" >/dev/null || true; done <"$DIR/sysctls.saved"
  rm -f "$DIR/sysctls.saved"
}
