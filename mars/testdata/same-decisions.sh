#!/bin/sh
# same-decisions.sh BEFORE AFTER OUT: checks that two builds of marslab make the
# same decisions (a speed change must not alter any game). BEFORE and AFTER are
# marslab binaries (e.g. `go build -o /tmp/before ./cmd/marslab` on the old
# commit); each plays, into OUT/before and OUT/after, the 1716-game paper
# tournament and six 300-game batches (mars@paper, whose goal_paths is all at
# G_l 5, against Lux-style bots and under mars2006-escalating, mars@paper with
# goal_paths = shortest beside it against Lux-style bots, the calibrated
# mars@paperfield, and goal_paths = all at G_l 6 and 8), and the
# games.jsonl files are compared with cmp. BEFORE may also be the before
# directory of an earlier run (OUT/before), whose games are then compared
# without playing them again. Run from the repository root;
# the golden games are checked by `go test ./mars ./bots/registry -run Golden`.
set -e
[ $# -eq 3 ] || { echo "usage: $0 BEFORE AFTER OUT" >&2; exit 2; }
[ ! -e "$3" ] || { echo "$0: $3 exists; give a new directory" >&2; exit 2; }
play() {
	bin=$1 out=$2
	mkdir -p "$out"
	nice -n 5 "$bin" tournament configs/experiments/paper-tournament.toml -out "$out/tourney" -quiet -figures=false
	nice -n 5 "$bin" batch -quiet -players 'mars(goal_paths=all),angry,communist,stinky,cluster,pixie' -games 300 -seed 7 -out "$out/all"
	nice -n 5 "$bin" batch -quiet -rules mars2006-escalating -players 'mars,angry,communist,stinky,cluster,shaft' -games 300 -seed 8 -out "$out/esc"
	nice -n 5 "$bin" batch -quiet -players 'mars(goal_paths=shortest),mars,boscoe,quo,evilpixie,yakool' -games 300 -seed 9 -out "$out/mix"
	nice -n 5 "$bin" batch -quiet -players 'mars@paperfield,evilpixie,pixie,shaft,bort,boscoe' -games 300 -seed 10 -out "$out/field"
	nice -n 5 "$bin" batch -quiet -players 'mars(goal_paths=all;G_l=6),mars@paperfield,angry,communist,evilpixie,quo' -games 300 -seed 11 -out "$out/gl6"
	nice -n 5 "$bin" batch -quiet -players 'mars(goal_paths=all;G_l=8),stinky,cluster,pixie,shaft,yakool' -games 300 -seed 12 -out "$out/gl8"
}
if [ -d "$1" ]; then
	mkdir -p "$3"
	ln -s "$(cd "$1" && pwd)" "$3/before"
else
	play "$1" "$3/before"
fi
play "$2" "$3/after"
status=0
for d in tourney all esc mix field gl6 gl8; do
	if cmp "$3/before/$d/games.jsonl" "$3/after/$d/games.jsonl"; then
		echo "$d: identical, $(wc -l <"$3/after/$d/games.jsonl") games"
	else
		status=1
	fi
done
exit $status
