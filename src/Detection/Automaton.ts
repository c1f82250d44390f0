/**
 * An Aho–Corasick automaton: every occurrence of many patterns in one pass over a text, at a cost bounded
 * by the text's length (at most two steps a symbol, amortized) plus one step per occurrence reported,
 * whatever the patterns.
 *
 * Written here rather than taken from npm: the packages found compare UTF-16 strings and return every
 * match as an object, where detection needs symbols of its own (case classes, runs of whitespace read as
 * one), to stop reading a position's matches at the first that fits, and to count the steps taken (the
 * tests hold the cost to the text's length through that count). It is the textbook construction, small.
 *
 * Symbols are non-negative integers (code points, or stand-ins for a class of them). Node 0 is the root;
 * edges live in one hash table keyed by node and symbol.
 */

/** Steps taken, shared by the scans of one text: edges followed, failure links followed, matches visited. */
export interface Meter {
  steps: number
}

export class Automaton {
  private constructor(
    private readonly edges: Edges,
    private readonly fail: Int32Array,
    /** The pattern a node spells, or -1. */
    private readonly patternAt: Int32Array,
    /** The nearest node on the failure chain (itself excluded) that spells a pattern, or 0. */
    private readonly nextOutput: Int32Array,
    /** Each pattern's length in symbols. */
    readonly lengths: Int32Array
  ) {}

  /**
   * The automaton of `patterns`, or of as many of them, from the first, as fit in `maxNodes` nodes (one
   * at least): `lengths` tells how many it took. Patterns sharing a prefix share its nodes.
   */
  static build(patterns: ReadonlyArray<ArrayLike<number>>, maxNodes: number = Infinity): Automaton {
    // At most one node per pattern symbol, and the root.
    const capacity = Math.min(maxNodes, patterns.reduce((sum, pattern) => sum + pattern.length, 0)) + 1
    const edges = new Edges(capacity)
    const parents = new Int32Array(capacity)
    const symbols = new Int32Array(capacity)
    const depths = new Int32Array(capacity)
    const at = new Int32Array(capacity).fill(-1)
    let count = 1
    let taken = 0
    for (const pattern of patterns) {
      // The nodes it needs beyond the prefix already there.
      let node = 0
      let shared = 0
      while (shared < pattern.length && (node = edges.get(node, pattern[shared]!)) !== -1) shared++
      if (count + pattern.length - shared > capacity && taken > 0) break
      node = 0
      for (let i = 0; i < pattern.length; i++) {
        let next = edges.get(node, pattern[i]!)
        if (next === -1) {
          next = count++
          edges.set(node, pattern[i]!, next)
          parents[next] = node
          symbols[next] = pattern[i]!
          depths[next] = i + 1
        }
        node = next
      }
      if (node !== 0 && at[node] === -1) at[node] = taken
      taken++
    }
    const fail = new Int32Array(count)
    const nextOutput = new Int32Array(count)
    // A node's failure link is found from its parent's, so nodes are visited by depth (breadth first).
    for (const node of byDepth(depths.subarray(0, count))) {
      const parent = parents[node]!
      if (parent === 0) continue
      const symbol = symbols[node]!
      let candidate = fail[parent]!
      let target = edges.get(candidate, symbol)
      while (target === -1 && candidate !== 0) {
        candidate = fail[candidate]!
        target = edges.get(candidate, symbol)
      }
      fail[node] = target === -1 ? 0 : target
      const suffix = fail[node]!
      nextOutput[node] = at[suffix]! >= 0 ? suffix : nextOutput[suffix]!
    }
    return new Automaton(edges, fail, at, nextOutput, Int32Array.from(patterns.slice(0, taken), (pattern) => pattern.length))
  }

  /**
   * Reads `text`; at each end position (1..length) where some pattern ends, calls `onEnd` with that
   * position and the node of the longest pattern ending there (see `patternOf`, `shorter`).
   */
  scan(text: Int32Array, meter: Meter, onEnd: (end: number, output: number) => void): void {
    const { edges, fail, nextOutput, patternAt } = this
    let node = 0
    let steps = 0
    for (let i = 0; i < text.length; i++) {
      const symbol = text[i]!
      let next = edges.get(node, symbol)
      while (next === -1 && node !== 0) {
        node = fail[node]!
        next = edges.get(node, symbol)
        steps++
      }
      node = next === -1 ? 0 : next
      steps++
      const output = patternAt[node]! >= 0 ? node : nextOutput[node]!
      if (output !== 0) {
        meter.steps += steps
        steps = 0
        onEnd(i + 1, output)
      }
    }
    meter.steps += steps
  }

  /** The pattern an output node spells. */
  patternOf(output: number): number {
    return this.patternAt[output]!
  }

  /** The output node of the next shorter pattern ending at the same position, or 0. */
  shorter(output: number): number {
    return this.nextOutput[output]!
  }
}

/** Node indices ordered by depth (a counting sort: depths are small). */
const byDepth = (depths: Int32Array): Int32Array => {
  let deepest = 0
  for (const depth of depths) deepest = Math.max(deepest, depth)
  const starts = new Int32Array(deepest + 2)
  for (const depth of depths) starts[depth + 1]!++
  for (let d = 1; d < starts.length; d++) starts[d]! += starts[d - 1]!
  const order = new Int32Array(depths.length)
  depths.forEach((depth, node) => {
    order[starts[depth]!++] = node
  })
  return order
}

/**
 * The edges of the trie: (node, symbol) → child, in an open-addressing hash table of typed arrays, sized
 * once for the number of edges it will hold (at most one per pattern symbol) and at most half full.
 */
class Edges {
  private readonly nodes: Int32Array
  private readonly symbols: Int32Array
  private readonly children: Int32Array
  private readonly mask: number

  constructor(capacity: number) {
    let size = 16
    while (size < capacity * 2) size *= 2
    this.nodes = new Int32Array(size).fill(-1)
    this.symbols = new Int32Array(size)
    this.children = new Int32Array(size)
    this.mask = size - 1
  }

  private slot(node: number, symbol: number): number {
    return (Math.imul(node, 0x9e3779b1) ^ Math.imul(symbol, 0x85ebca77)) & this.mask
  }

  /** The child of `node` by `symbol`, or -1. */
  get(node: number, symbol: number): number {
    for (let at = this.slot(node, symbol);; at = (at + 1) & this.mask) {
      const held = this.nodes[at]!
      if (held === -1) return -1
      if (held === node && this.symbols[at] === symbol) return this.children[at]!
    }
  }

  set(node: number, symbol: number, child: number): void {
    let at = this.slot(node, symbol)
    while (this.nodes[at] !== -1) at = (at + 1) & this.mask
    this.nodes[at] = node
    this.symbols[at] = symbol
    this.children[at] = child
  }
}
