// Compiling a definition without CDK: what the construct deploys, node by node.
import { compileWorkflow } from 'unum-cdk';
import { chain } from './dsl';

const definition = chain();
// #region compile
const compiled = compileWorkflow('Photos', definition, { inlineLimitBytes: 32768 });
console.log(compiled.entry);               // 'Fetch'
console.log(compiled.nodes.Resize.ir);     // the node's IR, shipped in its bundle as unum-ir.json
console.log(compiled.nodes.Resize.fn);     // entry, export, memory, timeout, environment, retries, event age
console.log(compiled.warnings);            // e.g. a Choice without otherwise
// #endregion
