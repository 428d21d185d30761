#!/usr/bin/env bash
# Redis, a single-node Kafka (KRaft, broker+controller in one JVM) and a
# GraphHopper 11 server on the starter's Accra roads, on loopback, for the
# integration tests and for local development.
#
#   .ci/services.sh start    start both (or reuse what already answers) and wait until ready
#   .ci/services.sh stop     stop what this script started
#   .ci/services.sh status   say what is running
#   .ci/services.sh env      print the variables the tests read
#
# Ports come from REDIS_PORT (6390), KAFKA_PORT (9092), MONGO_PORT (27018) and
# KAFKA_CONTROLLER_PORT (9093): not the defaults, so a system Redis or Kafka
# is never touched. The broker runs from jars Maven copies out of Central
# (.ci/kafka-pom.xml), so CI needs no Apache mirror. Each start formats a new
# cluster in a fresh temporary directory: tests never see a previous run's
# topics.
#
# .ci/run sources this file and calls the functions itself; run directly, the
# dispatch at the bottom applies.

CI_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(dirname "$CI_DIR")"
REDIS_PORT="${REDIS_PORT:-6390}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
GRAPHHOPPER_PORT="${GRAPHHOPPER_PORT:-8989}"
GRAPHHOPPER_ADMIN_PORT="${GRAPHHOPPER_ADMIN_PORT:-8990}"
GRAPHHOPPER_START_TIMEOUT="${GRAPHHOPPER_START_TIMEOUT:-180}"
KAFKA_POM="$CI_DIR/kafka-pom.xml"
KAFKA_LIB="$CI_DIR/kafka/lib"   # ignored by the root .gitignore (.ci/kafka/)
STATE_DIR="$CI_DIR/state"       # ignored by .ci/.gitignore
# Keyed by port, so a second set (other ports) can run beside the first.
REDIS_PID="$STATE_DIR/redis-$REDIS_PORT.pid"
REDIS_LOG="$STATE_DIR/redis-$REDIS_PORT.log"
KAFKA_RUN="$STATE_DIR/kafka-$KAFKA_PORT"
KAFKA_PID="$KAFKA_RUN/kafka.pid"
KAFKA_LOG="$KAFKA_RUN/kafka.log"

GRAPHHOPPER_POM="$CI_DIR/graphhopper-pom.xml"
GRAPHHOPPER_LIB="$CI_DIR/graphhopper/lib"   # ignored by .ci/.gitignore
GRAPHHOPPER_RUN="$STATE_DIR/graphhopper-$GRAPHHOPPER_PORT"
GRAPHHOPPER_PID="$GRAPHHOPPER_RUN/graphhopper.pid"
GRAPHHOPPER_LOG="$GRAPHHOPPER_RUN/graphhopper.log"

# mongo-java-server: a MongoDB wire-protocol server in Java (NOT MongoDB) for
# the Mongo adapters' contract suites.
MONGO_PORT="${MONGO_PORT:-27018}"
MONGO_POM="$CI_DIR/mongo-pom.xml"
MONGO_LIB="$CI_DIR/mongo/lib"           # ignored by .ci/.gitignore
MONGO_CLASSES="$CI_DIR/mongo/classes"   # ignored by .ci/.gitignore
MONGO_PID="$STATE_DIR/mongo-$MONGO_PORT.pid"
MONGO_LOG="$STATE_DIR/mongo-$MONGO_PORT.log"

# Set by the start functions when this shell started the service (not when it
# reused one), so a trap in .ci/run stops only its own.
STARTED_REDIS=""
STARTED_KAFKA=""
STARTED_GRAPHHOPPER=""
STARTED_MONGO=""

