#!/usr/bin/env bash
# build.sh TREE OUT
#
# Builds the `benchmarks` module of the Durable source tree TREE (a git worktree or any checkout,
# uncommitted changes included) into a self-contained, runnable folder OUT:
#
#   OUT/benchmarks.jar   the Spring Boot executable jar (workflow-core and every dependency inside)
#   OUT/run.sh           runs it with a JDK >= 21:  OUT/run.sh compare --scenarios=steps3 ...
#   OUT/BUILD-INFO.txt   where it came from: tree, commit, uncommitted changes, JDK, time
#
# TREE is never written to: its files (without .git and target/ folders) are copied to
# OUT/.src and built there with the reactor (./mvnw -pl benchmarks -am package -DskipTests).
# Nothing is installed into ~/.m2 (no `mvn install`); only missing dependencies are downloaded.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 TREE OUT" >&2
  exit 2
fi
TREE=$(cd "$1" && pwd)
OUT=$2
[ -f "$TREE/pom.xml" ] && [ -d "$TREE/benchmarks" ] || { echo "$TREE: no pom.xml / benchmarks module" >&2; exit 2; }

# a JDK >= 21: $JAVA_HOME if it is one, else Temurin 25, else the newest under /usr/lib/jvm
jdk_major() { "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }
pick_jdk() {
  local c m
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    m=$(jdk_major "$c")
    if [ -n "$m" ] && [ "$m" -ge 21 ]; then printf '%s' "$c"; return 0; fi
  done
  return 1
}
JDK=$(pick_jdk) || { echo "no JDK >= 21 found" >&2; exit 1; }
export JAVA_HOME=$JDK

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
case "$OUT/" in "$TREE/"*) echo "OUT must not be inside TREE" >&2; exit 2;; esac
SRC=$OUT/.src
rm -rf "$SRC"
mkdir -p "$SRC"
# copy the sources, not .git or any build output
(cd "$TREE" && tar --exclude=./.git --exclude='./*/target' --exclude=./target -cf - .) | (cd "$SRC" && tar -xf -)

echo "building $TREE in $SRC with $JDK ..." >&2
start=$(date +%s)
(cd "$SRC" && ./mvnw -B -ntp -q -pl benchmarks -am package -DskipTests)
jar=$(ls "$SRC"/benchmarks/target/benchmarks-*.jar | grep -v -e '-plain\.jar$' -e '\.original$' | head -n 1)
[ -f "$jar" ] || { echo "no boot jar in $SRC/benchmarks/target" >&2; exit 1; }
cp "$jar" "$OUT/benchmarks.jar"

cat > "$OUT/run.sh" <<EOF
#!/usr/bin/env bash
# runs this folder's benchmark build: run.sh compare --scenarios=steps3 [--option=value ...]
# JAVA_HOME (a JDK >= 21) overrides the JDK it was built with; BENCH_JAVA_OPTS adds JVM options
here=\$(cd "\$(dirname "\$0")" && pwd)
java_home=\${JAVA_HOME:-$JDK}
exec "\$java_home/bin/java" \${BENCH_JAVA_OPTS:-} -jar "\$here/benchmarks.jar" "\$@"
EOF
chmod +x "$OUT/run.sh"

{
  echo "tree: $TREE"
  if git -C "$TREE" rev-parse HEAD >/dev/null 2>&1; then
    echo "branch: $(git -C "$TREE" rev-parse --abbrev-ref HEAD)"
    echo "commit: $(git -C "$TREE" log -1 --format='%H %s')"
    changes=$(git -C "$TREE" status --porcelain --untracked-files=no)
    if [ -n "$changes" ]; then echo "uncommitted changes (built as they were):"; echo "$changes" | sed 's/^/  /'; else echo "uncommitted changes: none"; fi
  fi
  echo "jdk: $JDK ($("$JDK/bin/java" -version 2>&1 | head -n 1))"
  echo "built: $(date -u '+%Y-%m-%d %H:%M:%S UTC') in $(( $(date +%s) - start )) s"
  echo "jar: $(basename "$jar"), sha256 $(sha256sum "$OUT/benchmarks.jar" | cut -d' ' -f1)"
} > "$OUT/BUILD-INFO.txt"
# the copied sources are only needed for the build
rm -rf "$SRC"
cat "$OUT/BUILD-INFO.txt"
echo "run: $OUT/run.sh compare --scenarios=steps3" >&2
