/**
 * Precision and recall of brand suggestions (src/Suggestions/) on the labelled corpus
 * (test/unit/suggestions/corpus.json): per answer (extraction) and after the gate (the suggestions a
 * user would see); docs/suggestions.md records them.
 *
 *   node --import tsx scripts/suggestions-eval.ts [--misses]
 *
 * `--misses` also lists every false positive and every missed rival.
 */
import { evaluate } from "../test/support/SuggestionCorpus.ts"

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`
const result = evaluate()
const { extraction: e, gated: g } = result
console.log(`corpus: ${result.answers} answers`)
console.log(`  extraction  precision ${percent(e.precision).padStart(6)} (${e.correct}/${e.predicted})  recall ${percent(e.recall).padStart(6)} (${e.correct}/${e.actual})`)
console.log(`  gated       precision ${percent(g.precision).padStart(6)} (${g.right}/${g.suggested})  recall ${percent(g.recall).padStart(6)} (${g.frequentSuggested}/${g.frequent} frequent rivals)`)
for (const [project, keys] of Object.entries(result.suggestions)) console.log(`  ${project}: ${keys.join(", ")}`)
if (process.argv.includes("--misses")) {
  for (const miss of result.misses) console.log(`    ${miss.where}: ${miss.kind} ${miss.key}`)
}
