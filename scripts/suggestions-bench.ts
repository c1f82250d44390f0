/**
 * What mining answers for brand suggestions costs beside analysing them (docs/suggestions.md,
 * "Performance"): the labelled corpus' answers analysed (`analyze`: citations, brand detection,
 * sentiment) and recorded (`record`: candidates, rollups, examples), each timed over the same answers in
 * the same run, after a warm-up. Prints milliseconds per answer and the ratio.
 *
 *   node --import tsx scripts/suggestions-bench.ts [rounds]
 */
import { performance } from "node:perf_hooks"
import { analyze } from "../src/Responses/Analysis.ts"
import { record } from "../src/Suggestions/Recording.ts"
import { corpusProjects } from "../test/support/SuggestionCorpus.ts"

const rounds = Number(process.argv[2] ?? 20)
const projects = corpusProjects.map((project) => ({
  vocabulary: { brands: project.tracked, prompts: new Map(Object.entries(project.prompts).map(([id, text]) => [Number(id), text])) },
  answers: project.answers.map((a, i) => ({
    id: i + 1,
    prompt_id: a.prompt,
    platform: a.platform,
    country: "US",
    collected_at: new Date(`${a.day}T12:00:00Z`),
    text: a.text,
    citations: a.citations ?? []
  })),
  tracked: project.tracked
}))
const answers = projects.reduce((n, p) => n + p.answers.length, 0)

const analyseAll = () => {
  for (const p of projects) {
    for (const a of p.answers) {
      analyze({ monitor_id: 1, prompt_id: a.prompt_id, platform: a.platform, country: "US", text: a.text, collected_at: a.collected_at, citations: a.citations }, p.tracked)
    }
  }
}
// One answer at a time, as POST /responses records them.
const recordAll = () => {
  for (const p of projects) for (const a of p.answers) record([a], p.vocabulary)
}
const time = (run: () => void) => {
  const started = performance.now()
  for (let i = 0; i < rounds; i++) run()
  return (performance.now() - started) / (rounds * answers)
}

analyseAll()
recordAll()
// Interleaved, so that both see the same machine.
let analysis = 0
let mining = 0
for (let i = 0; i < 3; i++) {
  analysis += time(analyseAll)
  mining += time(recordAll)
}
analysis /= 3
mining /= 3
console.log(`${answers} answers × ${rounds} rounds × 3`)
console.log(`  analysis  ${analysis.toFixed(3)} ms per answer`)
console.log(`  mining    ${mining.toFixed(3)} ms per answer (${(100 * mining / analysis).toFixed(0)}% of analysis)`)
