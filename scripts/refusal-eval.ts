/**
 * Precision and recall of the refusal rules (src/Detection/Refusals.ts) on the labelled corpus
 * (test/unit/detection/refusal-corpus.json), per split and overall; docs/detection.md records them.
 *
 *   node --import tsx scripts/refusal-eval.ts [--misses]
 *
 * `--misses` also lists every case the rules get wrong. The batches are explained in the corpus' `about`:
 * batch 3 is the one no version of the rules had seen when it was first measured.
 */
import { type CorpusCase, corpusCases, evaluate, type PrecisionRecall } from "../test/support/RefusalCorpus.ts"

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`
const row = (name: string, m: PrecisionRecall): string =>
  `  ${name.padEnd(13)} precision ${percent(m.precision).padStart(6)} (${m.correct}/${m.predicted})  recall ${percent(m.recall).padStart(6)} (${m.correct}/${m.actual})`

const report = (title: string, cases: ReadonlyArray<CorpusCase>, showMisses: boolean): void => {
  const result = evaluate(cases)
  const languages = [...new Set(cases.map((c) => c.lang))].join(", ")
  console.log(`${title}: ${result.cases} cases (${languages}), accuracy ${percent(result.accuracy)}`)
  console.log(row("not answered", result.notAnswered))
  console.log(row("refused", result.refused))
  console.log(row("empty", result.empty))
  if (showMisses) {
    for (const miss of result.misses) {
      console.log(`    ${miss.id}: labelled ${miss.label}, detected ${miss.predicted}: ${JSON.stringify(miss.text)}`)
    }
  }
}

const showMisses = process.argv.includes("--misses")
report("tuning", corpusCases.filter((c) => c.split === "tuning"), showMisses)
report("holdout", corpusCases.filter((c) => c.split === "holdout"), showMisses)
report("all", corpusCases, false)
for (const batch of [...new Set(corpusCases.map((c) => c.batch))].sort()) {
  report(`batch ${batch}`, corpusCases.filter((c) => c.batch === batch), false)
}
