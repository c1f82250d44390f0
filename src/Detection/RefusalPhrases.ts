/**
 * The phrase rules of refusal detection (docs/detection.md, "Refusals"), one table per language.
 *
 * Each phrase is the source of a regular expression matched against one clause of normalized text:
 * lower case, NFKC, straight apostrophes, single spaces, no markdown emphasis (`Refusals.ts`). A phrase
 * matches at word boundaries (the classifier adds them). Phrases have BOUNDED length by construction:
 * no `*`, `+` or open `{n,}`, only `?`, alternation and `{m,n}` (a test holds every phrase to this), so
 * looking for them costs a constant per position of the text and never backtracks catastrophically.
 *
 * - `refusals`: the model declines ("I can't help with that").
 * - `deflections`: the model gives nothing for lack of knowledge or access ("I don't have information
 *   about …", "I can't browse the internet", "I'm not aware of …").
 * - `fillers`: words that carry no answer: apologies, pointers elsewhere ("check the official website"),
 *   hedges ("it's possible that"), requests for context. They only matter next to a refusal or a
 *   deflection: an answer made of those and fillers alone gave nothing.
 * - `exceptions`: idioms shaped like a refusal that are not one ("I can't recommend it enough").
 * - `contrasts`: words that open a new clause ("but", "however"), so "I can't browse, but X is …"
 *   keeps its answer apart from its deflection.
 */

export interface LanguagePhrases {
  /** BCP 47 language tag. */
  readonly language: string
  readonly refusals: ReadonlyArray<string>
  readonly deflections: ReadonlyArray<string>
  readonly fillers: ReadonlyArray<string>
  readonly exceptions: ReadonlyArray<string>
  readonly contrasts: ReadonlyArray<string>
}

/** Up to `n` arbitrary words (each at most 30 characters) before the rest of a phrase. */
const words = (n: number): string => `(?:[^ ]{1,30} ){0,${n}}`

/** A word that begins with `stem` (at most `extra` more letters): "ayudar" covers "ayudarte". */
const stem = (word: string, extra = 8): string => `${word}[^ ]{0,${extra}}`

