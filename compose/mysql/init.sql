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

-- Applications (sluice load, sluice verify, sluice reconcile).
CREATE USER IF NOT EXISTS 'sluice'@'%' IDENTIFIED BY 'sluice';
GRANT ALL PRIVILEGES ON cdc_lab.* TO 'sluice'@'%';

-- The capture (Debezium MySQL connector): snapshot reads and the binlog.
CREATE USER IF NOT EXISTS 'cdc'@'%' IDENTIFIED BY 'cdc';
GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT, LOCK TABLES
  ON *.* TO 'cdc'@'%';

FLUSH PRIVILEGES;
