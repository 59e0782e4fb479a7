#!/usr/bin/env bash
# A dujiaoka shop switched to paynotify, end to end on a real MariaDB/MySQL: dujiaoka's own orders
# table (docs/examples/dujiaoka-orders.sql), the orders: mapping of docs/orders-table.md, the real
# service (scripts/start.sh, a real process) and Alipay notifications signed by the official SDK
# (the shared test vectors, with their test-only key). Prints the shop's orders before and after.
#
#   scripts/try-dujiaoka.sh [--db HOST:PORT]     default 127.0.0.1:3306, user root, empty password
#
# Works in a database of its own, paynotify_dujiaoka (dropped and created again), and in
# target/try-dujiaoka (config, logs). Needs the mariadb (or mysql) client, curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
DB=127.0.0.1:3306
[ "${1:-}" = --db ] && DB="$2"
HOST="${DB%:*}"; PORT="${DB#*:}"; NAME=paynotify_dujiaoka; HTTP=18089
DIR=target/try-dujiaoka; VECTORS=src/test/resources/vectors/alipay.json
mkdir -p "$DIR"
CLIENT=$(command -v mariadb || command -v mysql)
sql() { "$CLIENT" -h "$HOST" -P "$PORT" -u root --table "$NAME" -e "$1"; }
vector() { python3 -c "import json,sys; v=json.load(open('$VECTORS')); sys.stdout.write($1)"; }

"$CLIENT" -h "$HOST" -P "$PORT" -u root -e "DROP DATABASE IF EXISTS $NAME; CREATE DATABASE $NAME CHARACTER SET utf8mb4"
"$CLIENT" -h "$HOST" -P "$PORT" -u root "$NAME" < docs/examples/dujiaoka-orders.sql
# Two orders as dujiaoka writes them (status 1 待支付): the vectors pay 88.88 for the first, 120.00 for the second.
for order in "A202611290001 88.88" "A202611290002 100.00"; do
  set -- $order
  sql "INSERT INTO orders SET order_sn = '$1', goods_id = 1, title = '月卡', email = 'buyer@example.com',
       buy_ip = '203.0.113.7', actual_price = $2, goods_price = $2, total_price = $2, created_at = NOW(), updated_at = NOW()"
done

vector "v['keys']['alipay_public_key_pem']" > "$DIR/alipay_public_key.pem"
cat > "$DIR/application.yaml" <<EOF
http: {port: $HTTP}
database: {host: "$HOST", port: $PORT, name: $NAME, user: root}
alipay:
  app_id: "$(vector "v['merchant']['app_id']")"
  seller_id: "$(vector "v['merchant']['seller_id']")"
  public_key_file: $PWD/$DIR/alipay_public_key.pem
orders:                    # the dujiaoka example of docs/orders-table.md
  table: orders
  columns: {order_no: order_sn, amount: actual_price, status: status, paid_at: "", channel: "", trade_no: trade_no}
  amount_unit: yuan
  status_values: {unpaid: 1, paid: 2, closed: -1, partially_refunded: "", refunded: ""}
EOF

echo "== the shop's orders before"
sql "SELECT order_sn, actual_price, status, trade_no FROM orders"
scripts/start.sh --config "$DIR/application.yaml" > "$DIR/service.log" 2>&1 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null; wait $SERVICE 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP/health" || true)" = 200 ] && break
  kill -0 $SERVICE 2>/dev/null || { cat "$DIR/service.log"; exit 1; }
  sleep 0.5
done

send() { # the vector's body, as Alipay posts it; prints the reply
  vector "[c for c in v['cases'] if c['name'] == '$1'][0]['request']['body']" > "$DIR/$1.body"
  curl -s -X POST -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' \
    --data-binary @"$DIR/$1.body" "http://127.0.0.1:$HTTP/notify/alipay"
}
echo "== trade_success (88.88 for A202611290001): $(send trade_success)"
echo "== the same notification, 24 concurrent copies:"
(for _ in $(seq 1 24); do { reply=$(send trade_success); echo "$reply"; } & done; wait) | sort | uniq -c
echo "== trade_finished (120.00 for A202611290002, an order of 100.00): $(send trade_finished)"

echo "== the shop's orders after (2 = 待处理: dujiaoka delivers it; 1 = still unpaid)"
sql "SELECT order_sn, actual_price, status, trade_no FROM orders"
echo "== paynotify's own rows"
sql "SELECT channel, trade_no, order_no, amount_cents, moved_order FROM payments"
sql "SELECT kind, order_no, detail FROM anomalies"
sql "SELECT outcome, COUNT(*) AS notifications FROM notify_log GROUP BY outcome"
grep -E "WARN|ERROR|ready" "$DIR/service.log" | cut -c1-200

kill $SERVICE; wait $SERVICE 2>/dev/null || true
echo "== the same shop with a wrong mapping (amount_unit cents on its DECIMAL column) does not start:"
set +e
PAYNOTIFY_ORDERS_AMOUNT_UNIT=cents PAYNOTIFY_HTTP_PORT=$((HTTP + 1)) scripts/start.sh --config "$DIR/application.yaml" \
  2>&1 | grep -v " INFO " | tail -1
echo "exit code ${PIPESTATUS[0]}"