const english: LanguagePhrases = {
  language: "en",
  refusals: [
    // I can't / won't / am unable to + a verb of help or supply.
    `i(?: can'?t| cannot| can not| won'?t| will not|(?:'m| am) (?:unable|not able|not going|not allowed|not permitted) to|(?:'d| would) (?:rather not|prefer not to)| (?:must|have to) decline to) (?:(?:really|directly|currently|actually|personally|fully|specifically|reliably|accurately|simply|just|be able to|in good conscience|at this time|right now) ){0,2}(?:help|assist|be of (?:help|assistance)|provide|answer|respond|comply|fulfil|fulfill|engage|discuss|talk about|comment on|endorse|continue|process|do (?:that|this)|go there|rank|(?:share|disclose|reveal) (?:that|this|such|details|information|personal|private|specific)|(?:create|generate|write|produce) (?:that|this|such|content)|give (?:you )?(?:advice|financial|medical|legal|investment|an? (?:answer|recommendation|ranking|opinion)|recommendations|specific|personal|that|this|information|opinions)|(?:recommend|endorse|name|pick|choose) (?:a |any |one |just one |a single |specific |particular |individual ){0,2}(?:brand|brands|product|products|company|companies|service|services|vendor|vendors|tool|tools|option|options|provider|providers|one|winner|favou?rite|specific|particular|over))`,
    `(?:that|this)(?:'s| is) not something i`,
    `(?:that|this) isn'?t something i`,
    `(?:can'?t|cannot) (?:help|assist) (?:you )?with (?:that|this|your request|this request|that request)`,
    `i (?:must|have to|need to) (?:respectfully |politely )?decline`,
    `(?:goes against|go against|violates|violate|is against|conflicts with|would violate|would go against) (?:my|our|the) ${words(2)}(?:guidelines|policies|policy|principles|programming|rules|terms)`,
    `let'?s (?:try|talk about|switch to|move on to) (?:a different|another|something else)`,
    `i(?:'m| am) (?:just |only )?an? (?:large )?(?:language model|ai model|ai assistant|text-based ai|text based ai)(?:,| and| so)? (?:i )?(?:can'?t|cannot|don'?t have the (?:capacity|ability)|do not have the (?:capacity|ability)|i(?:'m| am) (?:not able|unable))`,
    `i(?:'m| am) not (?:comfortable|in a position to)`,
    `i(?:'d| would)? prefer not to`,
    `(?:outside|beyond) (?:of )?(?:what i can|the scope of what i|my (?:scope|abilities|capabilities|remit))`
  ],
  deflections: [
    `i (?:don'?t|do not|didn'?t|did not) have ${words(3)}(?:information|info|details|data|knowledge|records?|access|browsing|internet|the ability to (?:browse|access|search|look))`,
    `i (?:lack|have no) ${words(2)}(?:information|info|access|data|knowledge|details)`,
    `i(?: couldn'?t| could not| can'?t| cannot| was unable to| wasn'?t able to| was not able to|(?:'m| am) unable to|(?:'m| am) not able to| did not| didn'?t) (?:seem to )?find ${words(3)}(?:information|info|details|data|anything|results?|mentions?|records?|sources?|evidence|references?)`,
    `i(?:'m| am) not (?:aware of|familiar with)`,
    `i(?: can'?t| cannot| can not|(?:'m| am) (?:unable|not able) to| don'?t| do not) (?:currently |directly )?(?:browse|surf|search the|access|look (?:it |that |this )?up|check|verify|retrieve|fetch|visit)`,
    `i (?:don'?t|do not) know (?:about|of|anything|much|enough|the answer|what|which|whether|if)`,
    `i(?:'m| am) not (?:sure|certain) (?:what|which|who) ${words(2)}you(?:'re| are)? ?(?:mean|referring|asking|looking)`,
    `i(?:'m| am) not (?:finding|seeing|getting) (?:anything|any (?:information|results|data|mentions?|records?))`,
    `(?:isn'?t|is not|wasn'?t|was not|not) enough (?:information|data|context|details)`,
    `i (?:don'?t|do not) have (?:any )?personal (?:opinions?|preferences?|views?|experiences?|feelings?|favou?rites?|beliefs?)`,
    `as an (?:ai|artificial intelligence|ai language model|ai assistant|language model),? i (?:don'?t|do not) have (?:opinions|preferences|feelings|views|beliefs)`,
    `(?:no|not enough|insufficient|limited) (?:information|data|results|details) (?:is |are |was |were )?(?:available|found|provided)`,
    `(?:the )?search results (?:don'?t|do not|didn'?t|did not) (?:contain|mention|include|provide|say)`,
    `there(?:'s| is| are| was| were) no (?:information|results|data|mention|details)`,
    `(?:no|without) (?:internet|web|online|real-time|live) access`
  ],
  fillers: [
    `sorry`,
    `apologi[sz]e`,
    `apologies`,
    `unfortunately`,
    `regrettably`,
    `thanks? (?:you )?(?:so much |very much )?(?:for (?:your|the|this|asking|reaching)|again)`,
    `thank you`,
    `(?:great|good) question`,
    `let me know(?: if)?(?: there(?:'s| is))?`,
    `(?:anything|something) else (?:i can|i could|you'?d like|you need)(?: help| assist| do)?(?: you)?(?: with)?`,
    `feel free`,
    `(?:anything|something|what) else`,
    `hope (?:this|that|it) helps`,
    `(?:happy|glad|here) to help`,
    `you (?:may|might|could|can|should|would) (?:want to |wish to |try to |need to |like to )?(?:check|visit|consult|contact|try|search|look|refer|reach out|ask|google|find)`,
    `please (?:check|visit|consult|contact|refer|reach out|try|verify|see|look)`,
    `i (?:would |'d )?(?:recommend|suggest|advise|encourage)(?: you)?(?: to)? (?:checking|visiting|consulting|contacting|looking|searching|reaching|check|visit|consult|contact|look|search|reach|verify|verifying)`,
    `(?:for|to get|to find) (?:the )?(?:most )?(?:up-to-date|up to date|current|latest|accurate|recent|reliable)`,
    `official (?:website|site|page|sources?|channels?|documentation)`,
    `it(?:'s| is) (?:possible|likely|unclear)`,
    `(?:it|they|this|that) (?:may|might|could) (?:be|have)`,
    `(?:maybe|perhaps|possibly)`,
    `name (?:may|might|could)`,
    `(?:if you (?:can|could)|could you|can you|would you) (?:please )?(?:provide|share|give|tell|clarify|rephrase|specify|elaborate)`,
    `(?:that|this|it) (?:would|will|could|might) help me`,
    `i(?:'m| am) (?:trained|designed|programmed) to`,
    `i (?:can|may|might) make mistakes`,
    `(?:google|bing) search`,
    `is there (?:anything|something)`,
    `on your mind`,
    `i(?:'m| am) (?:still )?learning`,
    `as of my (?:last |latest |most recent )?(?:knowledge |training )?(?:update|cutoff|cut-off)`,
    `knowledge (?:cutoff|cut-off|cut off)`,
    `while i work on`
  ],
  exceptions: [
    `(?:can'?t|cannot) (?:recommend|praise|thank) ${words(4)}(?:enough|highly enough)`,
    `(?:can'?t|cannot) help (?:but|thinking|feeling|wondering|noticing)`,
    `i (?:don'?t|do not) know about you`
  ],
  contrasts: [`but`, `however`, `although`, `though`]
}

