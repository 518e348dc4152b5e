/**
 * The unit lane runs without Java (jest.config.js): a `java` that refuses,
 * first on the PATH of every test and child process, so a test that starts
 * DynamoDB Local here fails at once with the reason instead of passing on a
 * machine that happens to have Java.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The prefix of the folder that holds the refusing `java`. */
export const UNIT_LANE_DIR = 'unum-unit-lane-';

export default function unitLaneSetup(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), UNIT_LANE_DIR));
  const refuse = '#!/bin/sh\necho "java: the unit lane runs without Java; a test that needs DynamoDB Local belongs in a *.int.test.ts file" >&2\nexit 127\n';
  fs.writeFileSync(path.join(dir, 'java'), refuse, { mode: 0o755 });
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH ?? ''}`;
  delete process.env.JAVA_HOME;
}
