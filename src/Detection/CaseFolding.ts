/**
 * Case-insensitive comparison of single code points, exactly as the regular expression flags `iu` compare
 * them (Unicode simple case folding: "ÉCLAIR" = "éclair", the Kelvin sign = "k", "ſ" = "s", "ẞ" = "ß";
 * but "ß" ≠ "ss", "İ" ≠ "i" and "ı" ≠ "i", since those are not one-to-one foldings).
 *
 * JavaScript has no function for simple case folding (`toLowerCase` is not it: it maps "İ" to two code
 * points and "ı" nowhere near "i"), and a table copied from the Unicode data would drift from the engine
 * the rest of the service uses. So the classes are read from the engine itself, once per thread: every
 * code point that changes under some case mapping or folding (about 3,000, all in planes 0 and 1; the
 * others have no case partner) is matched case-insensitively against all of them, which groups them into
 * their classes (about 1,500) in some 30 ms.
 */

/** Code points that a case mapping or case folding changes: only these have case partners. */
const CASED = /[\p{Changes_When_Casefolded}\p{Changes_When_Casemapped}]/gu

/** No code point beyond plane 1 has a case (a test checks it against the engine). */
const LAST_CASED_PLANE_END = 0x20000

let representatives: ReadonlyMap<number, number> | undefined

/** The lowest code point of each case class of more than one member, by member. */
const readClasses = (): ReadonlyMap<number, number> => {
  const chunks: Array<string> = []
  for (let from = 0; from < LAST_CASED_PLANE_END; from += 0x1000) {
    const codePoints: Array<number> = []
    // Lone surrogates are no characters: skipped.
    for (let cp = from; cp < from + 0x1000; cp++) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(cp)
    chunks.push(String.fromCodePoint(...codePoints))
  }
  const cased = Array.from(chunks.join("").matchAll(CASED), (match) => match[0])
  const all = cased.join("")
  const classes = new Map<number, number>()
  // In ascending order, so the first member met is the lowest: it stands for its class.
  for (const member of cased) {
    const codePoint = member.codePointAt(0)!
    if (classes.has(codePoint)) continue
    // A cased character is a letter or a mark, never regex syntax.
    const sameCase = new RegExp(member, "giu")
    for (const match of all.matchAll(sameCase)) classes.set(match[0].codePointAt(0)!, codePoint)
  }
  return classes
}

/**
 * The code point that stands for this one's case class: two code points match case-insensitively (as
 * under the `iu` flags) exactly when their representatives are equal.
 */
export const foldCodePoint = (codePoint: number): number => (representatives ??= readClasses()).get(codePoint) ?? codePoint
