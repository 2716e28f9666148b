-- Runs once, on the first start of the mysql service (docker-entrypoint-initdb.d).
-- The lab's source table: the columns of lab/src/main/java/io/sluice/lab/db/OrdersTable.java
-- (ComposeFilesTest checks that they stay the same).
CREATE DATABASE IF NOT EXISTS cdc_lab;

CREATE TABLE IF NOT EXISTS cdc_lab.orders (
  order_id BIGINT NOT NULL PRIMARY KEY,
  business_key VARCHAR(64) NOT NULL,
  customer_id BIGINT NOT NULL,
  amount_cents BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL,
  event_id BIGINT NOT NULL,
  seed INT NOT NULL,
  updated_at DATETIME(3) NOT NULL
);

-- The users `sluice` and `cdc`: users.sh, with the passwords of compose/.env.
