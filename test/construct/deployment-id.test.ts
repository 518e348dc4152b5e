import { canonicalJson, deploymentId, type DeploymentFunction } from '../../lib/construct/deployment-id';
import { DEPLOYMENT_ID_PATTERN } from '../../runtime/contract/ir';

const fn = (name: string, extra: Partial<DeploymentFunction> = {}): DeploymentFunction => ({ name, spec: { node: name, successors: ['B'] }, bundle: 'abc', settings: { memorySize: 256 }, ...extra });

test('canonical JSON sorts keys at every level, keeps array order', () => {
  expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
});

test('the id matches the contract and does not depend on the order functions or keys are listed in', () => {
  const id = deploymentId([fn('A'), fn('B')], '1.0.0');
  expect(id).toMatch(DEPLOYMENT_ID_PATTERN);
  expect(deploymentId([fn('B'), { settings: { memorySize: 256 }, bundle: 'abc', spec: { successors: ['B'], node: 'A' }, name: 'A' }], '1.0.0')).toBe(id);
});

test('anything a run depends on changes it: a spec, a bundle, a setting, a function more, the runtime version', () => {
  const base = deploymentId([fn('A')], '1.0.0');
  const changed = [
    deploymentId([fn('A', { spec: { node: 'A', successors: ['C'] } })], '1.0.0'),
    deploymentId([fn('A', { bundle: 'abd' })], '1.0.0'),
    deploymentId([fn('A', { bundle: undefined })], '1.0.0'),
    deploymentId([fn('A', { settings: { memorySize: 512 } })], '1.0.0'),
    deploymentId([fn('A'), fn('B')], '1.0.0'),
    deploymentId([fn('A')], '1.0.1'),
  ];
  expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
});
