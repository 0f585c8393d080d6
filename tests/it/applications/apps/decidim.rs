//! Decidim (Ruby on Rails 6.1; PostgreSQL only): `decidim_proposals_proposals`, as the participant's proposal wizard
//! (`CreateProposal` makes a draft, then compare, complete (`UpdateProposal`), preview and `PublishProposal`), the
//! admin's official proposals (`Admin::CreateProposal`, some "created in a meeting"), and the import of accepted
//! proposals from another component (`Admin::ImportProposals`, `ProposalBuilder.copy`) write it, and as admins and
//! participants work on it later: a city's Decidim 0.28 with a participatory budget (district scopes, geocoded
//! addresses, costs, answers published in bulk, then the accepted ones imported into the voting component), the
//! municipal action plan, a neighbourhood plan and the city council's assembly, six weeks from 2026-10-01; 2,111
//! rows, 36 of them a retry's (3 hidden), 48 legitimate repeats.
//! Read: decidim/decidim release/0.28-stable (47f81a5, read from the mirror tremend-cofe/decidim, which carries
//! decidim's release branches; develop at 8fc6703 for comparison, where the state becomes a foreign key)
//! decidim-proposals/db/migrate/ (all 58; those touching the table: 20161212110850, 20170113114245, 20170118120151,
//! 20170120151202, 20170131092413, 20170205082832, 20170215131720, 20170215132030, 20170220152416, 20170228105156,
//! 20170307085300, 20170410073742, 20170612101809, 20171201122623, 20171220084719, 20180111110204, 20180305133811,
//! 20180529101323, 20180529110830, 20180711075004, 20180930125321 (two files: text level, then position),
//! 20181026073215, 20190215113158, 20191206154128, 20200120230130, 20200210135152, 20200227175922, 20200708091228,
//! 20200827154156, 20210310102839, 20230427105700_change_states_on_proposals, 20240404202756); decidim-proposals/app/
//! models/decidim/proposals/proposal.rb (`STATES`, `enum state`, `acts_as_list scope: :decidim_component_id`,
//! `update_votes_count`), proposal_vote.rb; commands create_proposal.rb, update_proposal.rb, publish_proposal.rb,
//! withdraw_proposal.rb, destroy_proposal.rb, vote_proposal.rb, admin/create_proposal.rb, admin/answer_proposal.rb,
//! admin/publish_answers.rb, admin/import_proposals.rb; services/decidim/proposals/proposal_builder.rb (`copy`: the
//! attributes it leaves out); controllers proposals_controller.rb (`new` redirects to an open draft, `create` does
//! not look), admin/proposals_imports_controller.rb; forms proposal_form.rb (scope falls back to the component's),
//! proposal_wizard_create_step_form.rb, admin/proposal_answer_form.rb, admin/proposals_import_form.rb; views
//! proposals/new.html.erb (a plain `<button type="submit">`, nothing disables it),
//! admin/proposal_answers/_form.html.erb (cost fields only with `answers_with_costs`);
//! spec/commands/decidim/proposals/admin/import_proposals_spec.rb.
//! decidim-core/lib/decidim/has_reference.rb (`store_reference` after commit, `update_column`), lib/decidim/core.rb
//! (`reference_generator`: prefix, first four letters of the class, `created_at` as %Y-%m in the request's zone, id),
//! lib/decidim/coauthorable.rb, app/models/decidim/coauthorship.rb (counter cache; the author follows on commit),
//! follow.rb, endorsement.rb (counter caches); decidim-comments/lib/decidim/comments/commentable.rb
//! (`update_comments_count` sets `updated_at`); Gemfile.lock (activerecord 6.1.7.6, acts_as_list 1.0.4).
//! brendon/acts_as_list 1.0.2 (vendored in opf/openproject 9be31b4) lib/acts_as_list/active_record/acts/list.rb,
//! callback_definer.rb, position_column_method_definer.rb (`add_to_list_bottom`, `update_all_with_touch`).
//! decidim/decidim issues #3155 (re-imports duplicated), #14091, PRs #7635 and #7638 (counters not copied).
//! The DDL is the table the migrations leave (columns in the order added; title and body re-added as jsonb in 2020,
//! state re-added as an integer in 2023), with its indexes; Decidim declares no foreign key on it.
//! On a create: `id` from the sequence; `created_at` = `updated_at`, UTC, microseconds. Step 1 (`CreateProposal`)
//! writes only `title` and `body` as `{locale: text}` in the participant's locale (plain text, hashtags rewritten) and
//! the component; `position` is acts_as_list's largest in the component + 1 (read without a lock: two creates within
//! ~30 ms get the same number); `state` 0 (not_answered); `coauthorships_count` 1 (the counter cache after the
//! coauthorship's insert); `follows_count` 1 (the author follows); `created_in_meeting` false; the other counters 0;
//! scope, address, cost fields, answer, `published_at` NULL. After commit `reference` is set by `update_column`
//! ("BCN-PROP-2026-10-<id>", the month in Europe/Madrid) without touching `updated_at`. The admin's create writes
//! every locale's title and body (HTML), scope, address and coordinates, `created_in_meeting`, then `published_at`
//! milliseconds later; its author is the organization or a meeting, so `follows_count` stays 0. An import copy takes
//! every column but id, times, state and answer, component, reference and the comment, endorsement, follow, note and
//! vote counters: it keeps the original's `published_at`, `position` (acts_as_list then shifts the component's rows at
//! or below it, touching them), scope, address, costs and `valuation_assignments_count`; its `coauthorships_count`
//! is the original's plus one per coauthor added again (the counter cache increments the copied value); the copied
//! authors follow it.
//! Later: step 3 sets scope (the component's when none is chosen), address and coordinates; publishing blanks title
//! and body and writes them back with `published_at`; edits within the edit window; answers set `state` (10
//! evaluating, 20 accepted, -10 rejected), `answer` (every locale), `answered_at`, `state_published_at` when the
//! component publishes answers at once (else the bulk "Publish answers" sets it later), and the cost fields (`{}`
//! without costs, empty locales when not accepted); withdrawing sets -20; every save bumps `updated_at`, and so does a
//! comment (`update_columns`); votes, endorsements, follows, notes, coauthors and valuator assignments only move their
//! counters. A discarded draft is deleted, and acts_as_list moves every later row of its component up one position,
//! touching their `updated_at`.
//! Retries (about 2% of participants' creates): "Send" on step 1 double-clicked (20-100 ms), or sent again 10-60 s
//! (some twice) after the redirect to the compare step (a trigram similarity search over the component) hung; the
//! participant goes on with the draft the last response showed, and the other draft stays a draft, is found and
//! discarded or found and published days later (then withdrawn, or rejected as a duplicate); the extra row is the
//! later insert, even when it is the one carried on. Three sent again 2-6 minutes after a stuck request, the first
//! draft taken for lost (hidden: a campaign's copies come minutes apart too); three in the last day. An admin's
//! official proposal re-sent after a timeout (later rejected as a duplicate). The import sent again after the proxy's
//! 60 s timeout while the first request still ran: both requests copy the originals neither has linked yet. Retried
//! complete and publish steps write nothing new (the same values; a draft already published is redirected).
//! Legitimate repeats: neighbours' campaigns, one text pasted by several people (some seconds to minutes apart at a
//! neighbourhood assembly, others days later); a participant who withdraws a proposal and sends it again (two within
//! two minutes); an admin entering the same official proposal in the action plan and in the assembly; one proposal
//! entered for two meetings; the copies of a campaign's accepted proposals, imported a second or less apart. Plain
//! near-repeats: titles from the same few templates with other places and bodies, drafts left behind, an import
//! copy beside its original (another component, no answer, its own counters).
//! Guessed: the city, components, settings (which have geocoding, costs, votes, immediate answers), rates, rhythms and
//! texts; the participants' retries and what they do with the extra draft; the admins' pace; when answers, imports and
//! the bulk publication happen; one technical verdict for a campaign's proposals; the import walking the originals
//! in id order; copy durations; the 30 ms window of the unlocked position read; the coauthorship counter of copies
//! (from Rails 6.1's callback order, not observed).
use std::collections::HashMap;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as the 0.28 migrations leave it on PostgreSQL (pg_dump's order and names).
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "decidim_proposals_proposals" (
    "id" serial NOT NULL, "decidim_component_id" integer NOT NULL, "decidim_scope_id" integer,
    "created_at" timestamp without time zone NOT NULL, "updated_at" timestamp without time zone NOT NULL,
    "proposal_votes_count" integer DEFAULT 0 NOT NULL, "answered_at" timestamp without time zone, "answer" jsonb,
    "reference" character varying, "address" text, "latitude" double precision, "longitude" double precision,
    "published_at" timestamp without time zone, "proposal_notes_count" integer DEFAULT 0 NOT NULL,
    "coauthorships_count" integer DEFAULT 0 NOT NULL, "participatory_text_level" character varying,
    "position" integer, "created_in_meeting" boolean DEFAULT false, "endorsements_count" integer DEFAULT 0 NOT NULL,
    "cost" numeric, "cost_report" jsonb, "execution_period" jsonb,
    "state_published_at" timestamp without time zone, "title" jsonb, "body" jsonb,
    "comments_count" integer DEFAULT 0 NOT NULL, "follows_count" integer DEFAULT 0 NOT NULL,
    "state" integer DEFAULT 0 NOT NULL, "valuation_assignments_count" integer DEFAULT 0,
    CONSTRAINT "decidim_proposals_proposals_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "decidim_proposals_proposal_body_search" ON "decidim_proposals_proposals" (md5(("body")::text));
CREATE INDEX "decidim_proposals_proposal_title_search" ON "decidim_proposals_proposals" (md5(("title")::text));
CREATE INDEX "index_decidim_proposals_proposals_on_created_at" ON "decidim_proposals_proposals" ("created_at");
CREATE INDEX "index_decidim_proposals_proposals_on_decidim_component_id"
    ON "decidim_proposals_proposals" ("decidim_component_id");
CREATE INDEX "index_decidim_proposals_proposals_on_decidim_scope_id"
    ON "decidim_proposals_proposals" ("decidim_scope_id");
CREATE INDEX "index_decidim_proposals_proposals_on_proposal_votes_count"
    ON "decidim_proposals_proposals" ("proposal_votes_count");"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Decidim runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id decidim_component_id decidim_scope_id created_at updated_at proposal_votes_count \
    answered_at answer reference address latitude longitude published_at proposal_notes_count coauthorships_count \
    participatory_text_level position created_in_meeting endorsements_count cost cost_report execution_period \
    state_published_at title body comments_count follows_count state valuation_assignments_count";

const NOW: i64 = T0 + 42 * DAY;
/// Central European Summer Time ends on 2026-10-25 at 01:00 UTC.
const DST_END: i64 = T0 + 24 * DAY + HOUR;
/// The organization's earlier proposals used the ids below.
const FIRST_ID: i64 = 41_208;
const PREFIX: &str = "BCN";
/// Two creates in a component closer than this read the same bottom position.
const RACE: i64 = 30_000;

const C1: usize = 0;
const C2: usize = 1;
const C3: usize = 2;
const C4: usize = 3;
const C5: usize = 4;

/// A proposals component: its id, geocoding, the share of participants picking a district, the scope it falls back
/// to, costs on answers, answers published at once, when creation is open and votes are on (days from T0,
/// Madrid time), endorsements.
struct Comp {
    id: i64,
    geo: bool,
    pick: u64,
    scope: Option<i64>,
    costs: bool,
    now: bool,
    open: i64,
    close: i64,
    votes: Option<(i64, i64)>,
    endorse: bool,
}

static COMPS: [Comp; 5] = [
    // Participatory budget 2027: proposals.
    Comp {
        id: 612,
        geo: true,
        pick: 75,
        scope: None,
        costs: true,
        now: false,
        open: 0,
        close: 28,
        votes: Some((14, 28)),
        endorse: true,
    },
    // Municipal action plan.
    Comp {
        id: 598,
        geo: false,
        pick: 45,
        scope: None,
        costs: false,
        now: true,
        open: 0,
        close: 42,
        votes: None,
        endorse: true,
    },
    // Neighbourhood plan of the Besòs (the process is scoped to Sant Martí).
    Comp {
        id: 640,
        geo: true,
        pick: 0,
        scope: Some(23),
        costs: false,
        now: true,
        open: 7,
        close: 35,
        votes: Some((20, 35)),
        endorse: false,
    },
    // The city council's assembly.
    Comp {
        id: 571,
        geo: false,
        pick: 0,
        scope: None,
        costs: false,
        now: true,
        open: 0,
        close: 42,
        votes: None,
        endorse: true,
    },
    // Participatory budget 2027: the vote (filled by the import only).
    Comp {
        id: 655,
        geo: true,
        pick: 0,
        scope: None,
        costs: false,
        now: true,
        open: 35,
        close: 35,
        votes: Some((36, 42)),
        endorse: false,
    },
];
/// The ten districts' scopes.
const DISTRICTS: [i64; 10] = [14, 15, 16, 17, 18, 19, 20, 21, 22, 23];
/// Creates per local hour, relative.
const HOURS: [i64; 24] = [3, 1, 1, 0, 0, 0, 1, 2, 4, 6, 7, 7, 6, 5, 5, 5, 6, 7, 8, 9, 10, 9, 7, 5];

const WHAT: &[(&str, &str)] = &[
    ("Més arbres i ombra a", "Más árboles y sombra en"),
    ("Pacificar el trànsit a", "Pacificar el tráfico en"),
    ("Un carril bici segregat a", "Un carril bici segregado en"),
    ("Nou espai de jocs infantils a", "Nuevo espacio de juegos infantiles en"),
    ("Fonts d'aigua potable a", "Fuentes de agua potable en"),
    ("Millorar la il·luminació a", "Mejorar la iluminación en"),
    ("Horts urbans comunitaris a", "Huertos urbanos comunitarios en"),
    ("Més bancs per a la gent gran a", "Más bancos para la gente mayor en"),
    ("Ampliar les voreres a", "Ampliar las aceras en"),
    ("Lavabos públics a", "Lavabos públicos en"),
    ("Un refugi climàtic a", "Un refugio climático en"),
    ("Zona d'esbarjo per a gossos a", "Zona de recreo para perros en"),
    ("Cobrir la pista esportiva a", "Cubrir la pista deportiva en"),
    ("Plaques solars als equipaments a", "Placas solares en los equipamientos de"),
    ("Aparcament segur de bicicletes a", "Aparcamiento seguro de bicicletas en"),
    ("Eliminar barreres arquitectòniques a", "Eliminar barreras arquitectónicas en"),
    ("Més papereres i contenidors a", "Más papeleras y contenedores en"),
    ("Una biblioteca de carrer a", "Una biblioteca de calle en"),
];
const PLACES: &[&str] = &[
    "la plaça del Sol",
    "el carrer de Sants",
    "la Rambla del Poblenou",
    "el parc de l'Espanya Industrial",
    "la plaça de la Virreina",
    "el carrer Gran de Gràcia",
    "la Via Júlia",
    "el passeig de Maragall",
    "la plaça d'Eivissa",
    "el carrer de Pere IV",
    "la Rambla de Prim",
    "els jardins de Can Sabaté",
    "el carrer d'Aragó",
    "el barri del Besòs",
    "la Verneda",
    "el Clot",
    "la Marina",
    "Sant Andreu",
    "Nou Barris",
    "el Raval",
    "la Barceloneta",
    "Sarrià",
    "Horta",
    "el Guinardó",
    "la Sagrera",
    "Sant Genís dels Agudells",
    "la Zona Franca",
    "el Turó de la Peira",
];
const POLICY: &[(&str, &str)] = &[
    ("Ampliar l'horari de les biblioteques", "Ampliar el horario de las bibliotecas"),
    ("Habitatge assequible per a joves", "Vivienda asequible para jóvenes"),
    ("Més places d'escola bressol pública", "Más plazas de escuela infantil pública"),
    ("Reduir el soroll nocturn", "Reducir el ruido nocturno"),
    ("Transport públic gratuït per als menors de 25 anys", "Transporte público gratuito para los menores de 25 años"),
    ("Simplificar els tràmits municipals en línia", "Simplificar los trámites municipales en línea"),
    ("Un pla contra la solitud no desitjada", "Un plan contra la soledad no deseada"),
    ("Més inspeccions als pisos turístics", "Más inspecciones a los pisos turísticos"),
    ("Menjadors escolars amb producte de proximitat", "Comedores escolares con producto de proximidad"),
    ("Recollida selectiva porta a porta", "Recogida selectiva puerta a puerta"),
    ("Suport al comerç de proximitat", "Apoyo al comercio de proximidad"),
    ("Casals d'estiu assequibles", "Casales de verano asequibles"),
    ("Més hores de neteja als carrers", "Más horas de limpieza en las calles"),
    ("Punts d'assessorament energètic", "Puntos de asesoramiento energético"),
    ("Espais per a adolescents als barris", "Espacios para adolescentes en los barrios"),
];
const SUFFIX: &[(&str, &str)] = &[
    ("", ""),
    ("", ""),
    ("", ""),
    (" a tots els districtes", " en todos los distritos"),
    (" al districte de Sant Martí", " en el distrito de Sant Martí"),
    (" a Nou Barris", " en Nou Barris"),
    (" per a la gent gran", " para la gente mayor"),
    (" el 2027", " en 2027"),
    (" als barris de muntanya", " en los barrios de montaña"),
];
/// A body's sentences, with the range of the number each takes.
const WHY: &[(&str, &str, i64, i64)] = &[
    (
        "Cada dia hi passen més de {n} persones i no hi ha cap lloc per seure.",
        "Cada día pasan más de {n} personas y no hay ningún lugar para sentarse.",
        200,
        3000,
    ),
    (
        "A l'estiu la temperatura hi supera els {n} graus i no hi ha ni una ombra.",
        "En verano la temperatura supera los {n} grados y no hay ni una sombra.",
        33,
        41,
    ),
    ("Els veïns ho demanem des de fa {n} anys.", "Los vecinos lo pedimos desde hace {n} años.", 2, 15),
    ("Hi ha {n} escoles a menys de cinc minuts.", "Hay {n} escuelas a menos de cinco minutos.", 2, 6),
    ("Els cotxes hi circulen a més de {n} km/h.", "Los coches circulan a más de {n} km/h.", 40, 70),
    ("L'espai està abandonat i ple de brutícia.", "El espacio está abandonado y lleno de suciedad.", 0, 0),
    ("La gent gran del barri no té on anar.", "La gente mayor del barrio no tiene adónde ir.", 0, 0),
    ("Seria una inversió petita amb molt d'impacte.", "Sería una inversión pequeña con mucho impacto.", 0, 0),
    ("Proposem fer-ho amb les entitats del barri.", "Proponemos hacerlo con las entidades del barrio.", 0, 0),
    ("Som {n} famílies que hi vivim a prop.", "Somos {n} familias que vivimos cerca.", 12, 300),
    (
        "Caldria coordinar-ho amb l'AFA i el casal de gent gran.",
        "Habría que coordinarlo con la AFA y el casal de gente mayor.",
        0,
        0,
    ),
    ("Ja s'ha fet en altres barris i funciona molt bé.", "Ya se ha hecho en otros barrios y funciona muy bien.", 0, 0),
    ("De nit la zona és fosca i fa inseguretat.", "Por la noche la zona está oscura y da inseguridad.", 0, 0),
    ("El pressupost estimat és d'uns {n}.000 euros.", "El presupuesto estimado es de unos {n}.000 euros.", 15, 600),
    ("Hi ha una llista d'espera de {n} persones.", "Hay una lista de espera de {n} personas.", 40, 900),
];
const ADDENDA: &[(&str, &str)] = &[
    (
        "Afegeixo que també en sortiria beneficiada l'escola del costat.",
        "Añado que también saldría beneficiada la escuela de al lado.",
    ),
    ("Corregit: em referia al tram entre les dues places.", "Corregido: me refería al tramo entre las dos plazas."),
    ("Gràcies pels comentaris, he afegit més detalls.", "Gracias por los comentarios, he añadido más detalles."),
];
/// Streets for the geocoded addresses: name, postcode, latitude, longitude.
const STREETS: &[(&str, &str, f64, f64)] = &[
    ("Carrer de Sants", "08014", 41.3755, 2.1365),
    ("Rambla del Poblenou", "08005", 41.4005, 2.2025),
    ("Carrer Gran de Gràcia", "08012", 41.4010, 2.1530),
    ("Via Júlia", "08042", 41.4440, 2.1785),
    ("Passeig de Maragall", "08041", 41.4180, 2.1810),
    ("Carrer de Pere IV", "08005", 41.4050, 2.2000),
    ("Rambla de Prim", "08019", 41.4160, 2.2080),
    ("Carrer d'Aragó", "08013", 41.3990, 2.1750),
    ("Carrer de Mallorca", "08013", 41.4030, 2.1720),
    ("Carrer Gran de Sant Andreu", "08030", 41.4355, 2.1900),
    ("Carrer Major de Sarrià", "08017", 41.3995, 2.1215),
    ("Carrer de Cartagena", "08026", 41.4120, 2.1745),
    ("Carrer de Guipúscoa", "08020", 41.4205, 2.2010),
    ("Passeig de la Zona Franca", "08038", 41.3630, 2.1390),
    ("Carrer de l'Hospital", "08001", 41.3800, 2.1695),
    ("Passeig de Joan de Borbó", "08003", 41.3790, 2.1890),
    ("Carrer d'Horta", "08032", 41.4300, 2.1600),
    ("Carrer de Cristóbal de Moura", "08019", 41.4130, 2.2095),
];

/// Answers: what kind of text the admin writes.
const EVAL: u8 = 0;
const ACCEPT: u8 = 1;
const REJECT: u8 = 2;
const DUP: u8 = 3;

/// A row: what its create wrote, its plan's group, and what the replay made of it.
#[derive(Clone, Default)]
struct Row {
    at: i64,
    comp: usize,
    /// 0 Catalan, 1 Spanish (a participant's one locale), 2 every locale (an admin's).
    loc: u8,
    title: [String; 2],
    body: [String; 2],
    official: bool,
    meeting: bool,
    /// The original, for an import copy.
    copy: Option<usize>,
    /// A retry group or a group of legitimate repeats (index + 1).
    grp: usize,
    hidden: bool,
    /// The campaign (index + 1) whose text the row carries.
    camp: usize,
    mark: Mark,
    // The replay.
    live: bool,
    id: i64,
    pos: Option<i64>,
    updated: i64,
    published: Option<i64>,
    scope: Option<i64>,
    addr: Option<usize>,
    state: i64,
    answered: Option<i64>,
    answer: Option<String>,
    state_pub: Option<i64>,
    cost: Option<f64>,
    cost_report: Option<String>,
    exec: Option<String>,
    comments: i64,
    follows: i64,
    coauth: i64,
    valuations: i64,
}

#[derive(Clone, Copy)]
enum K {
    Create,
    Copy,
    /// Step 3 of the wizard: the scope and address sent.
    Complete(Option<i64>, Option<usize>),
    Publish,
    AdminPublish,
    Edit,
    Coauthor,
    Answer(i64, u8),
    /// "Publish answers" on every answered proposal of the participatory budget.
    Bulk,
    Withdraw,
    Comment,
    Destroy,
}

struct Ev {
    t: i64,
    k: usize,
    kind: K,
}

/// What a participant does after step 1.
#[derive(Clone, Copy, Default)]
struct Flow {
    /// Always completes and publishes.
    keep: bool,
    choice: Option<(Option<i64>, Option<usize>)>,
    /// The text is not edited afterwards.
    frozen: bool,
    /// Goes through the steps in seconds.
    fast: bool,
    /// Withdraws this long after publishing.
    withdraw: Option<i64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Try {
    No,
    Yes,
    /// Sent again minutes later.
    Hidden,
}

fn offset(t: i64) -> i64 {
    if t < DST_END { 2 * HOUR } else { HOUR }
}

/// Local midnight of day `d` from T0, in UTC.
fn local_day(d: i64) -> i64 {
    let m = T0 + d * DAY;
    m - offset(m)
}

fn local_weekday(t: i64) -> i64 {
    ((t + offset(t)).div_euclid(DAY) + 3).rem_euclid(7)
}

/// The civil year and month of `t` (days to date after Howard Hinnant).
fn year_month(t: i64) -> (i64, i64) {
    let z = t.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m)
}

/// A JSON string.
fn js(s: &str) -> String {
    let mut o = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A translatable field as an admin form posts it: Catalan, English left empty, Spanish.
fn every_locale(ca: &str, es: &str) -> String {
    format!("{{\"ca\": {}, \"en\": \"\", \"es\": {}}}", js(ca), js(es))
}

struct Plan {
    r: Rng,
    rows: Vec<Row>,
    evs: Vec<Ev>,
    groups: Vec<Mark>,
    addrs: Vec<(String, f64, f64)>,
    next_id: i64,
    /// Per component: the last create's time and the bottom position it read.
    last: [(i64, i64); 5],
    /// A campaign's proposals get the same technical verdict in the budget.
    verdicts: HashMap<usize, u64>,
}

impl Plan {
    fn push(&mut self, row: Row) -> usize {
        self.rows.push(row);
        self.rows.len() - 1
    }

    fn ev(&mut self, t: i64, k: usize, kind: K) {
        self.evs.push(Ev { t, k, kind });
    }

    fn group(&mut self, mark: Mark) -> usize {
        self.groups.push(mark);
        self.groups.len()
    }

    fn us(&mut self) -> i64 {
        self.r.below(1_000_000) as i64
    }

    /// A create time in component `c`: a day of its open period (the first days and the last before it closes
    /// busier, weekends quieter), an hour of the local evening more likely than the morning.
    fn when(&mut self, c: usize) -> i64 {
        let cm = &COMPS[c];
        let w: Vec<i64> = (0..42)
            .map(|d| {
                if d < cm.open || d >= cm.close {
                    return 0;
                }
                let mut w = if d < cm.open + 3 { 22 } else { 10 };
                if cm.close < 42 && d >= cm.close - 3 {
                    w = 26;
                }
                if local_weekday(local_day(d) + 12 * HOUR) >= 5 { w * 7 / 10 } else { w }
            })
            .collect();
        let d = self.r.weighted(&w) as i64;
        let h = self.r.weighted(&HOURS) as i64;
        local_day(d) + h * HOUR + self.r.below(HOUR as u64) as i64
    }

    /// A time on a working day, 08:00-15:00 local, from a day between `lo` and `hi` (a weekend's the next Monday).
    fn office(&mut self, lo: i64, hi: i64) -> i64 {
        let hi = hi.max(lo + DAY);
        let mut t = lo + self.r.below((hi - lo) as u64) as i64;
        loop {
            let off = offset(t);
            let midnight = (t + off).div_euclid(DAY) * DAY - off;
            let s = midnight + 8 * HOUR + self.r.below(7 * HOUR as u64) as i64;
            if local_weekday(midnight + 12 * HOUR) < 5 && s > lo {
                return s;
            }
            t = midnight + DAY + 12 * HOUR;
        }
    }

    fn addr(&mut self) -> usize {
        let &(street, cp, lat, lon) = self.r.pick(STREETS);
        let n = 1 + self.r.skewed(240);
        let jitter = |r: &mut Rng| (r.range(-20_000, 20_000) as f64) / 1e7;
        let lat = ((lat + jitter(&mut self.r)) * 1e7).round() / 1e7;
        let lon = ((lon + jitter(&mut self.r)) * 1e7).round() / 1e7;
        self.addrs.push((format!("{street}, {n}, {cp} Barcelona"), lat, lon));
        self.addrs.len() - 1
    }

    /// What a participant sends on step 3: a district (else the component's scope) and, with geocoding, an address
    /// picked from the autocomplete (which fills the coordinates).
    fn choose(&mut self, c: usize) -> (Option<i64>, Option<usize>) {
        let cm = &COMPS[c];
        let scope = match cm.scope {
            Some(s) => Some(s),
            None if self.r.below(100) < cm.pick => Some(DISTRICTS[self.r.below(10) as usize]),
            None => None,
        };
        let addr = (cm.geo && self.r.chance(0.55)).then(|| self.addr());
        (scope, addr)
    }

    fn sentences(&mut self, n: usize) -> Vec<(String, String)> {
        let mut used: Vec<usize> = Vec::new();
        while used.len() < n {
            let i = self.r.below(WHY.len() as u64) as usize;
            if !used.contains(&i) {
                used.push(i);
            }
        }
        used.iter()
            .map(|&i| {
                let (ca, es, lo, hi) = WHY[i];
                let n = self.r.range(lo, hi).to_string();
                (ca.replace("{n}", &n), es.replace("{n}", &n))
            })
            .collect()
    }

    fn title_pair(&mut self, c: usize) -> (String, String) {
        // Catalan and Spanish contract a preposition and the article.
        let contract = |s: String| {
            let s = s.replace(" a els ", " als ").replace(" a el ", " al ");
            s.replace(" de els ", " dels ").replace(" de el ", " del ")
        };
        let (a, b) = self.title_words(c);
        (contract(a), contract(b))
    }

    fn title_words(&mut self, c: usize) -> (String, String) {
        if c == C2 || c == C4 {
            let (a, b) = *self.r.pick(POLICY);
            let (sa, sb) = *self.r.pick(SUFFIX);
            (format!("{a}{sa}"), format!("{b}{sb}"))
        } else {
            let (a, b) = *self.r.pick(WHAT);
            let p = *self.r.pick(PLACES);
            (format!("{a} {p}"), format!("{b} {p}"))
        }
    }

    /// A participant's title and plain-text body, in Catalan or Spanish.
    fn text(&mut self, c: usize) -> Row {
        let loc = if self.r.chance(0.62) { 0 } else { 1 };
        let (ta, tb) = self.title_pair(c);
        let n = 2 + self.r.below(4) as usize;
        let parts: Vec<String> = self.sentences(n).into_iter().map(|(ca, es)| if loc == 0 { ca } else { es }).collect();
        let sep = if self.r.chance(0.3) { "\n\n" } else { " " };
        let title = if loc == 0 { ta } else { tb };
        Row { comp: c, loc, title: [title, String::new()], body: [parts.join(sep), String::new()], ..Row::default() }
    }

    /// An admin's title and HTML body in Catalan and Spanish.
    fn official_text(&mut self, c: usize) -> Row {
        let (ta, tb) = self.title_pair(c);
        let n = 2 + self.r.below(3) as usize;
        let s = self.sentences(n);
        let ca: String = s.iter().map(|p| format!("<p>{}</p>", p.0)).collect();
        let es: String = s.iter().map(|p| format!("<p>{}</p>", p.1)).collect();
        Row { comp: c, loc: 2, title: [ta, tb], body: [ca, es], official: true, ..Row::default() }
    }

    /// A participant's create, retried or not.
    fn participant(&mut self, c: usize, t: i64, retry: Try) {
        let base = Row { at: t, ..self.text(c) };
        let retry = if retry == Try::No && self.r.chance(0.021) { Try::Yes } else { retry };
        if retry == Try::No {
            let k = self.push(base);
            self.ev(t, k, K::Create);
            self.flow(k, Flow::default());
            return;
        }
        let g = self.group(Mark::Retry);
        let mut times = vec![t];
        let d = if retry == Try::Hidden {
            self.r.range(120, 360) * SECOND + self.us()
        } else {
            client_retry_delay(&mut self.r)
        };
        times.push(t + d);
        if retry == Try::Yes && d > SECOND && self.r.chance(0.25) {
            times.push(t + d + self.r.range(20, 120) * SECOND + self.us());
        }
        let choice = self.choose(c);
        let last = times.len() - 1;
        for (i, &at) in times.iter().enumerate() {
            let hidden = retry == Try::Hidden && i > 0;
            let k = self.push(Row { at, grp: g, hidden, ..base.clone() });
            self.ev(at, k, K::Create);
            if i == last {
                self.flow(k, Flow { choice: Some(choice), frozen: true, ..Flow::default() });
            } else if retry == Try::Yes {
                self.orphan(k, choice);
            }
        }
    }

    /// A draft its author lost sight of: left, or found on the next "New proposal" (which opens it) and discarded or
    /// published as if new. (After a stuck request the author takes the first draft for lost: it stays.)
    fn orphan(&mut self, k: usize, choice: (Option<i64>, Option<usize>)) {
        let (at, c) = (self.rows[k].at, self.rows[k].comp);
        let x = self.r.below(100);
        let found = at + self.r.range(3_600, 10 * 86_400) * SECOND + self.us();
        if x < 55 || found >= local_day(COMPS[c].close) {
            return;
        }
        if x < 83 {
            self.ev(found, k, K::Destroy);
            return;
        }
        let ch = if self.r.chance(0.7) { choice } else { self.choose(c) };
        let t1 = found + self.r.range(30, 300) * SECOND + self.us();
        self.ev(t1, k, K::Complete(ch.0, ch.1));
        let tp = t1 + self.r.range(10, 120) * SECOND + self.us();
        self.ev(tp, k, K::Publish);
        if self.r.chance(0.4) {
            let t = tp + self.r.range(3_600, 3 * 86_400) * SECOND + self.us();
            self.ev(t, k, K::Withdraw);
        } else if self.r.chance(0.6) {
            let t = self.office(tp + DAY, tp + 8 * DAY);
            self.ev(t, k, K::Answer(-10, DUP));
        }
    }

    /// Steps 2-4 after a draft: compare, complete, preview, publish; some stop on the way.
    fn flow(&mut self, k: usize, f: Flow) -> Option<i64> {
        let (at, c) = (self.rows[k].at, self.rows[k].comp);
        if !f.keep && self.r.chance(0.11) {
            if self.r.chance(0.3) {
                let t = at + self.r.range(120, 3 * 86_400) * SECOND + self.us();
                self.ev(t, k, K::Destroy);
            }
            return None;
        }
        let think = if f.fast {
            self.r.range(25, 50)
        } else if self.r.chance(0.5) {
            self.r.range(40, 120)
        } else {
            self.r.range(120, 900)
        };
        let t1 = at + think * SECOND + self.us();
        let ch = match f.choice {
            Some(ch) => ch,
            None => self.choose(c),
        };
        self.ev(t1, k, K::Complete(ch.0, ch.1));
        if !f.keep && self.r.chance(0.045) {
            return None;
        }
        let wait = if f.fast { self.r.range(8, 20) } else { self.r.range(10, 240) };
        let tp = t1 + wait * SECOND + self.us();
        if tp >= local_day(COMPS[c].close) {
            return None;
        }
        self.ev(tp, k, K::Publish);
        self.after(k, tp, f);
        Some(tp)
    }

    /// A published proposal's life: an edit, a coauthor, comments, a withdrawal or answers.
    fn after(&mut self, k: usize, tp: i64, f: Flow) {
        let official = self.rows[k].official;
        if !f.frozen && !official && self.r.chance(0.06) {
            let t = tp + self.r.range(30, 290) * SECOND + self.us();
            self.ev(t, k, K::Edit);
        }
        if !official && tp < local_day(20) && self.r.chance(0.03) {
            let t = tp + self.r.range(3_600, 3 * 86_400) * SECOND + self.us();
            self.ev(t, k, K::Coauthor);
        }
        let busy = if self.r.chance(0.05) { self.r.range(3, 15) } else { 0 };
        let n = [0, 0, 0, 0, 1, 1, 2, 3][self.r.below(8) as usize] + busy;
        for _ in 0..n {
            let t = tp + self.r.range(600, 12 * 86_400) * SECOND + self.us();
            self.ev(t, k, K::Comment);
        }
        if let Some(d) = f.withdraw {
            self.ev(tp + d, k, K::Withdraw);
            return;
        }
        if !official && self.r.chance(0.02) {
            let t = tp + self.r.range(3_600, 10 * 86_400) * SECOND + self.us();
            self.ev(t, k, K::Withdraw);
            return;
        }
        self.answers(k, tp);
    }

    /// The admins' answers, per component.
    fn answers(&mut self, k: usize, tp: i64) {
        let (c, official) = (self.rows[k].comp, self.rows[k].official);
        match c {
            C1 => {
                let (lo, hi) = ((tp + 2 * DAY).max(local_day(18)), local_day(32));
                if lo >= hi - DAY {
                    return;
                }
                let camp = self.rows[k].camp;
                let x = if camp > 0 {
                    let r = &mut self.r;
                    *self.verdicts.entry(camp).or_insert_with(|| r.below(100))
                } else {
                    self.r.below(100)
                };
                if x < 22 {
                    return;
                }
                let fin = if x < 37 {
                    (10, EVAL)
                } else if x < 53 {
                    (20, ACCEPT)
                } else {
                    (-10, REJECT)
                };
                let t1 = self.office(lo, hi);
                if fin.0 != 10 && self.r.chance(0.4) {
                    self.ev(t1, k, K::Answer(10, EVAL));
                    let t2 = self.office(t1 + DAY, hi.max(t1 + 2 * DAY));
                    self.ev(t2, k, K::Answer(fin.0, fin.1));
                } else {
                    self.ev(t1, k, K::Answer(fin.0, fin.1));
                }
            }
            C2 if self.r.chance(0.3) => {
                let t = self.office(tp + 3 * DAY, tp + 20 * DAY);
                let fin = if self.r.chance(0.75) {
                    (10, EVAL)
                } else if self.r.chance(0.5) {
                    (20, ACCEPT)
                } else {
                    (-10, REJECT)
                };
                self.ev(t, k, K::Answer(fin.0, fin.1));
            }
            C3 if self.r.chance(0.4) => {
                let t = self.office((tp + 2 * DAY).max(local_day(22)), local_day(36));
                let fin = *self.r.pick(&[(10, EVAL), (20, ACCEPT), (20, ACCEPT), (-10, REJECT)]);
                self.ev(t, k, K::Answer(fin.0, fin.1));
            }
            C4 if official && self.r.chance(0.5) => {
                let t = self.office(tp + DAY, tp + 10 * DAY);
                self.ev(t, k, K::Answer(20, ACCEPT));
            }
            C4 if !official && self.r.chance(0.3) => {
                let t = self.office(tp + 2 * DAY, tp + 12 * DAY);
                self.ev(t, k, K::Answer(10, EVAL));
            }
            _ => {}
        }
    }

    /// An official proposal from the admin form: created, then published milliseconds later. `preset`: the scope and
    /// address are the row's (the same form sent again).
    fn official(&mut self, row: Row, life: bool, preset: bool) -> usize {
        let (t, c) = (row.at, row.comp);
        let (scope, addr) = if preset {
            (row.scope, row.addr)
        } else {
            let scope = match COMPS[c].scope {
                Some(s) => Some(s),
                None if COMPS[c].pick > 0 && self.r.chance(if c == C1 { 0.7 } else { 0.3 }) => {
                    Some(DISTRICTS[self.r.below(10) as usize])
                }
                None => None,
            };
            (scope, (COMPS[c].geo && self.r.chance(0.4)).then(|| self.addr()))
        };
        let k = self.push(Row { scope, addr, ..row });
        self.ev(t, k, K::Create);
        let tp = t + self.r.range(8_000, 30_000);
        self.ev(tp, k, K::AdminPublish);
        if life {
            self.after(k, tp, Flow { frozen: true, ..Flow::default() });
        }
        k
    }

    /// Applies one event to the rows as the server would.
    fn apply(&mut self, e: &Ev) {
        let (t, k) = (e.t, e.k);
        if let K::Bulk = e.kind {
            let mut ks: Vec<usize> = (0..self.rows.len())
                .filter(|&j| {
                    let x = &self.rows[j];
                    x.live && x.comp == C1 && x.published.is_some() && x.answered.is_some() && x.state_pub.is_none()
                })
                .collect();
            ks.sort_by_key(|&j| self.rows[j].id);
            let mut at = t;
            for j in ks {
                at += self.r.range(40_000, 120_000);
                let up = at + self.r.range(200, 700);
                (self.rows[j].state_pub, self.rows[j].updated) = (Some(at), up);
            }
            return;
        }
        let c = self.rows[k].comp;
        if matches!(e.kind, K::Create | K::Copy) {
            let live = self.rows.iter().filter(|y| y.live && y.comp == c);
            let bottom = live.filter_map(|y| y.pos).max().unwrap_or(0);
            let pos = if let K::Copy = e.kind {
                let o = self.rows[k].copy.unwrap();
                let src = self.rows[o].clone();
                let x = &mut self.rows[k];
                (x.loc, x.title, x.body, x.official) = (src.loc, src.title, src.body, src.official);
                (x.scope, x.addr, x.published, x.meeting) = (src.scope, src.addr, src.published, src.meeting);
                (x.cost, x.cost_report, x.exec) = (src.cost, src.cost_report, src.exec);
                x.valuations = src.valuations;
                x.coauth = 2 * src.coauth;
                x.follows = if src.official { 0 } else { src.coauth };
                // add_to_list_bottom with a position given: the rows at or below it move down one.
                if let Some(p) = src.pos {
                    for y in self.rows.iter_mut().filter(|y| y.live && y.comp == c) {
                        if y.pos.is_some_and(|q| q >= p) {
                            y.pos = y.pos.map(|q| q + 1);
                            y.updated = t;
                        }
                    }
                }
                src.pos
            } else {
                let (lt, lb) = self.last[c];
                let read = if t - lt < RACE { lb } else { bottom };
                self.last[c] = (t, read);
                let x = &mut self.rows[k];
                x.coauth = 1;
                x.follows = i64::from(!x.official);
                Some(read + 1)
            };
            let x = &mut self.rows[k];
            (x.live, x.id, x.pos, x.updated) = (true, self.next_id, pos, t);
            self.next_id += 1;
            return;
        }
        if !self.rows[k].live {
            return;
        }
        let draft = self.rows[k].published.is_none();
        let tick = self.r.range(80, 900);
        match e.kind {
            K::Complete(scope, addr) if draft => {
                // The form falls back to the component's scope.
                let scope = scope.or(COMPS[c].scope);
                let x = &mut self.rows[k];
                if x.scope != scope || x.addr != addr {
                    (x.scope, x.addr, x.updated) = (scope, addr, t);
                }
            }
            K::Publish | K::AdminPublish if draft => {
                let x = &mut self.rows[k];
                (x.published, x.updated) = (Some(t), t + tick);
            }
            K::Destroy if draft => {
                let p = self.rows[k].pos;
                self.rows[k].live = false;
                if let Some(p) = p {
                    for y in self.rows.iter_mut().filter(|y| y.live && y.comp == c) {
                        if y.pos.is_some_and(|q| q > p) {
                            y.pos = y.pos.map(|q| q - 1);
                            y.updated = t;
                        }
                    }
                }
            }
            K::Edit if !draft && self.rows[k].loc < 2 => {
                let l = self.rows[k].loc as usize;
                let add = self.r.pick(ADDENDA);
                let x = &mut self.rows[k];
                x.body[0] = format!("{} {}", x.body[0], if l == 0 { add.0 } else { add.1 });
                x.updated = t;
            }
            K::Coauthor if !draft => {
                let x = &mut self.rows[k];
                x.coauth += 1;
                x.follows += 1;
            }
            K::Comment if !draft => {
                let x = &mut self.rows[k];
                x.comments += 1;
                x.updated = t;
            }
            K::Withdraw if !draft && self.rows[k].state != -20 => {
                let x = &mut self.rows[k];
                (x.state, x.updated) = (-20, t);
            }
            K::Answer(state, kind) if !draft && self.rows[k].state != -20 => {
                let answer = self.answer_text(kind);
                let cm = &COMPS[c];
                let (cost, report, exec) = if !cm.costs {
                    (None, "{}".to_string(), "{}".to_string())
                } else if state == 20 {
                    let cost = (self.r.range(8, 400) * 1_000) as f64;
                    let report = every_locale(
                        "<p>Inclou la redacció del projecte, l'obra i la direcció d'obra.</p>",
                        "<p>Incluye la redacción del proyecto, la obra y la dirección de obra.</p>",
                    );
                    let year = if self.r.chance(0.7) { "2027" } else { "2027-2028" };
                    (Some(cost), report, every_locale(&format!("<p>{year}</p>"), &format!("<p>{year}</p>")))
                } else {
                    (None, every_locale("", ""), every_locale("", ""))
                };
                let first = self.rows[k].answered.is_none() && self.rows[k].state == 0;
                let valuators = if c == C1 && first { self.r.range(1, 2) } else { 0 };
                let lag = self.r.range(3, 30);
                let x = &mut self.rows[k];
                x.state = state;
                x.answered = Some(t);
                if cm.now && x.state_pub.is_none() {
                    x.state_pub = Some(t + lag);
                }
                (x.answer, x.cost, x.cost_report, x.exec) = (Some(answer), cost, Some(report), Some(exec));
                x.valuations += valuators;
                x.updated = t + tick;
            }
            _ => {}
        }
    }

    fn answer_text(&mut self, kind: u8) -> String {
        let (ca, es) = match kind {
            EVAL if self.r.chance(0.7) => ("", ""),
            EVAL => (
                "<p>Els serveis tècnics del districte estan estudiant la proposta.</p>",
                "<p>Los servicios técnicos del distrito están estudiando la propuesta.</p>",
            ),
            ACCEPT => *self.r.pick(&[
                (
                    "<p>La proposta és viable i passa a la fase de votació.</p>",
                    "<p>La propuesta es viable y pasa a la fase de votación.</p>",
                ),
                ("<p>Proposta acceptada.</p>", "<p>Propuesta aceptada.</p>"),
            ]),
            REJECT => *self.r.pick(&[
                ("<p>La proposta no és competència municipal.</p>", "<p>La propuesta no es competencia municipal.</p>"),
                ("<p>La proposta no és viable tècnicament.</p>", "<p>La propuesta no es viable técnicamente.</p>"),
                (
                    "<p>L'actuació ja és prevista al pla d'inversions.</p>",
                    "<p>La actuación ya está prevista en el plan de inversiones.</p>",
                ),
                (
                    "<p>El cost supera l'import màxim per proposta.</p>",
                    "<p>El coste supera el importe máximo por propuesta.</p>",
                ),
            ]),
            _ => ("<p>Proposta duplicada.</p>", "<p>Propuesta duplicada.</p>"),
        };
        every_locale(ca, es)
    }

    /// The import of the accepted proposals into the vote's component, and the same import sent again after the
    /// proxy's 60 s timeout while the first still ran: each request checks an original for a copy's link before
    /// copying it, and a copy's link is committed only when its copy is done.
    fn import(&mut self, t1: i64) {
        let mut origs: Vec<usize> = (0..self.rows.len())
            .filter(|&k| {
                let x = &self.rows[k];
                x.live && x.comp == C1 && x.copy.is_none() && x.published.is_some() && x.state == 20
            })
            .collect();
        origs.sort_by_key(|&k| self.rows[k].id);
        let n = origs.len().max(1) as i64;
        let mean = 70 * SECOND / n;
        let mut linked: Vec<Option<i64>> = vec![None; origs.len()];
        let mut copies: Vec<usize> = vec![0; origs.len()];
        let mut camps: HashMap<usize, usize> = HashMap::new();
        // Each request: its clock, the next original, whether it runs.
        let timeout = t1 + 60 * SECOND;
        let mut req = [(t1, 0_usize, true), (0, 0, false)];
        let mut second = false;
        loop {
            // Still running at the proxy's timeout: the admin gets a 504 and sends the form again.
            if !second && req[0].0 > timeout {
                second = true;
                req[1] = (timeout + self.r.range(5, 15) * SECOND + self.us(), 0, true);
            }
            let Some(q) = (0..2).filter(|&q| req[q].2 && req[q].1 < origs.len()).min_by_key(|&q| req[q].0) else {
                break;
            };
            let (t, i) = (req[q].0, req[q].1);
            req[q].1 += 1;
            if linked[i].is_some_and(|l| l <= t) {
                req[q].0 += self.r.range(2_000, 5_000);
                continue;
            }
            let d = mean * self.r.range(60, 140) / 100;
            let at = t + self.r.range(8_000, 25_000);
            let o = origs[i];
            let camp = self.rows[o].camp;
            let mark = if copies[i] > 0 {
                Mark::Retry
            } else if camp > 0 && camps.get(&camp).is_some_and(|&first| first != o) {
                Mark::Legit
            } else {
                Mark::Plain
            };
            if camp > 0 {
                camps.entry(camp).or_insert(o);
            }
            copies[i] += 1;
            let k = self.push(Row { at, comp: C5, copy: Some(o), camp, mark, ..Row::default() });
            self.ev(at, k, K::Copy);
            linked[i] = Some(linked[i].map_or(t + d, |l| l.min(t + d)));
            req[q].0 = t + d;
            // Comments in the vote's component.
            if self.r.chance(0.08) {
                let tc = at + self.r.range(86_400, 6 * 86_400) * SECOND + self.us();
                self.ev(tc, k, K::Comment);
            }
        }
    }
}

pub fn fixture() -> Fixture {
    let mut p = Plan {
        r: Rng::new(6_120),
        rows: Vec::new(),
        evs: Vec::new(),
        groups: Vec::new(),
        addrs: Vec::new(),
        next_id: FIRST_ID,
        last: [(i64::MIN / 2, 0); 5],
        verdicts: HashMap::new(),
    };
    // Participants' proposals.
    for (c, n) in [(C1, 1_080), (C2, 540), (C3, 205), (C4, 28)] {
        for _ in 0..n {
            let t = p.when(c);
            p.participant(c, t, Try::No);
        }
    }
    // Three sent again after a stuck request, the first timed out; three retried in the last day.
    for d in [6, 17, 30] {
        let t = local_day(d) + 19 * HOUR + p.r.range(0, 3 * 3_600) * SECOND + p.us();
        p.participant(if d == 30 { C2 } else { C1 }, t, Try::Hidden);
    }
    for back in [15, 9, 3] {
        let t = NOW - back * HOUR + p.r.range(0, 2_400) * SECOND + p.us();
        p.participant(C2, t, Try::Yes);
    }
    // Campaigns: one text pasted by several neighbours, some together at an assembly.
    for _ in 0..14 {
        let c = *p.r.pick(&[C1, C1, C1, C3, C2]);
        let text = p.text(c);
        let shared = p.choose(c);
        let g = p.group(Mark::Legit);
        let camp = g;
        let n = p.r.range(3, 6);
        let together = if p.r.chance(0.7) { p.r.range(2, n) } else { 1 };
        let mut t = p.when(c);
        for m in 0..n {
            if m > 0 {
                t += if m < together { p.r.range(6, 240) * SECOND } else { p.r.range(2 * 3_600, 6 * 86_400) * SECOND }
                    + p.us();
            }
            if t >= local_day(COMPS[c].close) || t >= NOW {
                break;
            }
            let k = p.push(Row { at: t, grp: g, camp, ..text.clone() });
            p.ev(t, k, K::Create);
            let choice = if p.r.chance(0.85) { shared } else { p.choose(c) };
            p.flow(k, Flow { choice: Some(choice), frozen: true, ..Flow::default() });
        }
    }
    // Withdrawn and sent again: a wrong district, a typo in the title that can no longer be edited.
    for (i, &c) in [C1, C2, C1, C2, C3, C1, C2, C4, C1].iter().enumerate() {
        let fast = i < 2;
        let t = p.when(c);
        let text = p.text(c);
        let k = p.push(Row { at: t, ..text.clone() });
        p.ev(t, k, K::Create);
        let wd = if fast { p.r.range(15, 40) } else { p.r.range(60, 2 * 86_400) } * SECOND + p.us();
        let Some(tp) = p.flow(k, Flow { keep: true, frozen: true, fast, withdraw: Some(wd), ..Flow::default() }) else {
            continue;
        };
        let again = tp + wd + if fast { p.r.range(10, 30) } else { p.r.range(20, 3 * 3_600) } * SECOND + p.us();
        if again >= local_day(COMPS[c].close) || again >= NOW {
            continue;
        }
        let q = p.push(Row { at: again, mark: Mark::Legit, ..text });
        p.ev(again, q, K::Create);
        p.flow(q, Flow { keep: true, frozen: true, fast, ..Flow::default() });
    }
    // Official proposals: the assembly's, the action plan's, a few in the budget.
    for (c, n) in [(C4, 22), (C2, 10), (C1, 8)] {
        for _ in 0..n {
            let d = p.r.range(COMPS[c].open, COMPS[c].close.min(41) - 1);
            let t = p.office(local_day(d), local_day(d + 1));
            let row = Row { at: t, ..p.official_text(c) };
            p.official(row, true, false);
        }
    }
    // The same official proposal in the action plan and in the assembly.
    for i in 0..3 {
        let t = p.office(local_day(3 + 11 * i), local_day(4 + 11 * i));
        let row = Row { at: t, ..p.official_text(C2) };
        p.official(row.clone(), true, false);
        let gap = if i < 2 { p.r.range(40, 480) * SECOND } else { p.r.range(2 * 86_400, 6 * 86_400) * SECOND };
        let t2 = if i < 2 { t + gap + p.us() } else { p.office(t + gap, t + gap + DAY) };
        p.official(Row { at: t2, comp: C4, mark: Mark::Legit, ..row }, true, false);
    }
    // An official proposal re-sent after its request timed out, later rejected as a duplicate.
    {
        let t = p.office(local_day(12), local_day(13));
        let row = Row { at: t, ..p.official_text(C2) };
        let a = p.official(row, true, false);
        let t2 = t + p.r.range(15, 50) * SECOND + p.us();
        let k = p.official(Row { at: t2, mark: Mark::Retry, ..p.rows[a].clone() }, false, true);
        let ta = p.office(t2 + DAY, t2 + 4 * DAY);
        p.ev(ta, k, K::Answer(-10, DUP));
    }
    // District assemblies' proposals, entered by an admin one after another; meetings two and three (the same
    // district, entered back to back) both raised one of them.
    let mut t = p.office(local_day(10), local_day(11));
    let mut shared: Option<Row> = None;
    for m in 0..5 {
        let n = p.r.range(3, 6);
        for j in 0..n {
            let k = match (&shared, m, j) {
                (Some(s), 2, 1) => p.official(Row { at: t, mark: Mark::Legit, ..s.clone() }, true, true),
                _ => {
                    let row = Row { at: t, meeting: true, ..p.official_text(C1) };
                    p.official(row, true, false)
                }
            };
            if m == 1 && j == n - 1 {
                shared = Some(p.rows[k].clone());
            }
            t += p.r.range(50, 240) * SECOND + p.us();
        }
        t = if m == 1 { t + p.r.range(120, 600) * SECOND } else { p.office(t + 2 * DAY, t + 6 * DAY) };
    }
    // "Publish answers" in the budget, then the import.
    let bulk = local_day(33) + 10 * HOUR + p.r.range(0, 1_800) * SECOND;
    p.ev(bulk, usize::MAX, K::Bulk);
    let t_import = local_day(35) + 10 * HOUR + 40 * MINUTE + p.r.range(0, 600) * SECOND;

    // The replay up to the import, the import, then the rest.
    let mut evs = std::mem::take(&mut p.evs);
    evs.sort_by_key(|e| e.t);
    let split = evs.partition_point(|e| e.t < t_import);
    let rest = evs.split_off(split);
    for e in &evs {
        p.apply(e);
    }
    p.import(t_import);
    let mut rest: Vec<Ev> = rest.into_iter().chain(std::mem::take(&mut p.evs)).collect();
    rest.sort_by_key(|e| e.t);
    for e in rest.iter().filter(|e| e.t < NOW) {
        p.apply(e);
    }

    // Counters that move without touching the row.
    let mut r = Rng::new(6_121);
    let mut extra: Vec<(i64, i64, i64)> = Vec::new();
    for x in &p.rows {
        let cm = &COMPS[x.comp];
        let (mut votes, mut endorse, mut notes) = (0, 0, 0);
        if x.live && x.published.is_some() {
            let start = if x.comp == C5 { x.at } else { x.published.unwrap_or(0) };
            if let Some((a, b)) = cm.votes
                && x.state != -20
                && start < local_day(b).min(NOW)
                && local_day(a) < NOW
            {
                votes = r.skewed(45) as i64 + if r.chance(0.04) { r.range(60, 400) } else { 0 };
            }
            if cm.endorse {
                endorse = r.skewed(6) as i64;
            }
            if x.comp == C1 && x.answered.is_some() && r.chance(0.3) {
                notes = r.range(1, 2);
            }
        }
        extra.push((votes, endorse, notes));
    }
    for x in p.rows.iter_mut().filter(|x| x.live && x.published.is_some()) {
        x.follows += r.skewed(5) as i64;
    }

    // Groups: the first row left of each is the original.
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); p.groups.len()];
    for (k, x) in p.rows.iter().enumerate() {
        if x.live && x.grp > 0 {
            members[x.grp - 1].push(k);
        }
    }
    for (g, ks) in members.iter_mut().enumerate() {
        ks.sort_by_key(|&k| p.rows[k].id);
        for &k in ks.iter().skip(1) {
            p.rows[k].mark = p.groups[g];
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("decidim_proposals_proposals", &columns);
    let mut order: Vec<usize> = (0..p.rows.len()).filter(|&k| p.rows[k].live).collect();
    order.sort_by_key(|&k| p.rows[k].id);
    let at = |t: Option<i64>| t.map_or(V::Null, V::At);
    for k in order {
        let x = &p.rows[k];
        let (votes, endorse, notes) = extra[k];
        let (title, body) = match x.loc {
            0 => (format!("{{\"ca\": {}}}", js(&x.title[0])), format!("{{\"ca\": {}}}", js(&x.body[0]))),
            1 => (format!("{{\"es\": {}}}", js(&x.title[0])), format!("{{\"es\": {}}}", js(&x.body[0]))),
            _ => (every_locale(&x.title[0], &x.title[1]), every_locale(&x.body[0], &x.body[1])),
        };
        let (y, m) = year_month(x.at + offset(x.at));
        let addr = x.addr.map(|a| &p.addrs[a]);
        f.push(&[
            ("id", V::I(x.id)),
            ("decidim_component_id", V::I(COMPS[x.comp].id)),
            ("decidim_scope_id", V::opt_i(x.scope)),
            ("created_at", V::At(x.at)),
            ("updated_at", V::At(x.updated)),
            ("proposal_votes_count", V::I(votes)),
            ("answered_at", at(x.answered)),
            ("answer", V::opt_t(x.answer.as_deref())),
            ("reference", V::t(format!("{PREFIX}-PROP-{y}-{m:02}-{}", x.id))),
            ("address", V::opt_t(addr.map(|a| a.0.as_str()))),
            ("latitude", addr.map_or(V::Null, |a| V::F(a.1))),
            ("longitude", addr.map_or(V::Null, |a| V::F(a.2))),
            ("published_at", at(x.published)),
            ("proposal_notes_count", V::I(notes)),
            ("coauthorships_count", V::I(x.coauth)),
            ("position", V::opt_i(x.pos)),
            ("created_in_meeting", V::B(x.meeting)),
            ("endorsements_count", V::I(endorse)),
            ("cost", x.cost.map_or(V::Null, V::F)),
            ("cost_report", V::opt_t(x.cost_report.as_deref())),
            ("execution_period", V::opt_t(x.exec.as_deref())),
            ("state_published_at", at(x.state_pub)),
            ("title", V::t(title)),
            ("body", V::t(body)),
            ("comments_count", V::I(x.comments)),
            ("follows_count", V::I(x.follows)),
            ("state", V::I(x.state)),
            ("valuation_assignments_count", V::I(x.valuations)),
        ]);
        f.mark(x.id, x.mark);
        if x.mark == Mark::Retry && x.hidden {
            f.hidden.insert(x.id.to_string());
        }
    }
    f
}
