/**
 * The words brand suggestions never take for a brand (docs/suggestions.md, "Filters"): data only, lower
 * case. Written by this project's developers from common knowledge; nothing copied.
 *
 * A candidate made only of these words is dropped ("Best Overall", "Free Plan", "On Monday"); a leading
 * one is cut off a candidate ("Best Pipedrive alternative" keeps "Pipedrive alternative" and its key is
 * cut further, `Keys.ts`).
 */

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/u))

/** Days and months, with their usual abbreviations. */
const calendar = words(`
  monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
  january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec today tomorrow yesterday q1 q2 q3 q4
`)

/** Acronyms and short forms of the trade that answers capitalise: never a brand on their own. */
const acronyms = words(`
  ai api apis app apps crm crms erp saas paas iaas seo sem smb smbs sme smes b2b b2c d2c ui ux roi kpi kpis faq faqs
  pdf csv usa us uk eu uae it hr iot llm llms gdpr hipaa soc sso sla slas ceo cto cmo cfo coo pr tl;dr tldr ok tv gps
  vpn vpns cms cdp dam pim pos sms mfa 2fa ip dns ssl tls http https url urls html css sql nosql ml nlp gpu cpu ram ssd
  hdd usb hd 4k 5g lte wifi wi-fi byod rfp rfq sow nda mvp diy vip ppc cpc cpm ctr cta cx ex nps csat ar vr xr
  i ii iii iv v vi ps p.s nb n.b etc e.g i.e vs aka asap
`)

/**
 * Capitalised words of headings, labels and sentence starts that name nothing: articles, pronouns,
 * prepositions, conjunctions, and the vocabulary of buying guides.
 */
const common = words(`
  a an the this that these those it its it's they their them we our you your he she his her i my me us one ones
  if for with while when where which who whom whose what why how whether as at by from to in into on onto of off out
  over under about after before during between among within without through via per than then also and or but nor so
  yet both either neither each every all any some most many much more few several other others another such
  no not yes here there now just only even still again finally overall however additionally moreover furthermore
  according meanwhile instead otherwise alternatively similarly unlike like compared comparing plus note notes tip tips
  summary conclusion verdict bottom line takeaway takeaways recommendation recommendations introduction overview
  best top great good better leading popular notable honorable honourable mention mentions pick picks choice choices
  option options alternative alternatives winner runner runners-up runner-up budget premium enterprise business
  businesses small medium large startup startups team teams company companies agency agencies freelancer freelancers
  free freemium trial paid plan plans pricing price prices cost costs starts starting from month monthly year yearly
  annual annually user users seat seats per-user feature features key pros cons pro con strengths weaknesses
  advantages disadvantages drawbacks downsides limitations use uses case cases ideal suited great-for best-for why
  who's what's consider considering choose choosing try trying look looking check pick compare see read learn
  get getting start make find go keep avoid need needs want sign signup support customer customers service services
  integration integrations integrates automation automations reporting reports analytics dashboard dashboards
  mobile desktop web online cloud software platform platforms tool tools solution solutions product products
  system systems suite suites vendor vendors provider providers brand brands market markets industry review reviews
  rating ratings score scores rank ranking rankings list lists table comparison category categories type types
  security privacy compliance performance speed value quality ease usability simplicity scalability flexibility
  setup onboarding migration implementation customization customisation design interface ux/ui learning curve
  sales marketing email emails contact contacts lead leads deal deals pipeline pipelines project projects task tasks
  management manager managers crm-software ecommerce e-commerce commerce shop shopping store stores
  beginner beginners advanced basic standard professional essentials starter growth scale ultimate unlimited
  overall-best easiest cheapest fastest simplest most-affordable affordable cheap expensive
  first second third fourth fifth last next previous final step steps section part chapter example examples
  north south east west northern southern eastern western central global international local regional national
  important warning caution disclaimer update updated edit source sources reference references citation citations
  sponsored ad ads advertisement affiliate rated verified official unofficial version edition
  mr mrs ms dr st inc ltd llc family families personal individual individuals household home kids
  kanban scrum agile waterfall gantt scim saml oauth ldap kb mb gb tb
`)

/** Countries, regions and large cities answers name as places, not brands (English names). */
const places = words(`
  america american americas europe european asia asian africa african australia australian oceania antarctica
  canada canadian mexico mexican brazil brazilian argentina chile colombia peru germany german france french
  spain spanish italy italian portugal portuguese netherlands dutch belgium switzerland swiss austria sweden
  swedish norway norwegian denmark danish finland finnish ireland irish poland polish russia russian ukraine
  turkey greece china chinese japan japanese korea korean india indian indonesia vietnam thailand philippines
  singapore malaysia israel egypt nigeria kenya england english britain british scotland wales uk-based us-based
  york london paris berlin madrid rome tokyo beijing shanghai mumbai delhi bangalore sydney melbourne toronto
  vancouver montreal chicago boston seattle austin denver dallas houston miami atlanta angeles francisco
  california texas florida washington silicon valley dublin amsterdam munich zurich stockholm copenhagen oslo
  helsinki lisbon barcelona milan vienna prague warsaw dubai hong kong seoul taipei
`)

/** Every word above: a candidate made only of these names nothing. */
export const genericWords: ReadonlySet<string> = new Set([...calendar, ...acronyms, ...common, ...places])

/**
 * Whether a word (any case, a trailing possessive or punctuation ignored) is generic: listed, or a compound
 * adjective ("AI-based", "Swiss-based", "cloud-native").
 */
export const isGenericWord = (word: string): boolean => {
  const plain = plainWord(word)
  return genericWords.has(plain) || /-(?:based|native|powered|driven|friendly|focused|first)$/u.test(plain)
}

/** A word lower-cased, without a possessive `'s` and surrounding punctuation. */
export const plainWord = (word: string): string =>
  word
    .normalize("NFC")
    .replace(/[\u2019\u02bc]/gu, "'")
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")
    .replace(/'s$/u, "")

/** Legal-form suffixes, dropped from the end of a key ("Acme, Inc." is Acme). */
export const legalSuffixes: ReadonlySet<string> = words(`
  inc incorporated llc llp lp ltd limited plc corp corporation co company gmbh ag kg se sa sas sarl srl spa bv nv
  oy ab asa pty pte bhd kk
`)

/**
 * Category words dropped from the end of a key whatever the prompts ("HubSpot CRM" and "HubSpot" are
 * one candidate): the prompts' own frequent words are added per project (`Keys.ts`).
 */
export const defaultCategoryWords: ReadonlySet<string> = words(`
  crm crms software app apps platform tool tools suite cloud online hq
`)

/**
 * Words that mark a sentence as naming what a product works with rather than a rival ("integrates with
 * Gmail", "syncs with Outlook"): prose names in such a sentence are not candidates (docs/suggestions.md).
 */
export const integrationCue = /\b(?:integrat\w*|sync\w*|connect\w*|plug-?ins?|add-?ons?|exports?\s+to|imports?\s+from|works\s+with|built\s+on|runs\s+on|powered\s+by)\b/iu
