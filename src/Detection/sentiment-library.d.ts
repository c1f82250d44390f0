// Types for the `sentiment` package (AFINN-165 lexicon), which ships none: only what
// Sentiment.ts uses. Kept here rather than adding @types/sentiment as a second package.
declare module "sentiment" {
  namespace Sentiment {
    interface AnalysisResult {
      /** Sum of the lexicon values (-5..5 per word) of the matched tokens, negations flipped. */
      readonly score: number
      /** `score` divided by the number of tokens (0 for no token). */
      readonly comparative: number
      readonly tokens: ReadonlyArray<string>
      readonly words: ReadonlyArray<string>
      readonly positive: ReadonlyArray<string>
      readonly negative: ReadonlyArray<string>
    }
    interface AnalyzeOptions {
      readonly language?: string
    }
  }
  class Sentiment {
    analyze(phrase: string, options?: Sentiment.AnalyzeOptions): Sentiment.AnalysisResult
  }
  export = Sentiment
}
