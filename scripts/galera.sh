#!/usr/bin/env bash
# A MariaDB Galera cluster on loopback, for the tests and for trying paynotify on more than one
# machine (docs/database.md, "More than one machine"). Not a production recipe: every node is on 127.0.0.1,
# root has no password, the memory settings are a laptop's.
#
#   scripts/galera.sh up     [--nodes 3] [--base-port 3311] [--dir target/galera]
#   scripts/galera.sh down   [...]            every node, last one stopped is the next bootstrap
#   scripts/galera.sh status [...]            one line per node; exit 0 only when all are synced
#   scripts/galera.sh kill N [...]            SIGKILL node N (a crash: no shutdown, nothing flushed)
#   scripts/galera.sh start N [...]           start node N again: it rejoins by IST (or SST)
#
# Node N (from 1) answers SQL on base-port+N-1 as root without a password from 127.0.0.1, and talks
# Galera on 4567+10*(N-1) (IST on +1, rsync SST on +2). `up` is idempotent: nodes already running are
# left alone, missing ones are started (the first as a new cluster only when none runs). It installs
# nothing: it says what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '6,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

command=${1:-}
[[ -n $command ]] || usage
shift
node_arg=
if [[ $command == kill || $command == start ]]; then
  node_arg=${1:-}
  [[ $node_arg =~ ^[0-9]+$ ]] || usage
  shift
fi
nodes=3
base_port=3311
dir=target/galera
while [[ $# -gt 0 ]]; do
  case $1 in
    --nodes) nodes=$2; shift 2 ;;
    --base-port) base_port=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ $nodes =~ ^[0-9]+$ && $nodes -ge 1 ]] || usage
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
provider=/usr/lib/galera/libgalera_smm.so
gcomm_base=4567

