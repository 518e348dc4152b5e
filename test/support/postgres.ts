/**
 * A real PostgreSQL for a test file (issue 17, part 4): the server installed
 * on the machine (PostgreSQL 15 at /usr/lib/postgresql/15/bin, or
 * UNUM_PG_BIN), a fresh cluster in a temporary directory on a free port,
 * stopped and removed after the file. PostgreSQL refuses to run as root, so
 * as root the cluster belongs to, and runs as, the `postgres` user.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';

const BIN = process.env.UNUM_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const OWNER = 'postgres';

export interface TestPostgres {
  readonly port: number;
  /** A new pool on the test database (ended with the server). */
  pool(max?: number): Pool;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server program, as the `postgres` user when we are root. */
function asOwner(program: string, args: readonly string[]): void {
  const file = path.join(BIN, program);
  if (process.getuid?.() === 0) {
    const quoted = [file, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    execFileSync('su', [OWNER, '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  } else {
    execFileSync(file, args, { stdio: 'pipe' });
  }
}

export function usePostgres(): TestPostgres {
  let dir: string | undefined;
  let port = 0;
  const pools: Pool[] = [];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-pg-'));
    if (process.getuid?.() === 0) execFileSync('chown', [OWNER, dir]);
    port = await freePort();
    asOwner('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    asOwner('pg_ctl', ['-D', path.join(dir, 'data'), '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    if (!dir) return;
    try {
      asOwner('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
  return {
    get port() {
      return port;
    },
    pool(max = 10) {
      const pool = new Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max });
      // A connection killed on purpose (a simulated crash) is reported on the pool; it is expected.
      pool.on('error', () => undefined);
      pools.push(pool);
      return pool;
    },
  };
}