const german: LanguagePhrases = {
  language: "de",
  refusals: [
    `(?:ich kann|kann ich) ${words(3)}(?:nicht|keine|keinen|nichts) ${words(2)}(?:helfen|weiterhelfen|behilflich|beantworten|antworten|${stem("empfehlung", 2)}|auskunft|unterstützen|nachkommen|erfüllen|bereitstellen|liefern|tun)`,
    `(?:ich möchte|möchte ich) ${words(3)}(?:nicht|keine|keinen) ${words(3)}(?:empfehlen|nennen|bewerten|beantworten)`,
    `(?:muss|möchte) (?:ich )?${words(2)}ablehnen`,
    `(?:ich darf|darf ich) ${words(2)}(?:nicht|keine|keinen)`,
    `(?:verstößt|verstösst) gegen (?:meine|die|unsere) ${words(1)}(?:richtlinien|regeln|grundsätze)`
  ],
  deflections: [
    `(?:ich habe|habe ich|mir liegen|liegen mir) ${words(3)}(?:keine|keinen|keinerlei|nicht genügend|nicht genug) ${words(2)}(?:${stem("information")}|angaben|daten|kenntnisse|zugriff|zugang|${stem("echtzeit", 12)})`,
    `(?:ich kann|kann ich) ${words(3)}(?:nicht|keine|keinen) ${words(2)}(?:im internet|internet|surfen|browsen|${stem("echtzeit", 12)}|aktuellen?|recherchieren|nachschlagen|abrufen|nachsehen)`,
    `(?:ich )?konnte ${words(3)}(?:keine|keinen|nichts|nicht) ${words(2)}(?:finden|${stem("information")})`,
    `(?:ich kenne|kenne ich) ${words(2)}(?:kein|keine|keinen|nicht)`,
    `(?:ich habe|habe ich) (?:keine|keinen) (?:persönlichen?|eigenen?) (?:meinungen?|vorlieben|präferenzen)`,
    `${stem("wissensstand", 2)}`
  ],
  fillers: [
    `leider`,
    `entschuldigung`,
    `(?:es )?tut mir leid`,
    `bitte (?:prüfen|überprüfen|besuchen|wenden|schauen|kontaktieren|informieren)`,
    `offiziellen? (?:website|webseite|seite|quellen)`,
    `(?:lassen sie|lass) (?:es )?mich wissen`,
    `(?:weitere|andere) fragen`,
    `es ist möglich`,
    `möglicherweise`,
    `vielleicht`,
    `ich empfehle ${words(2)}(?:zu prüfen|zu besuchen|nachzusehen|zu kontaktieren|direkt)`,
    `(?:könnten|können) sie ${words(2)}(?:genauer|präzisieren|mehr)`
  ],
  exceptions: [`(?:nur|nicht genug|nicht genügend) (?:empfehlen|loben)`],
  contrasts: [`aber`, `jedoch`, `allerdings`]
}