sql_port() { echo $((base_port + $1 - 1)); }
gcomm_port() { echo $((gcomm_base + 10 * ($1 - 1))); }
node_dir() { echo "$dir/node$1"; }
pid_of() { # the node's pid when its mariadbd runs, else nothing (its own pid file comes only after a state transfer)
  local pidfile
  pidfile="$(node_dir "$1")/launched.pid"
  [[ -s $pidfile ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null && cat "$pidfile" || true
}
client() { # SQL on node $1 over its socket (root@localhost, no password)
  local n=$1
  shift
  mariadb --no-defaults -uroot --socket="$(node_dir "$n")/mariadbd.sock" -N -B "$@"
}
wsrep_state() { client "$1" -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | cut -f2 || true; }

check_installed() {
  local missing=()
  dpkg -s galera-4 >/dev/null 2>&1 && [[ -e $provider ]] || missing+=(galera-4)
  command -v rsync >/dev/null || missing+=(rsync)
  command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null || missing+=(mariadb-server)
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "galera.sh: missing: ${missing[*]} (install with: apt-get install ${missing[*]})" >&2
    exit 3
  fi
  if [[ $(id -u) -eq 0 ]] && ! id mysql >/dev/null 2>&1; then
    echo "galera.sh: no 'mysql' user to run the nodes as (as root the rsync state transfer fails)" >&2
    exit 3
  fi
}

# Small settings: the cluster shares a 2-core machine with the tests that use it.
write_config() {
  local n=$1 d p g i addresses=
  d=$(node_dir "$n")
  p=$(sql_port "$n")
  g=$(gcomm_port "$n")
  for ((i = 1; i <= nodes; i++)); do
    addresses+="${addresses:+,}127.0.0.1:$(gcomm_port "$i")"
  done
  cat >"$d/my.cnf" <<EOF
[mariadbd]
datadir=$d/data
socket=$d/mariadbd.sock
pid-file=$d/mariadbd.pid
log-error=$d/error.log
port=$p
bind-address=127.0.0.1
skip-name-resolve
innodb_buffer_pool_size=64M
innodb_log_file_size=32M
key_buffer_size=1M
aria_pagecache_buffer_size=8M
performance_schema=OFF
max_connections=200
binlog_format=ROW
innodb_autoinc_lock_mode=2
wsrep_on=ON
wsrep_provider=$provider
wsrep_cluster_name=paynotify_test
wsrep_cluster_address=gcomm://$addresses
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1
wsrep_node_incoming_address=127.0.0.1:$p
wsrep_provider_options="base_port=$g;ist.recv_addr=127.0.0.1:$((g + 1));gcache.size=64M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((g + 2))
wsrep_slave_threads=2
EOF
}

init_node() {
  local n=$1 d
  d=$(node_dir "$n")
  mkdir -p "$d"
  write_config "$n"
  if [[ ! -d $d/data/mysql ]]; then
    mariadb-install-db --defaults-file="$d/my.cnf" --auth-root-authentication-method=normal \
      --skip-test-db >"$d/install.log" 2>&1 || { cat "$d/install.log" >&2; exit 1; }
  fi
  # The nodes run as mysql (as root, rsync's daemon drops to nobody and the state transfer fails with
  # code 23), so mysql must be able to reach and write the node's directory.
  if [[ $(id -u) -eq 0 ]]; then
    chown -R mysql:mysql "$d"
    runuser -u mysql -- test -w "$d" || {
      echo "galera.sh: the mysql user cannot reach $d (a parent directory without o+x?)" >&2
      exit 3
    }
  fi
}

# After a crash the node's state file says seqno -1: its position is read back from InnoDB (as
# galera_recovery does under systemd), so that it rejoins by IST from there, not by a full SST.
recovered_position() {
  local n=$1 d
  shift
  d=$(node_dir "$n")
  grep -qs '^seqno: *-1' "$d/data/grastate.dat" || return 0
  mariadbd "$@" --wsrep-recover --log-error="$d/recover.log" >/dev/null 2>&1 || true
  sed -n 's/.*WSREP: Recovered position: *\([^ ]*:[0-9-]*\).*/\1/p' "$d/recover.log" | tail -n 1
}

# Starts node $1 in the background; $2 = new to bootstrap a new cluster from it.
launch() {
  local n=$1 d
  d=$(node_dir "$n")
  local args=(--defaults-file="$d/my.cnf")
  [[ $(id -u) -eq 0 ]] && args+=(--user=mysql)
  [[ ${2:-} == new ]] && args+=(--wsrep-new-cluster)
  local position
  position=$(recovered_position "$n" "${args[@]}")
  [[ -n $position ]] && args+=(--wsrep-start-position="$position")
  nohup mariadbd "${args[@]}" >>"$d/stdout.log" 2>&1 </dev/null &
  echo $! >"$d/launched.pid"
}

# Waits until node $1 is synced with the cluster (after a state transfer, when it joins).
await_synced() {
  local n=$1 i
  for ((i = 0; i < 600; i++)); do
    [[ $(wsrep_state "$n") == Synced ]] && return 0
    if [[ -z $(pid_of "$n") ]]; then
      echo "galera.sh: node $n stopped while starting; the end of $(node_dir "$n")/error.log:" >&2
      tail -n 20 "$(node_dir "$n")/error.log" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "galera.sh: node $n not synced within 120 s; see $(node_dir "$n")/error.log" >&2
  exit 1
}

# The node to bootstrap from when none runs: the one Galera marked safe (the last one stopped),
# else node 1 (after a crash of all nodes: a test cluster, so its newest data is not searched for).
bootstrap_node() {
  local n
  for ((n = 1; n <= nodes; n++)); do
    grep -qs '^safe_to_bootstrap: 1' "$(node_dir "$n")/data/grastate.dat" && { echo "$n"; return; }
  done
  [[ -f $(node_dir 1)/data/grastate.dat ]] && sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' \
    "$(node_dir 1)/data/grastate.dat"
  echo 1
}

start_node() { # as a joiner of the running cluster
  local n=$1
  [[ -n $(pid_of "$n") ]] && return 0
  init_node "$n"
  launch "$n"
  await_synced "$n"
}

cmd_up() {
  check_installed
  local n running=0 first
  for ((n = 1; n <= nodes; n++)); do [[ -n $(pid_of "$n") ]] && running=$((running + 1)); done
  if [[ $running -eq 0 ]]; then
    for ((n = 1; n <= nodes; n++)); do init_node "$n"; done
    first=$(bootstrap_node)
    launch "$first" new
    await_synced "$first"
    # Tests and the service connect over TCP as root; the grant replicates to every node.
    client "$first" -e "CREATE USER IF NOT EXISTS root@'127.0.0.1'; GRANT ALL ON *.* TO root@'127.0.0.1' WITH GRANT OPTION"
  fi
  for ((n = 1; n <= nodes; n++)); do
    # Joiners one after the other: two state transfers at once would compete for the donor.
    start_node "$n"
  done
  cmd_status
}

cmd_down() {
  local n pid i
  # Highest first: node 1, stopped last, is marked safe to bootstrap the next `up` from.
  for ((n = nodes; n >= 1; n--)); do
    pid=$(pid_of "$n")
    [[ -z $pid ]] && continue
    kill -TERM "$pid"
    for ((i = 0; i < 600 && $(kill -0 "$pid" 2>/dev/null && echo 1 || echo 0) == 1; i++)); do sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { echo "galera.sh: node $n (pid $pid) did not stop within 60 s" >&2; exit 1; }
    echo "node $n stopped"
  done
}

cmd_status() {
  local n pid state size all=0
  for ((n = 1; n <= nodes; n++)); do
    pid=$(pid_of "$n")
    if [[ -z $pid ]]; then
      echo "node $n: down (127.0.0.1:$(sql_port "$n"))"
      all=1
      continue
    fi
    state=$(wsrep_state "$n")
    size=$(client "$n" -e "SHOW STATUS LIKE 'wsrep_cluster_size'" 2>/dev/null | cut -f2 || true)
    echo "node $n: pid $pid, 127.0.0.1:$(sql_port "$n"), ${state:-starting}, cluster size ${size:-?}"
    [[ $state == Synced ]] || all=1
  done
  return $all
}

case $command in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  kill)
    pid=$(pid_of "$node_arg")
    [[ -n $pid ]] || { echo "galera.sh: node $node_arg is not running" >&2; exit 1; }
    kill -KILL "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    echo "node $node_arg killed (pid $pid)"
    ;;
  start)
    check_installed
    start_node "$node_arg"
    cmd_status || true
    ;;
  *) usage ;;
esac
