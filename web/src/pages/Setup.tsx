import { useMemo, useState } from "preact/hooks"
import { ApiError } from "../api/client.ts"
import { type Brand, type Monitor, platformNames, type Project, type Prompt, type Segment, type Tag } from "../api/types.ts"
import { ErrorNotice } from "../components/Notice.tsx"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { Link, navigate, withQuery } from "../router.tsx"
import { projectData, useSession } from "../session-context.tsx"
import { BrandForm, MonitorForm, PromptForm, SegmentForm, TagForm } from "./setup/forms.tsx"
import { type FormProps, Section } from "./setup/Section.tsx"

const sections = [
  { id: "monitors", label: "Monitors" },
  { id: "prompts", label: "Prompts" },
  { id: "tags", label: "Tags" },
  { id: "brands", label: "Brands" },
  { id: "segments", label: "Segments" }
] as const

type SectionId = (typeof sections)[number]["id"]

/** What the project is made of: monitors, prompts, tags, brands (and which is the own one), segments. */
export const Setup = ({ location, params }: PageProps) => {
  const current: SectionId = sections.some((section) => section.id === params.section) ? params.section as SectionId : "monitors"
  return (
    <div class="page">
      <h1>Setup</h1>
      <nav class="tabs" aria-label="Setup sections">
        <ul>
          {sections.map((section) => (
            <li key={section.id}>
              <Link href={`/setup/${section.id}`} aria-current={section.id === current ? "page" : undefined}>{section.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {current === "monitors" && <Monitors location={location} params={params} />}
      {current === "prompts" && <Prompts location={location} params={params} />}
      {current === "tags" && <Tags location={location} params={params} />}
      {current === "brands" && <Brands location={location} params={params} />}
      {current === "segments" && <Segments location={location} params={params} />}
    </div>
  )
}

const Monitors = ({ location }: PageProps) => (
  <Section<Monitor>
    location={location}
    kind="monitors"
    path="/monitors"
    noun="monitor"
    title="Monitors"
    writeAbility="monitors:write"
    nameOf={(monitor) => monitor.name}
    Form={MonitorForm}
    deleteWarning="Its prompts and all their answers are deleted with it."
    columns={[
      { label: "Name", render: (monitor) => monitor.name },
      { label: "Country", render: (monitor) => monitor.country },
      { label: "Platforms", render: (monitor) => monitor.platforms.map((platform) => platformNames[platform] ?? platform).join(", ") },
      { label: "Schedule", render: (monitor) => monitor.schedule },
      { label: "Active", render: (monitor) => (monitor.active ? "yes" : "no") },
      { label: "Answers", render: (monitor) => (monitor.simulated ? <span class="badge badge-inline badge-simulated">simulated</span> : "real") }
    ]}
  />
)

const Prompts = ({ location }: PageProps) => {
  const session = useSession()
  const data = projectData(session)
  const lists = useLoad(() => Promise.all([data.monitors(), data.tags()]), [session.projectId])
  const monitors = lists.data?.[0] ?? []
  const tags = lists.data?.[1] ?? []
  const monitorFilter = Number(location.query.get("monitor")) || undefined
  // A new form when the lists arrive, so that it starts on the first monitor.
  const Form = useMemo(() => (props: FormProps<Prompt>) => <PromptForm {...props} monitors={monitors} tags={tags} />, [lists.data])
  return (
    <>
      {lists.error !== undefined && <ErrorNotice error={lists.error} what="read the monitors and tags" />}
      <Section<Prompt>
        location={location}
        kind="prompts"
        path="/prompts"
        noun="prompt"
        title="Prompts"
        writeAbility="prompts:write"
        nameOf={(prompt) => (prompt.text.length > 60 ? `${prompt.text.slice(0, 59)}…` : prompt.text)}
        query={{ monitor_id: monitorFilter }}
        Form={Form}
        deleteWarning="Its answers are deleted with it."
        filters={
          <label class="field-inline">
            <span>Monitor</span>
            <select
              value={String(monitorFilter ?? "")}
              onChange={(event) => navigate(withQuery(location, { monitor: event.currentTarget.value, page: undefined }), { replace: true })}
            >
              <option value="">All</option>
              {monitors.map((monitor) => <option key={monitor.id} value={String(monitor.id)}>{monitor.name}</option>)}
            </select>
          </label>
        }
        columns={[
          { label: "Question", render: (prompt) => prompt.text },
          { label: "Monitor", render: (prompt) => monitors.find((monitor) => monitor.id === prompt.monitor_id)?.name ?? prompt.monitor_id },
          {
            label: "Tags",
            render: (prompt) => (
              <span class="chips">
                {prompt.tags.map((tag) => <span key={tag.id} class="chip"><span class="swatch" style={{ background: tag.color }} />{tag.name}</span>)}
              </span>
            )
          }
        ]}
      />
    </>
  )
}

const Tags = ({ location }: PageProps) => (
  <Section<Tag>
    location={location}
    kind="tags"
    path="/tags"
    noun="tag"
    title="Tags"
    writeAbility="tags:write"
    nameOf={(tag) => tag.name}
    Form={TagForm}
    deleteWarning="It is removed from its prompts; the prompts stay."
    columns={[
      { label: "Name", render: (tag) => <span class="chip"><span class="swatch" style={{ background: tag.color }} />{tag.name}</span> },
      { label: "Colour", render: (tag) => <code>{tag.color}</code> }
    ]}
  />
)

const Brands = ({ location }: PageProps) => {
  const session = useSession()
  const data = projectData(session)
  const lists = useLoad(
    () => Promise.all([data.segments().catch(() => [] as ReadonlyArray<Segment>), data.project().catch(() => null)]),
    [session.projectId]
  )
  const segments = lists.data?.[0] ?? []
  const project: Project | null = lists.data?.[1] ?? null
  const [failure, setFailure] = useState<ApiError | undefined>(undefined)
  const Form = useMemo(() => (props: FormProps<Brand>) => <BrandForm {...props} segments={segments} />, [lists.data])
  const isOwn = (brand: Brand) => brand.is_own ?? project?.brand_id === brand.id
  const makeOwn = async (brand: Brand | null, reload: () => void) => {
    setFailure(undefined)
    try {
      await session.client.request("PATCH", `/projects/${session.projectId}`, { body: { brand_id: brand?.id ?? null } })
      data.forget("project")
      lists.reload()
      reload()
    } catch (error) {
      if (error instanceof ApiError) setFailure(error)
    }
  }
  return (
    <>
      <p class="lead">
        The own brand is the one the dashboard highlights{project === null ? "" : project.brand_id === null ? "; none is chosen yet" : ""}.
      </p>
      {failure !== undefined && <ErrorNotice error={failure} what="change the own brand" />}
      <Section<Brand>
        location={location}
        kind="brands"
        path="/brands"
        noun="brand"
        title="Brands"
        writeAbility="brands:write"
        nameOf={(brand) => brand.name}
        Form={Form}
        alsoForget={["project"]}
        onChanged={lists.reload}
        deleteWarning="Its mentions in the answers are deleted with it."
        extraActions={(brand, reload) =>
          session.can("projects:write") && project !== null && (project.brand_id === brand.id
            ? <button type="button" onClick={() => makeOwn(null, reload)} aria-label={`Unset ${brand.name} as the own brand`}>Unset own</button>
            : <button type="button" onClick={() => makeOwn(brand, reload)} aria-label={`Make ${brand.name} the own brand`}>Make own</button>)}
        columns={[
          { label: "Name", render: (brand) => brand.name },
          {
            // The own brand is said to be one (the API's is_own), whatever its classification for counting.
            label: "Classification",
            render: (brand) =>
              isOwn(brand)
                ? <><span class="badge badge-own badge-inline">own brand</span>{brand.classification === "ignored" && <span class="muted"> (ignored: not counted)</span>}</>
                : brand.classification
          },
          { label: "Aliases", render: (brand) => brand.aliases.join(", ") },
          { label: "Domains", render: (brand) => brand.domains.join(", ") },
          {
            label: "Segments",
            render: (brand) => brand.segment_ids.map((id) => segments.find((segment) => segment.id === id)?.name ?? id).join(", ")
          }
        ]}
      />
    </>
  )
}

const Segments = ({ location }: PageProps) => (
  <Section<Segment>
    location={location}
    kind="segments"
    path="/segments"
    noun="segment"
    title="Segments"
    writeAbility="segments:write"
    nameOf={(segment) => segment.name}
    Form={SegmentForm}
    deleteWarning="It is removed from its brands; the brands stay."
    columns={[{ label: "Name", render: (segment) => segment.name }]}
  />
)