const french: LanguagePhrases = {
  language: "fr",
  refusals: [
    `je ne (?:peux|pourrai|pourrais|vais|veux|suis) pas (?:en mesure de |autorisée? à )?(?:vous |te |t'|y )?(?:${stem("aider", 2)}|répondre|fournir|donner|recommander|conseiller|traiter|satisfaire|accéder à cette demande|partager|fournir|faire (?:cela|ça))`,
    `je (?:dois|me vois (?:obligée?|contrainte?) de) (?:refuser|décliner)`,
    `je (?:préfère|préférerais) ne pas (?:vous )?(?:recommander|nommer|citer|classer|répondre|donner|conseiller)`,
    `(?:contraire|contrevient) à mes (?:règles|directives|principes|consignes)`
  ],
  deflections: [
    `je n'ai (?:pas|aucune?) ${words(2)}(?:d'informations?|informations?|données|de données|accès|d'accès)`,
    `je ne dispose (?:pas|d'aucune?) ${words(2)}(?:d'informations?|informations?|données|de données|accès|d'accès)`,
    `je ne connais pas`,
    `je n'ai (?:pas )?(?:pu|réussi à) trouver`,
    `je n'ai trouvé (?:aucune?|rien)`,
    `aucune? (?:information|donnée)s? (?:n'est|n'a été|ne sont|n'ont été|n'est pas) (?:disponibles?|trouvée?s?)`,
    `je ne (?:peux|suis) pas (?:en mesure de )?(?:naviguer|accéder à internet|accéder au web|consulter|rechercher|vérifier|surfer)`,
    `je n'ai pas d'(?:opinions?|avis|préférences?) personnel`,
    `(?:ma date|la date) (?:de coupure|limite de mes connaissances)`
  ],
  fillers: [
    `désolée?`,
    `malheureusement`,
    `je vous (?:conseille|recommande|invite|suggère) de (?:consulter|vérifier|visiter|contacter|vous renseigner)`,
    `(?:consultez|vérifiez|visitez|contactez)`,
    `site officiel`,
    `n'hésitez pas`,
    `autre chose`,
    `d'autres questions`,
    `il est possible que`,
    `peut-être`,
    `pourriez-vous (?:préciser|fournir|donner)`
  ],
  exceptions: [`ne (?:peux|pourrais) que`],
  contrasts: [`mais`, `cependant`, `toutefois`, `néanmoins`]
}

const spanish: LanguagePhrases = {
  language: "es",
  refusals: [
    `no (?:puedo|podré|podría|voy a|estoy en (?:condiciones|posición) de|me es posible) (?:te |le |les |realmente )?(?:${stem("ayudar", 3)}|${stem("proporcionar", 3)}|responder|cumplir|dar|${stem("ofrecer", 3)}|recomendar|atender|compartir|brindar|satisfacer|facilitar)`,
    `(?:debo|tengo que) (?:rechazar|declinar)`,
    `prefiero no (?:dar|nombrar|recomendar|mencionar|responder|indicar)`,
    `(?:va|iría) en contra de mis (?:políticas|directrices|normas|principios)`
  ],
  deflections: [
    `no (?:tengo|dispongo de|cuento con) ${words(2)}(?:información|informacion|datos|acceso|conocimiento)`,
    `no (?:he podido|pude|puedo|logré) encontrar`,
    `no encontré (?:información|nada|datos)`,
    `no (?:hay|existe|se encontró|se encontraron) (?:suficiente )?(?:información|datos)`,
    `no (?:conozco|estoy familiarizado con|estoy familiarizada con)`,
    `no (?:puedo|tengo la capacidad de) (?:navegar|acceder|consultar|buscar en|verificar)`,
    `no tengo (?:opiniones|preferencias) personales`
  ],
  fillers: [
    `lo siento`,
    `lo lamento`,
    `lamentablemente`,
    `desafortunadamente`,
    `(?:te|le) (?:recomiendo|sugiero) (?:consultar|visitar|verificar|revisar|contactar)`,
    `(?:sitio|página|web) (?:web )?oficial`,
    `(?:otra|alguna otra) pregunta`,
    `no dudes en`,
    `es posible que`,
    `quizás?`,
    `podrías (?:proporcionar|darme|especificar|aclarar)`
  ],
  exceptions: [`no puedo dejar de`],
  contrasts: [`pero`, `sin embargo`, `aunque`]
}

const italian: LanguagePhrases = {
  language: "it",
  refusals: [
    `non (?:posso|sono in grado di|potrò|riesco a|mi è (?:consentito|permesso)) (?:ti |le |vi |davvero )?(?:${stem("aiutar", 4)}|rispondere|${stem("fornir", 4)}|${stem("dar", 4)}|${stem("consigliar", 4)}|soddisfare|elaborare|condividere|raccomandare|esaudire)`,
    `devo (?:rifiutare|declinare)`,
    `preferisco non (?:indicare|nominare|consigliare|raccomandare|rispondere|fare nomi)`
  ],
  deflections: [
    `non (?:ho|dispongo di|possiedo) ${words(2)}(?:informazioni|dati|accesso|notizie)`,
    `non conosco`,
    `non sono a conoscenza`,
    `non (?:ci sono|esistono) (?:informazioni|dati)`,
    `non (?:sono riuscito|sono riuscita|riesco) a trovare`,
    `non ho trovato`,
    `non posso (?:navigare|accedere|consultare|cercare|verificare)`,
    `non ho (?:opinioni|preferenze) personali`
  ],
  fillers: [
    `mi dispiace`,
    `purtroppo`,
    `spiacente`,
    `(?:ti|le) consiglio di (?:controllare|consultare|visitare|verificare|contattare)`,
    `sito ufficiale`,
    `non esitare`,
    `altre domande`,
    `è possibile che`,
    `forse`,
    `potresti (?:fornire|specificare|chiarire)`
  ],
  exceptions: [`non posso che`],
  contrasts: [`ma`, `però`, `tuttavia`]
}