say() { printf '==> %s\n' "$*"; }
warn() { printf '==> WARNING: %s\n' "$*" >&2; }
die() { printf '==> ERROR: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

pid_alive() { # pid file, text its command line must contain
  # The command check keeps a stale pid file (after a reboot, say) from
  # naming, and stop from killing, an unrelated process that got the pid.
  local pid
  [[ -f "$1" ]] && pid=$(cat "$1") && kill -0 "$pid" 2>/dev/null &&
    [[ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" == *"$2"* ]]
}

port_open() { # port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

redis_ping() {
  # Plain RESP over bash's /dev/tcp: no dependency on redis-cli.
  local reply
  reply=$( (
    exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT" || exit 1
    printf 'PING\r\n' >&3
    IFS= read -r -t 2 line <&3 && printf '%s' "$line"
  ) 2>/dev/null) || true
  [[ "$reply" == "+PONG"* ]]
}

kafka_ready() {
  if [[ -d "$REPO_DIR/node_modules/kafkajs" ]]; then
    node "$CI_DIR/kafka-ready.mjs" "127.0.0.1:$KAFKA_PORT" 2>/dev/null
  else
    # Before `npm ci` there is no client: the broker's own start-up line will do.
    port_open "$KAFKA_PORT" && grep -q 'Kafka Server started' "$KAFKA_LOG" 2>/dev/null
  fi
}

# ---------------------------------------------------------------- Redis

start_redis() {
  mkdir -p "$STATE_DIR"
  if pid_alive "$REDIS_PID" redis-server && redis_ping; then
    say "redis already running on 127.0.0.1:$REDIS_PORT (pid $(cat "$REDIS_PID"))"
    return 0
  fi
  if redis_ping; then
    say "redis: something already answers PONG on 127.0.0.1:$REDIS_PORT; reusing it (not started here, will not be stopped here)"
    return 0
  fi
  port_open "$REDIS_PORT" && die "port $REDIS_PORT is taken by something that is not Redis; set REDIS_PORT"
  command -v redis-server >/dev/null || die "redis-server not found (apt-get install redis-server)"
  local t0; t0=$(now)
  say "starting redis on 127.0.0.1:$REDIS_PORT"
  # Throw-away cache for tests: no RDB snapshots, no AOF.
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --daemonize yes --pidfile "$REDIS_PID" --logfile "$REDIS_LOG" \
    --dir "$STATE_DIR" >/dev/null ||
    die "redis-server did not start: $(tail -n 20 "$REDIS_LOG" 2>/dev/null)"
  local i
  for ((i = 0; i < 100; i++)); do
    if redis_ping; then
      STARTED_REDIS=1
      say "redis up in $(took "$t0")"
      return 0
    fi
    sleep 0.1
  done
  tail -n 20 "$REDIS_LOG" >&2 2>/dev/null
  die "redis did not answer PING within 10 s"
}

stop_redis() {
  if pid_alive "$REDIS_PID" redis-server; then
    say "stopping redis (pid $(cat "$REDIS_PID"))"
    stop_pid "$(cat "$REDIS_PID")" 10
  fi
  rm -f "$REDIS_PID"
}

# ---------------------------------------------------------------- Kafka

fetch_kafka() {
  command -v java >/dev/null || die "java not found (apt-get install openjdk-17-jre-headless)"
  command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
  # The copy is redone only when the pom changes; a warm run costs one sha256sum.
  local stamp; stamp=$(sha256sum "$KAFKA_POM" | cut -d' ' -f1)
  if [[ -f "$KAFKA_LIB/.pom-sha256" && "$(cat "$KAFKA_LIB/.pom-sha256")" == "$stamp" ]]; then
    say "kafka jars up to date ($(find "$KAFKA_LIB" -name '*.jar' | wc -l) jars in .ci/kafka/lib)"
    return 0
  fi
  local t0; t0=$(now)
  say "fetching kafka jars from Maven Central"
  rm -rf "$KAFKA_LIB"
  mkdir -p "$STATE_DIR"
  # -q leaves only errors, shown if Maven fails. Debian's Maven 3.8.7 prints
  # colour resets even in batch mode, hence the sed.
  if ! mvn -q -B -f "$KAFKA_POM" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIB" >"$STATE_DIR/maven.log" 2>&1; then
    sed -e $'s/\e\\[[0-9;]*m//g' -e '/^[[:space:]]*$/d' "$STATE_DIR/maven.log" >&2
    die "maven could not fetch the kafka jars (errors above, full output in $STATE_DIR/maven.log)"
  fi
  echo "$stamp" >"$KAFKA_LIB/.pom-sha256"
  say "kafka jars fetched in $(took "$t0") ($(find "$KAFKA_LIB" -name '*.jar' | wc -l) jars)"
}

write_kafka_config() { # data dir
  cat >"$KAFKA_RUN/server.properties" <<EOF
# Generated by .ci/services.sh; edits are lost on the next start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$1
auto.create.topics.enable=true
# Several partitions by default, so per-key ordering is exercised for real.
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
# One broker: every internal topic has a single replica, and few partitions
# so the first consumer group and producer id come up quickly.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
EOF
  cat >"$KAFKA_RUN/log4j2.properties" <<'EOF'
# Everything to stdout, which services.sh sends to .ci/state/kafka-<port>/kafka.log.
status = warn
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.out.ref = out
logger.state.name = state.change.logger
logger.state.level = warn
logger.request.name = kafka.request.logger
logger.request.level = warn
EOF
}

launch_kafka() {
  mkdir -p "$STATE_DIR"
  if pid_alive "$KAFKA_PID" kafka.Kafka; then
    say "kafka already running on 127.0.0.1:$KAFKA_PORT (pid $(cat "$KAFKA_PID"))"
    return 0
  fi
  if port_open "$KAFKA_PORT"; then
    kafka_ready || die "port $KAFKA_PORT is taken by something that is not a ready Kafka broker; set KAFKA_PORT"
    say "kafka: a broker already answers on 127.0.0.1:$KAFKA_PORT; reusing it (not started here, will not be stopped here)"
    return 0
  fi
  port_open "$KAFKA_CONTROLLER_PORT" && die "controller port $KAFKA_CONTROLLER_PORT is taken; set KAFKA_CONTROLLER_PORT"
  fetch_kafka

  mkdir -p "$KAFKA_RUN"
  clean_kafka_data # left behind if the previous broker died unattended
  local t0; t0=$(now)
  local cp="$KAFKA_LIB/*"
  local data_dir; data_dir=$(mktemp -d "${TMPDIR:-/tmp}/ci-kafka.XXXXXX")
  echo "$data_dir" >"$KAFKA_RUN/data-dir"
  STARTED_KAFKA=1 # from here on, stop_kafka has something to clean up
  write_kafka_config "$data_dir"
  local tool_opts=(-Xmx256m -Dlog4j2.configurationFile="$KAFKA_RUN/log4j2.properties" -cp "$cp")
  # The two steps behind bin/kafka-storage.sh: a cluster id, then a formatted
  # metadata log. KRaft refuses to start on an unformatted directory.
  local cluster_id=""
  if ! cluster_id=$(java "${tool_opts[@]}" kafka.tools.StorageTool random-uuid 2>"$KAFKA_RUN/format.log" | tail -n 1) ||
    ! java "${tool_opts[@]}" kafka.tools.StorageTool format --cluster-id "$cluster_id" \
      --config "$KAFKA_RUN/server.properties" >>"$KAFKA_RUN/format.log" 2>&1; then
    grep -m 3 -E 'Exception|Error' "$KAFKA_RUN/format.log" >&2 || tail -n 20 "$KAFKA_RUN/format.log" >&2
    clean_kafka_data
    die "formatting kafka storage failed (kafka.tools.StorageTool; full output in $KAFKA_RUN/format.log)"
  fi

  say "starting kafka on 127.0.0.1:$KAFKA_PORT (controller 127.0.0.1:$KAFKA_CONTROLLER_PORT, cluster $cluster_id, data $data_dir)"
  # The JVM flags bin/kafka-server-start.sh uses, with a heap for a 2-core CI box.
  # setsid: the broker outlives this shell (services.sh start returns at once).
  setsid java -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent \
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_RUN/log4j2.properties" \
    -cp "$cp" kafka.Kafka "$KAFKA_RUN/server.properties" \
    </dev/null >"$KAFKA_LOG" 2>&1 &
  echo $! >"$KAFKA_PID"
  KAFKA_LAUNCHED_AT=$t0
}

wait_kafka() {
  local t0="${KAFKA_LAUNCHED_AT:-$(now)}" since="after launch"
  [[ -n "${KAFKA_LAUNCHED_AT:-}" ]] || since="of waiting"
  local deadline=$((SECONDS + KAFKA_START_TIMEOUT))
  say "waiting for kafka (up to ${KAFKA_START_TIMEOUT}s)"
  while ((SECONDS < deadline)); do
    if [[ -f "$KAFKA_PID" ]] && ! pid_alive "$KAFKA_PID" kafka.Kafka; then
      printf -- '--- last lines of %s\n' "$KAFKA_LOG" >&2
      tail -n 40 "$KAFKA_LOG" >&2
      die "the kafka broker exited during start-up"
    fi
    if kafka_ready; then
      say "kafka ready on 127.0.0.1:$KAFKA_PORT ($(took "$t0") $since)"
      return 0
    fi
    sleep 1
  done
  printf -- '--- last lines of %s\n' "$KAFKA_LOG" >&2
  tail -n 40 "$KAFKA_LOG" >&2
  die "kafka did not become ready within ${KAFKA_START_TIMEOUT}s"
}

stop_kafka() {
  if pid_alive "$KAFKA_PID" kafka.Kafka; then
    say "stopping kafka (pid $(cat "$KAFKA_PID"))"
    # A controlled shutdown of a single node takes a few seconds.
    stop_pid "$(cat "$KAFKA_PID")" 30
  fi
  rm -f "$KAFKA_PID"
  clean_kafka_data
}

clean_kafka_data() {
  if [[ -f "$KAFKA_RUN/data-dir" ]]; then
    local dir; dir=$(cat "$KAFKA_RUN/data-dir")
    [[ "$dir" == */ci-kafka.* ]] && rm -rf "$dir"
    rm -f "$KAFKA_RUN/data-dir"
  fi
  return 0
}

# ---------------------------------------------------------------- GraphHopper

graphhopper_ready() {
  # /info answers once the graph is imported and the CH preparation is done.
  (exec 3<>"/dev/tcp/127.0.0.1/$GRAPHHOPPER_PORT" && printf 'GET /info HTTP/1.0\r\n\r\n' >&3 && IFS= read -r -t 2 line <&3 && [[ "$line" == *" 200 "* ]]) 2>/dev/null
}

fetch_graphhopper() {
  command -v java >/dev/null || die "java not found (apt-get install openjdk-17-jre-headless)"
  command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
  local stamp; stamp=$(sha256sum "$GRAPHHOPPER_POM" | cut -d' ' -f1)
  if [[ -f "$GRAPHHOPPER_LIB/.pom-sha256" && "$(cat "$GRAPHHOPPER_LIB/.pom-sha256")" == "$stamp" ]]; then
    say "graphhopper jar up to date (.ci/graphhopper/lib)"
    return 0
  fi
  local t0; t0=$(now)
  say "fetching the graphhopper-web jar from Maven Central"
  rm -rf "$GRAPHHOPPER_LIB"
  mkdir -p "$STATE_DIR"
  # The graphhopper-web jar is shaded (runnable on its own): no transitive dependencies.
  if ! mvn -q -B -f "$GRAPHHOPPER_POM" dependency:copy-dependencies -DexcludeTransitive=true \
    -DincludeScope=runtime -DoutputDirectory="$GRAPHHOPPER_LIB" >"$STATE_DIR/maven-graphhopper.log" 2>&1; then
    sed -e $'s/\e\\[[0-9;]*m//g' -e '/^[[:space:]]*$/d' "$STATE_DIR/maven-graphhopper.log" >&2
    die "maven could not fetch the graphhopper jar (full output in $STATE_DIR/maven-graphhopper.log)"
  fi
  echo "$stamp" >"$GRAPHHOPPER_LIB/.pom-sha256"
  say "graphhopper jar fetched in $(took "$t0")"
}

launch_graphhopper() {
  mkdir -p "$GRAPHHOPPER_RUN"
  if pid_alive "$GRAPHHOPPER_PID" graphhopper-web; then
    say "graphhopper already running on 127.0.0.1:$GRAPHHOPPER_PORT (pid $(cat "$GRAPHHOPPER_PID"))"
    return 0
  fi
  if port_open "$GRAPHHOPPER_PORT"; then
    graphhopper_ready || die "port $GRAPHHOPPER_PORT is taken by something that is not GraphHopper; set GRAPHHOPPER_PORT"
    say "graphhopper: a server already answers on 127.0.0.1:$GRAPHHOPPER_PORT; reusing it (not started here, will not be stopped here)"
    return 0
  fi
  fetch_graphhopper
  local t0; t0=$(now)
  # GraphHopper reads .osm or .osm.pbf, not gzip: the starter's roads, decompressed. A fresh graph each start.
  gzip -dc "$REPO_DIR/starter/ghana/roads/roads.osm.gz" >"$GRAPHHOPPER_RUN/accra.osm"
  rm -rf "$GRAPHHOPPER_RUN/graph-cache"
  sed -e "s#@OSM@#$GRAPHHOPPER_RUN/accra.osm#" -e "s#@DATA@#$GRAPHHOPPER_RUN/graph-cache#" -e "s#@MODELS@#$CI_DIR/graphhopper#" \
    -e "s#@PORT@#$GRAPHHOPPER_PORT#" -e "s#@ADMIN_PORT@#$GRAPHHOPPER_ADMIN_PORT#" "$CI_DIR/graphhopper/config.yml" >"$GRAPHHOPPER_RUN/config.yml"
  say "starting graphhopper on 127.0.0.1:$GRAPHHOPPER_PORT (Accra starter roads)"
  STARTED_GRAPHHOPPER=1
  setsid java -Xms256m -Xmx1g -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
    -jar "$GRAPHHOPPER_LIB/graphhopper-web-11.0.jar" server "$GRAPHHOPPER_RUN/config.yml" \
    </dev/null >"$GRAPHHOPPER_LOG" 2>&1 &
  echo $! >"$GRAPHHOPPER_PID"
  GRAPHHOPPER_LAUNCHED_AT=$t0
}

wait_graphhopper() {
  local t0="${GRAPHHOPPER_LAUNCHED_AT:-$(now)}"
  local deadline=$((SECONDS + GRAPHHOPPER_START_TIMEOUT))
  say "waiting for graphhopper (up to ${GRAPHHOPPER_START_TIMEOUT}s)"
  while ((SECONDS < deadline)); do
    if [[ -f "$GRAPHHOPPER_PID" ]] && ! pid_alive "$GRAPHHOPPER_PID" graphhopper-web; then
      tail -n 40 "$GRAPHHOPPER_LOG" >&2
      die "graphhopper exited during start-up"
    fi
    if graphhopper_ready; then
      say "graphhopper ready on 127.0.0.1:$GRAPHHOPPER_PORT ($(took "$t0"))"
      return 0
    fi
    sleep 1
  done
  tail -n 40 "$GRAPHHOPPER_LOG" >&2
  die "graphhopper did not become ready within ${GRAPHHOPPER_START_TIMEOUT}s"
}

stop_graphhopper() {
  if pid_alive "$GRAPHHOPPER_PID" graphhopper-web; then
    say "stopping graphhopper (pid $(cat "$GRAPHHOPPER_PID"))"
    stop_pid "$(cat "$GRAPHHOPPER_PID")" 20
  fi
  rm -f "$GRAPHHOPPER_PID"
  rm -rf "$GRAPHHOPPER_RUN/graph-cache" "$GRAPHHOPPER_RUN/accra.osm"
}

# ---------------------------------------------------------------- mongo-java-server

fetch_mongo() {
  command -v javac >/dev/null || die "javac not found (apt-get install openjdk-17-jdk-headless)"
  command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
  local stamp; stamp=$(cat "$MONGO_POM" "$CI_DIR/mongo/MongoServerMain.java" | sha256sum | cut -d' ' -f1)
  if [[ -f "$MONGO_CLASSES/.sha256" && "$(cat "$MONGO_CLASSES/.sha256")" == "$stamp" ]]; then
    say "mongo-java-server up to date (.ci/mongo)"
    return 0
  fi
  local t0; t0=$(now)
  say "fetching mongo-java-server (memory backend) from Maven Central"
  rm -rf "$MONGO_LIB" "$MONGO_CLASSES"
  mkdir -p "$STATE_DIR" "$MONGO_CLASSES"
  # -DoutputDirectory must be absolute: Maven resolves a relative one against the pom.
  if ! mvn -q -B -f "$MONGO_POM" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$MONGO_LIB" >"$STATE_DIR/maven-mongo.log" 2>&1; then
    tail -n 40 "$STATE_DIR/maven-mongo.log" >&2
    die "maven could not fetch mongo-java-server (full output in $STATE_DIR/maven-mongo.log)"
  fi
  javac -d "$MONGO_CLASSES" -cp "$MONGO_LIB/*" "$CI_DIR/mongo/MongoServerMain.java"
  echo "$stamp" >"$MONGO_CLASSES/.sha256"
  say "mongo-java-server fetched and its launcher compiled in $(took "$t0")"
}

start_mongo() {
  mkdir -p "$STATE_DIR"
  if pid_alive "$MONGO_PID" MongoServerMain; then
    say "mongo-java-server already running on 127.0.0.1:$MONGO_PORT (pid $(cat "$MONGO_PID"))"
    return 0
  fi
  port_open "$MONGO_PORT" && die "port $MONGO_PORT is taken by something else; set MONGO_PORT"
  fetch_mongo
  local t0; t0=$(now)
  STARTED_MONGO=1
  setsid java -Xmx512m -cp "$MONGO_CLASSES:$MONGO_LIB/*" MongoServerMain "$MONGO_PORT" </dev/null >"$MONGO_LOG" 2>&1 &
  echo $! >"$MONGO_PID"
  local i
  for ((i = 0; i < 300; i++)); do
    if port_open "$MONGO_PORT"; then
      say "mongo-java-server on 127.0.0.1:$MONGO_PORT ($(took "$t0"))"
      return 0
    fi
    pid_alive "$MONGO_PID" MongoServerMain || break
    sleep 0.1
  done
  tail -n 40 "$MONGO_LOG" >&2
  die "mongo-java-server did not start"
}

stop_mongo() {
  if pid_alive "$MONGO_PID" MongoServerMain; then
    say "stopping mongo-java-server (pid $(cat "$MONGO_PID"))"
    stop_pid "$(cat "$MONGO_PID")" 10
  fi
  rm -f "$MONGO_PID"
}

# ---------------------------------------------------------------- common

stop_pid() { # pid, seconds before SIGKILL
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < $2 * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  warn "pid $pid ignored SIGTERM for $2 s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

start_services() {
  start_redis
  launch_kafka
  launch_graphhopper
  start_mongo
  wait_kafka
  wait_graphhopper
}

# For the EXIT trap of .ci/run: only what this shell started.
stop_started_services() {
  [[ -n "$STARTED_GRAPHHOPPER" ]] && stop_graphhopper
  [[ -n "$STARTED_MONGO" ]] && stop_mongo
  [[ -n "$STARTED_KAFKA" ]] && stop_kafka
  [[ -n "$STARTED_REDIS" ]] && stop_redis
  return 0
}

print_env() {
  echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
  echo "export KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
  echo "export GRAPHHOPPER_URL=http://127.0.0.1:$GRAPHHOPPER_PORT"
  echo "export MONGODB_TEST_URL=mongodb://127.0.0.1:$MONGO_PORT"
}

print_status() {
  if redis_ping; then
    if pid_alive "$REDIS_PID" redis-server; then
      echo "redis: up on 127.0.0.1:$REDIS_PORT (pid $(cat "$REDIS_PID"))"
    else
      echo "redis: up on 127.0.0.1:$REDIS_PORT (not started by services.sh)"
    fi
  else
    echo "redis: down (port $REDIS_PORT)"
  fi
  if pid_alive "$KAFKA_PID" kafka.Kafka; then
    echo "kafka: running on 127.0.0.1:$KAFKA_PORT (pid $(cat "$KAFKA_PID"), log $KAFKA_LOG)"
  elif port_open "$KAFKA_PORT"; then
    echo "kafka: something listens on 127.0.0.1:$KAFKA_PORT (not started by services.sh)"
  else
    echo "kafka: down (port $KAFKA_PORT)"
  fi
  if pid_alive "$GRAPHHOPPER_PID" graphhopper-web; then
    echo "graphhopper: running on 127.0.0.1:$GRAPHHOPPER_PORT (pid $(cat "$GRAPHHOPPER_PID"), log $GRAPHHOPPER_LOG)"
  else
    echo "graphhopper: not started here (port $GRAPHHOPPER_PORT)"
  fi
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  case "${1:-}" in
    start)
      start_services
      print_env
      ;;
    stop)
      stop_graphhopper
      stop_mongo
      stop_kafka
      stop_redis
      ;;
    status) print_status ;;
    env) print_env ;;
    *)
      echo "usage: $0 start|stop|status|env" >&2
      exit 2
      ;;
  esac
fi
