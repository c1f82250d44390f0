import type { ComponentChildren } from "preact"
import type { BrandMention, Citation, Data, Monitor, Paginated, Prompt, Response } from "../api/types.ts"
import { platformNames } from "../api/types.ts"
import { ErrorNotice, Loading } from "../components/Notice.tsx"
import { dateTime } from "../format.ts"
import { brandPieces, highlight, type Piece } from "../highlight.ts"
import { Markdown } from "../components/Markdown.tsx"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { href, Link } from "../router.tsx"
import { projectData, useSession } from "../session-context.tsx"

interface Loaded {
  readonly response: Response
  readonly citations: ReadonlyArray<Citation>
  readonly mentions: ReadonlyArray<BrandMention>
  readonly prompt: Prompt | undefined
  readonly monitor: Monitor | undefined
  readonly ownBrandId: number | null
}

/** Marks are told apart by their brand's number (a tint and a pattern of underline), and named on hover. */
const markClass = (index: number, own: boolean) => (own ? "mark mark-own" : `mark mark-${index % 6}`)

/**
 * One answer: its text drawn from its markdown (web/src/markdown.tsx: no raw HTML, links to http,
 * https and mailto only) with the brands it names marked and its citations numbered and linked (the
 * list below, and the links and `[n]` markers of the text), the mentions with their position and
 * sentiment, and what was asked.
 */
