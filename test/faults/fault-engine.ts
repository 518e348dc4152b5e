/**
 * The local engine of a fault-test file: the fault-test app (and, with
 * `examples`, the example app beside it), synthesized once for every file
 * (cached-assembly.ts), run before the file's tests and stopped after them. With the
 * example app comes the database of its Orders example (a throwaway
 * PostgreSQL), whose address the functions get in their environment; with
 * `pgFaults`, that database and the control channel of its server faults
 * (pg-faults.ts), for the fault app's PgOrders workflows.
 */
import * as path from 'path';
import { LocalEngine } from '../../lib/local/engine';
import { cachedAssembly } from '../support/cached-assembly';
import { type OrdersDatabase, startOrdersDatabase } from '../support/orders-database';
import { FAULT_APP_DIR } from './app/targets';
import { PgFaultControl } from './pg-faults';
import { engineDynamoDb } from '../support/test-dynamodb';

export const ROOT = path.join(__dirname, '..', '..');

/** The engine inside tests; `database()` is the Orders example's database (with `examples` or `pgFaults`), `pgFaults()` its faults' channel. */
export type FaultEngine = (() => LocalEngine) & { readonly database: () => OrdersDatabase; readonly pgFaults: () => PgFaultControl };

/** Registers the hooks; the returned function gives the engine inside tests. */
export function useFaultEngine(options: { readonly examples?: boolean; readonly pgFaults?: boolean } = {}): FaultEngine {
  let engine: LocalEngine | undefined;
  let database: OrdersDatabase | undefined;
  let control: PgFaultControl | undefined;
  const started = (): LocalEngine => {
    if (!engine) throw new Error('the fault-test engine is not started yet: use it inside tests');
    return engine;
  };
  beforeAll(async () => {
    const apps = [...(options.examples ? [ROOT] : []), FAULT_APP_DIR];
    const dirs = await Promise.all(apps.map(cachedAssembly));
    if (options.examples || options.pgFaults) database = await startOrdersDatabase('this fault test');
    if (options.pgFaults && database) control = await PgFaultControl.start(database.server, started);
    const functionEnvironment = { ...database?.environment, ...control?.environment };
    engine = await LocalEngine.fromCloudAssembly(dirs, { timeScale: 0.0005, ttlIntervalMs: 60_000, ...engineDynamoDb(), functionEnvironment });
  });
  afterAll(async () => {
    await engine?.stop();
    await control?.close();
    await database?.stop();
  });
  return Object.assign(started, {
    database: (): OrdersDatabase => {
      if (!database) throw new Error('the Orders database comes with the example app: useFaultEngine({ examples: true })');
      return database;
    },
    pgFaults: (): PgFaultControl => {
      if (!control) throw new Error('the PostgreSQL faults\' channel comes with useFaultEngine({ pgFaults: true })');
      return control;
    },
  });
}
