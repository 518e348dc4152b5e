/** When a run may move to another deployment (`redrive(id, { deployment: 'latest' })`), and how a refusal says what changed. */
import { graphChanges } from '../../runtime/control/graph-changes';

const v1 = { Pack: ['Ship'], Ship: ['Done'], Done: [] };

test('the same nodes with the same successors: nothing changed, whatever the handlers do', () => {
  expect(graphChanges(v1, { Done: [], Ship: ['Done'], Pack: ['Ship'] })).toEqual([]);
});

test('a removed node, a changed successor and an added node are each named', () => {
  expect(graphChanges(v1, { Pack: ['Label'], Label: ['Done'], Done: [] })).toEqual([
    "node 'Pack' now leads to 'Label' instead of 'Ship'",
    "node 'Ship' was removed",
    "node 'Label' was added",
  ]);
});

test('the order of successors is a change (a Parallel\'s branch is its position); an end is nothing', () => {
  expect(graphChanges({ P: ['A', 'B'], A: [], B: [] }, { P: ['B', 'A'], A: ['B'], B: [] })).toEqual([
    "node 'A' now leads to 'B' instead of nothing",
    "node 'P' now leads to 'B', 'A' instead of 'A', 'B'",
  ]);
});

test('node names that are Object properties are nodes like any other', () => {
  expect(graphChanges({ constructor: [] }, {})).toEqual(["node 'constructor' was removed"]);
  expect(graphChanges({}, { toString: [] })).toEqual(["node 'toString' was added"]);
});
