#!/usr/bin/env bash
# make test-slurm: runs marslab on a real single-node Slurm cluster and checks that the results
# are byte-identical to the same jobs run locally.
#
# Needs root on Debian 12 (or a machine with slurmctld, slurmd, the Slurm clients and munge
# installed). It installs Debian's packages if they are missing, writes a one-node slurm.conf
# and a munge socket in a temporary folder (ports 16817/16818, so no other Slurm is touched),
# starts munged, slurmctld and slurmd, checks that the #SBATCH values marslab accepts pass
# `sbatch --test-only` (and that it refuses spaces, tabs, quotes...), submits through
# `marslab slurm submit` a batch of 4
# shard tasks (one made to fail, then the chain resubmitted), a tournament of 3 and (when this
# marslab has the search commands) a sweep, an evolve and a validation of 2-3 steps, waits for
# them, and compares their files with local runs. At exit, also on a failure, it cancels its
# jobs and stops exactly the daemons it started (by their pids).
# KEEP=1 keeps the temporary folder (logs, results).
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { printf '== [%3ds] %s\n' "$SECONDS" "$*"; }
die() { printf 'test-slurm: %s\n' "$*" >&2; exit 1; }

# Packages.
need=()
for c in slurmctld slurmd sbatch munged; do command -v "$c" >/dev/null || need+=("$c"); done
if ((${#need[@]})); then
	[[ $(id -u) == 0 ]] || die "missing ${need[*]}: run as root to install slurmctld slurmd slurm-client munge"
	say "installing slurmctld slurmd slurm-client munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi
[[ $(id -u) == 0 ]] || die "the daemons run as root here: run as root"

tmp=$(mktemp -d /tmp/marslab-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
	status=$?
	set +e
	if [[ -n ${SLURM_CONF:-} && -f $SLURM_CONF ]] && ((${#pids[@]})); then
		scancel --quiet --user=root 2>/dev/null
	fi
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null
	done
	if ((status != 0)); then
		for f in "$tmp"/log/*.log "$tmp"/shared/*/slurm/logs/*.out; do
			[[ -s $f ]] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
		done
	fi
	if [[ ${KEEP:-} == 1 || $status != 0 ]]; then
		echo "test-slurm: files kept in $tmp"
	else
		rm -rf "$tmp"
	fi
	((status == 0)) && echo "test-slurm: PASS" || echo "test-slurm: FAIL" >&2
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge: its own socket, pid and seed files, the system's key (created when missing).
mkdir -p "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/shared" "$tmp/local" "$tmp/bin"
if [[ ! -s /etc/munge/munge.key ]]; then
	say "creating /etc/munge/munge.key"
	mkdir -p /etc/munge
	if command -v mungekey >/dev/null; then mungekey --create --keyfile=/etc/munge/munge.key; else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; fi
	chown munge:munge /etc/munge/munge.key
	chmod 400 /etc/munge/munge.key
fi
chown munge:munge "$tmp/munge"
chmod 700 "$tmp/munge"
sock=$tmp/munge/munge.socket
runuser -u munge -- munged --force --socket="$sock" --pid-file="$tmp/munge/munged.pid" \
	--log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed"
for _ in $(seq 50); do [[ -s $tmp/munge/munged.pid ]] && break; sleep 0.1; done
pids+=("$(cat "$tmp/munge/munged.pid")")
munge --socket="$sock" -n | unmunge --socket="$sock" >/dev/null || die "munge does not answer on $sock"

# slurm.conf: one node (as slurmd -C describes this machine), one partition, no cgroups.
host=$(hostname -s)
node=$(slurmd -C | head -n 1)
[[ $node == NodeName=* ]] || die "slurmd -C printed '$node'"
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=marslabtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,default_queue_depth=100
MpiDefault=none
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

say "starting slurmctld and slurmd ($node)"
slurmctld -f "$SLURM_CONF"
for _ in $(seq 50); do [[ -s $tmp/slurmctld.pid ]] && break; sleep 0.1; done
[[ -s $tmp/slurmctld.pid ]] || die "slurmctld wrote no pid file"
pids+=("$(cat "$tmp/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
for _ in $(seq 50); do [[ -s $tmp/slurmd.pid ]] && break; sleep 0.1; done
[[ -s $tmp/slurmd.pid ]] || die "slurmd wrote no pid file"
pids+=("$(cat "$tmp/slurmd.pid")")
state=
for _ in $(seq 60); do
	state=$(sinfo -h -o %t 2>/dev/null || true)
	[[ $state == idle ]] && break
	sleep 0.5
done
[[ $state == idle ]] || die "the node is '$state', not idle, after 30 s"

say "building marslab"
"${GO:-go}" build -o "$tmp/bin/marslab" ./cmd/marslab
ms=$tmp/bin/marslab

# submit DIR ARGS...: submits through the driver and prints the id of the last job.
submit() {
	local out
	out=$("$ms" slurm submit -marslab "$ms" -out "$@") || die "marslab slurm submit -out $*: $out"
	printf '%s\n' "$out" >&2
	printf '%s\n' "$out" | sed -n 's/^.*: job \([0-9][0-9]*\).*$/\1/p' | tail -n 1
}

# wait_end ID: waits until the job has ended and prints its state (and the reason when it
# was not run).
wait_end() {
	local id=$1 info st
	[[ -n $id ]] || die "no job to wait for (the submit above failed)"
	for _ in $(seq 600); do
		info=$(scontrol -o show job "$id" | head -n 1)
		st=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$info")
		case $st in
		PENDING | CONFIGURING | RUNNING | COMPLETING | SUSPENDED | REQUEUED | RESIZING) sleep 0.5 ;;
		*) echo "$st$(sed -n 's/.* Reason=\(Dependency[^ ]*\).*/ \1/p' <<<"$info")"; return 0 ;;
		esac
	done
	die "job $id has not ended after 300 s"
}

# wait_job ID: waits until the job (the last of a chain) has ended and fails unless it completed.
wait_job() {
	local st
	st=$(wait_end "$1")
	[[ $st == COMPLETED ]] || die "job $1: $st"
}

same() { # same A B FILE...: the files are byte-identical.
	local a=$1 b=$2 f
	shift 2
	for f in "$@"; do cmp "$a/$f" "$b/$f" || die "$f differs between $a and $b"; done
}

say "directives: the #SBATCH values marslab accepts pass sbatch --test-only; the ones it refuses are refused"
# sbatch-test: sbatch --test-only for each job (without its --dependency, which names no real job),
# printing a job id as sbatch --parsable does.
cat >"$tmp/bin/sbatch-test" <<'EOF'
#!/usr/bin/env bash
args=()
for a in "$@"; do [[ $a == --dependency=* || $a == --parsable ]] || args+=("$a"); done
sbatch --test-only "${args[@]}" 2>>"${0%/*}/test-only.log" || exit 1
echo 1
EOF
chmod +x "$tmp/bin/sbatch-test"
odd=$tmp/shared/dir+a@b,c=d~e:f
out=$("$ms" slurm submit -marslab "$ms" -sbatch "$tmp/bin/sbatch-test" -out "$odd" -tasks 2 -name exp.1_a-b \
	-partition test -time 0-00:10:00 -sbatch-opt=--comment=a,b:c=d+e@f -sbatch-opt=--mem=100M -sbatch-opt=--nice=5 \
	batch -- -players aggressive,random -games 4 -seed 1) || die "submit with the accepted forms: $out"
[[ $(grep -c ': job 1' <<<"$out") == 2 ]] || die "sbatch --test-only refused a script: $out"
grep -q '^#SBATCH --comment=a,b:c=d+e@f$' "$odd/slurm/batch-shards.sh" || die "the --comment line is not as given"
[[ $(grep -c 'to start at' "$tmp/bin/test-only.log") == 2 ]] || die "sbatch --test-only said: $(cat "$tmp/bin/test-only.log")"
for bad in "--comment=hello world" $'--comment=a\tb' $'--comment=a\rb' '--comment="open' "--comment='x'" '--comment=a\b'; do
	if "$ms" slurm submit -marslab "$ms" -sbatch "$tmp/bin/sbatch-test" -out "$tmp/shared/bad" -tasks 2 -sbatch-opt="$bad" \
		batch -- -players aggressive,random -games 4 -seed 1 >/dev/null 2>&1; then
		die "marslab accepted -sbatch-opt '$bad'"
	fi
done
for bad in "$tmp/shared/it's" "$tmp/shared/a\"b" "$tmp/shared/a\\b" "$tmp/shared/a b"; do
	if "$ms" slurm submit -marslab "$ms" -sbatch "$tmp/bin/sbatch-test" -out "$bad" -tasks 2 \
		batch -- -players aggressive,random -games 4 -seed 1 >/dev/null 2>&1; then
		die "marslab accepted -out '$bad'"
	fi
done
say "directives: 2 scripts with the accepted forms passed sbatch --test-only; 6 options and 4 folders were refused"

say "batch: 4 shard tasks, then the merge; task 2 fails (a file stands where its folder goes)"
batch=(-players aggressive,random,pacifist,cautious -games 120 -seed 14)
mkdir -p "$tmp/shared/batch/shards"
touch "$tmp/shared/batch/shards/shard-2-of-4"
# The folder holds only a shards folder (the planted file): -resume continues into it.
last=$(submit "$tmp/shared/batch" -resume -tasks 4 batch -- "${batch[@]}")
[[ -n $last ]] || die "the batch was not submitted"
st=$(wait_end "$last")
[[ $st == "CANCELLED DependencyNeverSatisfied" ]] || die "the merge after the failed task: $st, want CANCELLED DependencyNeverSatisfied"
[[ -s $tmp/shared/batch/shards/shard-1-of-4/summary.json && ! -e $tmp/shared/batch/config.json ]] ||
	die "after the failed task: shard 1 should be complete and nothing merged"
say "batch: the merge was cancelled; submitting the chain again (submit.sh), shards 0, 1, 3 are kept"
rm "$tmp/shared/batch/shards/shard-2-of-4"
cp "$tmp/shared/batch/shards/shard-1-of-4/games.jsonl" "$tmp/shard1.jsonl"
again=$(bash "$tmp/shared/batch/slurm/submit.sh")
printf '%s\n' "$again" >&2
array=$(sed -n 's/^shards: job \([0-9]*\).*/\1/p' <<<"$again")
last=$(sed -n 's/^merge: job \([0-9]*\).*/\1/p' <<<"$again")
wait_job "$last"
grep -q "^resumed: 30 of 30 games were done, played 0$" "$tmp/shared/batch/slurm/logs/marslab-batch-${array}_1.out" ||
	die "the resubmitted task 1 did not find its 30 games done"
grep -q "^batch: 120 games (shard 2/4: 30)" "$tmp/shared/batch/slurm/logs/marslab-batch-${array}_2.out" ||
	die "the resubmitted task 2 did not play shard 2/4"
"$ms" batch -quiet "${batch[@]}" -out "$tmp/local/batch"
same "$tmp/local/batch" "$tmp/shared/batch" config.json games.jsonl summary.json
say "batch: games.jsonl, summary.json and config.json are byte-identical to the local run"

say "tournament: 3 shard tasks, then the merge and the tables"
cat >"$tmp/tournament.toml" <<EOF
bots = ["aggressive", "cautious", "random", "pacifist"]
players = 3
replications = 3
rules = "mars2006"
seed = 5
EOF
last=$(submit "$tmp/shared/tournament" -tasks 3 tournament "$tmp/tournament.toml")
wait_job "$last"
"$ms" tournament "$tmp/tournament.toml" -quiet -figures=false -out "$tmp/local/tournament"
same "$tmp/local/tournament" "$tmp/shared/tournament" config.json games.jsonl summary.json table5.md headtohead.md winrate.csv
say "tournament: games, summary and tables are byte-identical to the local run"

# search KIND STEPS CONFIG [FLAGS...]: marslab KIND CONFIG FLAGS, of STEPS steps, in 3 shard tasks per
# step submitted through the driver, then submitted again (a finished search plays nothing); its log
# equals the local run's.
search() {
	local kind=$1 want=$2 cfg=$tmp/$3 steps again
	shift 3
	cp "deploy/slurm/testdata/${cfg##*/}" "$cfg"
	steps=$("$ms" "$kind" "$cfg" -steps "$@")
	[[ $steps == "$want" ]] || die "the test $kind has $steps steps, want $want"
	say "$kind: $steps steps of 3 shard tasks, each followed by its merge"
	wait_job "$(submit "$tmp/shared/$kind" -tasks 3 "$kind" "$cfg" -- "$@")"
	"$ms" "$kind" "$cfg" "$@" -out "$tmp/local/$kind" >/dev/null
	same "$tmp/local/$kind" "$tmp/shared/$kind" config.json log.jsonl
	[[ -s $tmp/shared/$kind/report.md || -s $tmp/shared/$kind/validation.md ]] || die "$kind: the last merge wrote no report"
	say "$kind: log.jsonl is byte-identical to the local run"
	again=$(bash "$tmp/shared/$kind/slurm/submit.sh")
	wait_job "$(sed -n "s/^merge of step $((steps - 1)): job \([0-9]*\).*/\1/p" <<<"$again")"
	same "$tmp/local/$kind" "$tmp/shared/$kind" log.jsonl
	say "$kind: the chain submitted again played nothing: the log is unchanged"
}

# A sweep of 2 steps (2 narrowing levels of one racing round), an evolve of 3 (2 generations and
# the final mean), a validation of 2 (4 blocks in chunks of 2); skipped by a marslab without them.
if "$ms" sweep -h >/dev/null 2>&1; then
	search sweep 2 sweep.toml
	search evolve 3 evolve.toml
	search validate 2 sweep.toml -a "random(stop=0.5)" -b random -blocks 4 -chunk 2
else
	say "search: this marslab has no sweep, evolve and validate commands: skipped"
fi
