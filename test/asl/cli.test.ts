/** `unum compile-asl`: prints or writes the per-node IR; exit codes 0 / 1 / 2. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../lib/cli/asl';
import { FIXTURES } from './app/workflows';

function capture(): { io: { stdout: { write(t: string): boolean }; stderr: { write(t: string): boolean } }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (t: string) => { out += t; return true; } }, stderr: { write: (t: string) => { err += t; return true; } } },
    out: () => out,
    err: () => err,
  };
}

describe('unum compile-asl', () => {
  test('prints { node: IR } for a document; the workflow name comes from the file name', async () => {
    const c = capture();
    expect(await main([path.join(FIXTURES, 'video-frames.asl.json')], c.io)).toBe(0);
    const irs = JSON.parse(c.out());
    expect(Object.keys(irs)).toEqual(['Decode_and_tint.Origin', 'Decode_frame', 'Pair_up', 'Tint_frame', 'Blend_pair', 'Stitch']);
    expect(irs.Pair_up).toMatchObject({ workflow: 'video-frames', node: 'Pair_up', handler: { kind: 'user', export: 'pairArn' } });
  });

  test('--tasks maps states to entries relative to the tasks file ("*" = default); --out writes one file per node', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-asl-'));
    const tasksFile = path.join(dir, 'tasks.json');
    fs.writeFileSync(tasksFile, JSON.stringify({ Leg1: { entry: 'src/first-leg.ts', handler: 'start' }, '*': { entry: 'src/legs.ts' } }));
    const c = capture();
    const out = path.join(dir, 'ir');
    expect(await main([path.join(FIXTURES, 'relay.asl.json'), '--tasks', tasksFile, '--out', out, '--name', 'relay'], c.io)).toBe(0);
    expect(c.out().trim().split('\n')).toEqual(['Leg1', 'Leg2', 'Leg3'].map((n) => path.join(out, `${n}.json`)));
    expect(JSON.parse(fs.readFileSync(path.join(out, 'Leg1.json'), 'utf8'))).toMatchObject({ workflow: 'relay', handler: { kind: 'user', export: 'start' } });
    expect(JSON.parse(fs.readFileSync(path.join(out, 'Leg3.json'), 'utf8')).handler).toEqual({ kind: 'user', export: 'handler' });
  });

  test('a rejected document prints the error and exits 1; warnings go to stderr', async () => {
    const bad = capture();
    expect(await main([path.join(__dirname, 'invalid', 'wait-too-long.json')], bad.io)).toBe(1);
    expect(bad.err()).toMatch(/^Workflow 'wait-too-long', node 'Pause a bit', field 'Seconds': 40000000 is not a whole number of seconds/);
    const warned = capture();
    expect(await main([path.join(FIXTURES, 'sort-parcels.asl.json')], warned.io)).toBe(0);
    expect(warned.err()).toMatch(/^warning: .*node 'PickBox', field 'otherwise'/);
  });

  test('usage errors exit 2', async () => {
    const c = capture();
    expect(await main([], c.io)).toBe(2);
    expect(await main(['a.json', '--bogus', 'x'], c.io)).toBe(2);
    expect(await main(['a.json', '--out'], c.io)).toBe(2);
    expect(c.err()).toContain("(see 'unum compile-asl --help')");
  });

  test('a missing file exits 1 with the file error', async () => {
    const c = capture();
    expect(await main(['/nonexistent/x.asl.json'], c.io)).toBe(1);
    expect(c.err()).toContain('ENOENT');
  });
});
