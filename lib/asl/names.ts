import { createHash } from 'node:crypto';
import { NAME_PATTERN } from '../compiler/names';

/**
 * ASL state names (up to 80 characters of any kind, e.g. "vpxenc And xcdec")
 * become node names, which are parts of Lambda function names
 * (`[A-Za-z0-9_-]{1,64}`). The mapping is deterministic and depends only on
 * the set of names in the document:
 *
 * 1. a name that is already a valid node name is kept;
 * 2. otherwise each run of other characters becomes `_` ("vpxenc And xcdec"
 *    -> "vpxenc_And_xcdec");
 * 3. if that result is longer than 64 characters, or equals a kept name or
 *    the result of another name, it is cut to 55 characters and suffixed with
 *    `-` and the first 8 hex digits of the SHA-256 of the ASL name.
 */
export class NodeNames {
  private readonly toNode = new Map<string, string>();
  private readonly toAsl = new Map<string, string>();

  constructor(aslNames: Iterable<string>) {
    const all = [...new Set(aslNames)];
    const kept = new Set(all.filter((n) => NAME_PATTERN.test(n)));
    const candidates = new Map<string, string>();
    const uses = new Map<string, number>();
    for (const name of all) {
      if (kept.has(name)) continue;
      const candidate = name.replace(/[^A-Za-z0-9_-]+/g, '_') || '_';
      candidates.set(name, candidate);
      uses.set(candidate, (uses.get(candidate) ?? 0) + 1);
    }
    for (const name of all) {
      const candidate = candidates.get(name);
      let node = name;
      if (candidate !== undefined) {
        const clash = candidate.length > 64 || kept.has(candidate) || (uses.get(candidate) ?? 0) > 1;
        node = clash ? `${candidate.slice(0, 55)}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}` : candidate;
      }
      this.toNode.set(name, node);
      this.toAsl.set(node, name);
    }
  }

  /** The node name of an ASL state. */
  node(aslName: string): string {
    return this.toNode.get(aslName) ?? aslName;
  }

  /**
   * The name of an extra state the translation of `aslName` needs (e.g. the
   * Pass in front of a Choice with InputPath): `<node>-<suffix>`, or, if that is
   * too long or taken, the node name cut short with an 8-hex-digit hash of the
   * ASL name and suffix before `-<suffix>`. Reported in errors as `aslName`.
   */
  helper(aslName: string, suffix: string): string {
    const node = this.node(aslName);
    let name = `${node}-${suffix}`;
    if (name.length > 64 || this.toAsl.has(name)) {
      const hash = createHash('sha256').update(`${aslName}\u0000${suffix}`).digest('hex').slice(0, 8);
      name = `${node.slice(0, 64 - suffix.length - 10)}-${hash}-${suffix}`;
    }
    this.toAsl.set(name, aslName);
    return name;
  }

  /** The ASL state name of a node, if the node comes from a state. */
  asl(nodeName: string): string | undefined {
    return this.toAsl.get(nodeName);
  }

  /** The ASL state name of every node (helpers included) whose name differs from it. */
  stateNames(): Map<string, string> {
    return new Map([...this.toAsl].filter(([node, asl]) => node !== asl));
  }

  /** Pairs whose node name differs from the ASL name. */
  renamed(): [asl: string, node: string][] {
    return [...this.toNode].filter(([asl, node]) => asl !== node);
  }
}
