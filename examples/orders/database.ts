/**
 * The orders database of the Orders example: a PostgreSQL the handler reaches
 * at the connection string in `ORDERS_DATABASE_URL`, with this schema. The
 * tables have no unique key on the order on purpose: nothing in the schema
 * absorbs a second application of the transaction, so a count of rows tells
 * how often it committed.
 */

/** The environment variable holding the database's connection string (`pg`'s `connectionString`). */
export const ORDERS_DATABASE_ENV = 'ORDERS_DATABASE_URL';

export const ORDERS_SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (order_id text NOT NULL, customer text NOT NULL, total_cents integer NOT NULL, placed_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS order_lines (order_id text NOT NULL, sku text NOT NULL, quantity integer NOT NULL);
`;

/** The example workflows that need the orders database. */
export const WORKFLOWS_WITH_DATABASE: readonly string[] = ['Orders'];
