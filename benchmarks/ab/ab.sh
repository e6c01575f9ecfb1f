#!/usr/bin/env bash
# ab.sh A B N [harness options ...]
#
# Same-run A/B of the benchmark's 3-step scenario. A and B are folders made by build.sh (each
# holds run.sh + benchmarks.jar). Runs `compare --scenarios=steps3 [harness options]` with A,
# then B, then A, then B ... N times each, one JVM and one embedded PostgreSQL per run (the
# harness starts and deletes its own), and saves each run's stdout to $OUT_DIR/<label>-<i>.txt
# (stderr to <label>-<i>.err, exit code and wall time to <label>-<i>.meta). Then prints the table
# (abtable.py): per client count, Durable's and DBOS's workflows/s, p50, p99 of every run, the
# medians, and B/A of the medians.
#
# Extra arguments go to the harness after --scenarios=steps3, e.g. --rounds=1 --measure-ms=2000
# (the harness takes the last value of an option given twice).
#
# Environment:
#   OUT_DIR   where the outputs go [${TMPDIR:-/tmp}/durable-ab]; earlier <label>-<i>.* files there are moved
#             to $OUT_DIR/prev-<time>/ first
#   A_LABEL, B_LABEL   names in the file names and the table [A, B]
#   PAUSE     seconds to wait between runs [5]
#   ORDER     ab (A,B,A,B,...) [default] or abba (A,B,B,A,A,B,...: cancels a linear drift)
#   JAVA_HOME / BENCH_JAVA_OPTS   passed to run.sh (JDK >= 21; extra JVM options)
#
# Only the report again, from saved outputs:  ab.sh --report [A_LABEL B_LABEL]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${OUT_DIR:-${TMPDIR:-/tmp}/durable-ab}
A_LABEL=${A_LABEL:-A}
B_LABEL=${B_LABEL:-B}
PAUSE=${PAUSE:-5}
ORDER=${ORDER:-ab}
# the harness formats numbers in the JVM's default locale; the parser expects 1,234.56
export LC_ALL=C.UTF-8 LANG=C.UTF-8

if [ "${1:-}" = "--report" ]; then
  exec python3 "$here/abtable.py" "$OUT_DIR" "${2:-$A_LABEL}" "${3:-$B_LABEL}"
fi
if [ $# -lt 3 ]; then
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
N=$3
shift 3
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a positive number, not '$N'" >&2; exit 2; }
[ "$A_LABEL" != "$B_LABEL" ] || { echo "A_LABEL and B_LABEL must differ" >&2; exit 2; }
for d in "$A" "$B"; do
  [ -x "$d/run.sh" ] && [ -f "$d/benchmarks.jar" ] || { echo "$d: no run.sh / benchmarks.jar (make it with build.sh)" >&2; exit 2; }
done
case "$ORDER" in ab|abba) ;; *) echo "ORDER is ab or abba, not '$ORDER'" >&2; exit 2;; esac

mkdir -p "$OUT_DIR"
shopt -s nullglob
old=("$OUT_DIR/$A_LABEL"-[0-9]*.* "$OUT_DIR/$B_LABEL"-[0-9]*.*)
if [ ${#old[@]} -gt 0 ]; then
  prev="$OUT_DIR/prev-$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$prev"
  mv "${old[@]}" "$prev/"
  [ -f "$OUT_DIR/results.csv" ] && mv "$OUT_DIR/results.csv" "$prev/"
  echo "earlier outputs moved to $prev" >&2
fi
shopt -u nullglob

{
  echo "ab.sh started $(date -u '+%Y-%m-%d %H:%M:%S UTC'), N=$N, order $ORDER, harness: compare --scenarios=steps3 $*"
  echo "A ($A_LABEL) = $A"; sed 's/^/  /' "$A/BUILD-INFO.txt" 2>/dev/null || true
  echo "B ($B_LABEL) = $B"; sed 's/^/  /' "$B/BUILD-INFO.txt" 2>/dev/null || true
} | tee "$OUT_DIR/ab-session.txt" >&2

run_one() { # dir label i
  local dir=$1 label=$2 i=$3 base="$OUT_DIR/$2-$3" t0 rc
  echo "[$(date '+%H:%M:%S')] $label-$i: load $(cut -d' ' -f1-3 /proc/loadavg) ..." >&2
  t0=$(date +%s.%N)
  set +e
  (cd "$OUT_DIR" && "$dir/run.sh" compare --scenarios=steps3 "${harness[@]}") >"$base.txt" 2>"$base.err"
  rc=$?
  set -e
  local secs
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  printf 'dir=%s\nexit=%s\nwall_s=%s\nargs=compare --scenarios=steps3 %s\n' "$dir" "$rc" "$secs" "${harness[*]}" >"$base.meta"
  echo "[$(date '+%H:%M:%S')] $label-$i: exit $rc, ${secs} s" >&2
  [ "$rc" -eq 0 ] || echo "  $label-$i FAILED (exit $rc): see $base.txt and $base.err" >&2
}

harness=("$@")
first=1
for ((i = 1; i <= N; i++)); do
  if [ "$ORDER" = abba ] && [ $((i % 2)) -eq 0 ]; then
    pair=("$B" "$B_LABEL" "$A" "$A_LABEL")
  else
    pair=("$A" "$A_LABEL" "$B" "$B_LABEL")
  fi
  for k in 0 2; do
    [ $first -eq 1 ] || sleep "$PAUSE"
    first=0
    run_one "${pair[$k]}" "${pair[$((k + 1))]}" "$i"
  done
done
echo >&2
python3 "$here/abtable.py" "$OUT_DIR" "$A_LABEL" "$B_LABEL" | tee "$OUT_DIR/ab-table.txt"