const portuguese: LanguagePhrases = {
  language: "pt",
  refusals: [
    `não (?:posso|consigo|poderei|vou|estou em condições de) (?:te |lhe |realmente )?(?:ajudar|fornecer|responder|dar|recomendar|atender|cumprir|compartilhar|partilhar|oferecer|indicar)`,
    `(?:devo|preciso) (?:recusar|declinar)`,
    `prefiro não (?:indicar|nomear|recomendar|citar|responder|mencionar)`
  ],
  deflections: [
    `não (?:tenho|disponho de|possuo) ${words(2)}(?:informações|informação|informacoes|dados|acesso|conhecimento)`,
    `não (?:encontrei|consegui encontrar|foi possível encontrar)`,
    `não conheço`,
    `não (?:há|existem) ${words(1)}(?:informações|informação|dados)`,
    `não (?:consigo|posso) (?:acessar|aceder|navegar|pesquisar|consultar|verificar)`,
    `não tenho (?:opiniões|preferências) pessoais`
  ],
  fillers: [
    `desculpe?`,
    `desculpa`,
    `lamento`,
    `infelizmente`,
    `recomendo (?:verificar|consultar|visitar|contatar|entrar)`,
    `site oficial`,
    `outras perguntas`,
    `não hesite`,
    `fique à vontade`,
    `é possível que`,
    `talvez`,
    `poderia (?:fornecer|especificar|esclarecer)`
  ],
  exceptions: [`não posso deixar de`],
  contrasts: [`mas`, `porém`, `contudo`, `no entanto`]
}

const dutch: LanguagePhrases = {
  language: "nl",
  refusals: [
    `(?:ik kan|kan ik) ${words(3)}(?:niet|geen) ${words(2)}(?:helpen|beantwoorden|antwoord|${stem("aanbeveling", 2)}|advies|verstrekken|voldoen)`,
    `(?:ik moet|moet ik) ${words(2)}(?:weigeren|afwijzen)`,
    `(?:ik mag|mag ik) ${words(2)}(?:niet|geen)`,
    `(?:noem|geef|beantwoord|doe) (?:ik )?liever (?:geen|niet)`
  ],
  deflections: [
    `(?:ik heb|heb ik) ${words(3)}(?:geen|onvoldoende) ${words(2)}(?:informatie|gegevens|toegang|kennis|data)`,
    `(?:ik ken|ken ik) geen`,
    `(?:er is|er zijn) geen (?:informatie|gegevens)`,
    `ik kon ${words(3)}(?:geen|niets|niet) ${words(2)}vinden`,
    `(?:ik kan|kan ik) ${words(3)}(?:niet|geen) ${words(2)}(?:internet|zoeken|opzoeken|browsen|surfen|raadplegen|controleren|realtime|actuele)`,
    `ik heb geen persoonlijke (?:mening|voorkeur)`
  ],
  fillers: [
    `het spijt me`,
    `sorry`,
    `helaas`,
    `excuses`,
    `(?:ik raad|raad ik) (?:je|u) aan`,
    `officiële (?:website|site)`,
    `laat het (?:me|mij) weten`,
    `(?:andere )?vragen`,
    `het is mogelijk dat`,
    `misschien`,
    `(?:kun je|kunt u) ${words(2)}(?:verduidelijken|specificeren)`
  ],
  exceptions: [`(?:niet genoeg|alleen maar) (?:aanbevelen|aanraden)`],
  contrasts: [`maar`, `echter`]
}

/** Every language's rules; all of them apply to every answer (no language detection). */
export const phraseTables: ReadonlyArray<LanguagePhrases> = [english, german, french, spanish, italian, portuguese, dutch]
