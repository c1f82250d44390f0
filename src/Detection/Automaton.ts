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
 * Symbols are non-negative integers below 2^21 (code points, or stand-ins for a class of them). Node 0 is
 * the root; edges live in one map keyed by node and symbol.
 */

/** One more than the largest symbol: edge keys are `node * SYMBOLS + symbol`, exact as doubles. */
const SYMBOLS = 0x200000

/** Steps taken, shared by the scans of one text: edges followed, failure links followed, matches visited. */
export interface Meter {
  steps: number
}

export class Automaton {
  private constructor(
    private readonly edges: ReadonlyMap<number, number>,
    private readonly fail: Int32Array,
    /** The pattern a node spells, or -1. */
    private readonly patternAt: Int32Array,
    /** The nearest node on the failure chain (itself excluded) that spells a pattern, or 0. */
    private readonly nextOutput: Int32Array,
    /** Each pattern's length in symbols. */
    readonly lengths: Int32Array
  ) {}

  static build(patterns: ReadonlyArray<ArrayLike<number>>): Automaton {
    const edges = new Map<number, number>()
    const parents: Array<number> = [0]
    const symbols: Array<number> = [0]
    const depths: Array<number> = [0]
    const patternAt: Array<number> = [-1]
    patterns.forEach((pattern, index) => {
      let node = 0
      for (let i = 0; i < pattern.length; i++) {
        const key = node * SYMBOLS + pattern[i]!
        let next = edges.get(key)
        if (next === undefined) {
          next = parents.length
          edges.set(key, next)
          parents.push(node)
          symbols.push(pattern[i]!)
          depths.push(i + 1)
          patternAt.push(-1)
        }
        node = next
      }
      if (node !== 0 && patternAt[node] === -1) patternAt[node] = index
    })
    const count = parents.length
    const fail = new Int32Array(count)
    const nextOutput = new Int32Array(count)
    const at = Int32Array.from(patternAt)
    // A node's failure link is found from its parent's, so nodes are visited by depth (breadth first).
    for (const node of byDepth(depths)) {
      const parent = parents[node]!
      if (parent === 0) continue
      const symbol = symbols[node]!
      let candidate = fail[parent]!
      let target = edges.get(candidate * SYMBOLS + symbol)
      while (target === undefined && candidate !== 0) {
        candidate = fail[candidate]!
        target = edges.get(candidate * SYMBOLS + symbol)
      }
      fail[node] = target ?? 0
      const suffix = fail[node]!
      nextOutput[node] = at[suffix]! >= 0 ? suffix : nextOutput[suffix]!
    }
    return new Automaton(edges, fail, at, nextOutput, Int32Array.from(patterns, (pattern) => pattern.length))
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
      let next = edges.get(node * SYMBOLS + symbol)
      while (next === undefined && node !== 0) {
        node = fail[node]!
        next = edges.get(node * SYMBOLS + symbol)
        steps++
      }
      node = next ?? 0
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
const byDepth = (depths: ReadonlyArray<number>): Int32Array => {
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