export const Answer = ({ params }: PageProps) => {
  const session = useSession()
  const data = projectData(session)
  const id = Number(params.id)
  const loaded = useLoad<Loaded>(async (signal) => {
    const options = { project: true, signal } as const
    const [response, citations, mentions] = await Promise.all([
      session.client.get<Data<Response>>(`/responses/${id}`, options).then((answer) => answer.data),
      session.client.get<Paginated<Citation>>("/citations", { ...options, query: { response_id: id, per_page: 100 } }).then((answer) => answer.data),
      session.client.get<Paginated<BrandMention>>("/brand-mentions", {
        ...options,
        query: { response_id: id, include: "brand", per_page: 100, sort_by: "position", sort_order: "asc" }
      }).then((answer) => answer.data)
    ])
    const [prompts, monitors, project] = await Promise.all([
      data.prompts().catch(() => [] as ReadonlyArray<Prompt>),
      data.monitors().catch(() => [] as ReadonlyArray<Monitor>),
      data.project().catch(() => null)
    ])
    return {
      response,
      citations: [...citations].sort((a, b) => a.position - b.position),
      mentions: [...mentions].sort((a, b) => a.position - b.position),
      prompt: prompts.find((prompt) => prompt.id === response.prompt_id),
      monitor: monitors.find((monitor) => monitor.id === response.monitor_id),
      ownBrandId: project?.brand_id ?? null
    }
  }, [id])

  if (!Number.isInteger(id) || id < 1) return <NotFound />
  if (loaded.error !== undefined) {
    return (
      <>
        <h1>Answer</h1>
        {loaded.error.status === 404 ? <p>There is no answer {params.id} in this project.</p> : <ErrorNotice error={loaded.error} what="read the answer" />}
        <p><Link href="/answers">Back to the answers</Link></p>
      </>
    )
  }
  if (loaded.data === undefined) return <><h1>Answer</h1><Loading /></>
  const { citations, mentions, monitor, ownBrandId, prompt, response } = loaded.data

  const brands = mentions.flatMap((mention) => (mention.brand === undefined ? [] : [mention.brand]))
  const order = new Map(brands.map((brand, index) => [brand.id, index]))
  const terms = brands.map((brand) => ({ id: brand.id, names: [brand.name, ...brand.aliases], domains: brand.domains }))
  const cited = citations.map((citation) => citation.url)
  const citationOf = (url: string) => {
    const index = cited.indexOf(url)
    return index === -1 ? undefined : index + 1
  }
  const ownBrand = (id: number) => brands.find((brand) => brand.id === id)?.is_own ?? id === ownBrandId
  /** A link of the text (its URL already checked safe), numbered when it is one of the answer's citations. */
  const link = (url: string, children: ComponentChildren) => {
    const citation = citationOf(url)
    return (
      <>
        <a href={url} target="_blank" rel="noopener noreferrer nofollow">{children}</a>
        {citation !== undefined && <sup><a href={`#citation-${citation}`} aria-label={`citation ${citation}`}>[{citation}]</a></sup>}
      </>
    )
  }
  const render = (piece: Piece, key: number): ComponentChildren => {
    switch (piece.kind) {
      case "text":
        return piece.text
      case "brand": {
        const brand = brands.find((item) => item.id === piece.brand)
        return <mark key={key} class={markClass(order.get(piece.brand) ?? 0, ownBrand(piece.brand))} title={brand?.name}>{piece.text}</mark>
      }
      case "link":
        return <span key={key}>{link(piece.url, piece.inner.map(render))}</span>
      case "marker":
        return <sup key={key}><a href={`#citation-${piece.citation}`} aria-label={`citation ${piece.citation}`}>[{piece.citation}]</a></sup>
    }
  }

  return (
    <div class="page answer">
      <p class="breadcrumb"><Link href={href("/answers", { prompt: response.prompt_id })}>Answers</Link> › Answer {response.id}</p>
      <h1>{prompt?.text ?? `Answer ${response.id}`}</h1>
      <dl class="facts">
        <div><dt>Platform</dt><dd>{platformNames[response.platform] ?? response.platform}</dd></div>
        <div><dt>Country</dt><dd>{response.country}</dd></div>
        <div><dt>Monitor</dt><dd>{monitor?.name ?? response.monitor_id}</dd></div>
        <div><dt>Collected</dt><dd>{dateTime(response.collected_at)}</dd></div>
        <div><dt>Status</dt><dd><span class={`status status-${response.status}`}>{response.status}</span></dd></div>
      </dl>
      <div class="answer-grid">
        <section class="card" aria-labelledby="answer-text-title">
          <h2 id="answer-text-title">Answer text</h2>
          <div class="answer-text" id="answer-text">
            <Markdown
              source={response.text}
              text={(value, inLink) => (inLink ? brandPieces(value, terms) : highlight(value, terms, cited)).map(render)}
              link={link}
            />
          </div>
        </section>
        <aside class="answer-side">
          <section class="card" aria-labelledby="mentions-title">
            <h2 id="mentions-title">Brands named</h2>
            {mentions.length === 0 ? <p class="muted">No brand of the project is named.</p> : (
              <table>
                <caption class="visually-hidden">Brands named in the answer, by position</caption>
                <thead><tr><th scope="col">Position</th><th scope="col">Brand</th><th scope="col" class="num">Sentiment</th></tr></thead>
                <tbody>
                  {mentions.map((mention) => (
                    <tr key={mention.id}>
                      <td>{mention.position}</td>
                      <th scope="row">
                        <mark class={markClass(order.get(mention.brand_id) ?? 0, ownBrand(mention.brand_id))}>{mention.brand?.name ?? `Brand ${mention.brand_id}`}</mark>
                        {ownBrand(mention.brand_id) && <span class="badge badge-own">own brand</span>}
                      </th>
                      <td class="num">{mention.sentiment_score}<span class="muted"> /100</span></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section class="card" aria-labelledby="citations-title">
            <h2 id="citations-title">Citations</h2>
            {citations.length === 0 ? <p class="muted">The answer cites nothing.</p> : (
              <ol class="citations" id="citations">
                {citations.map((citation) => (
                  <li key={citation.id} id={`citation-${citation.position}`} value={citation.position}>
                    <a href={citation.url} target="_blank" rel="noopener noreferrer nofollow">{citation.url}</a>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </aside>
      </div>
    </div>
  )
}

const NotFound = () => (
  <>
    <h1>Answer</h1>
    <p>There is no such answer. <Link href="/answers">Back to the answers</Link></p>
  </>
)


