//! Outline (TypeScript, Koa + Sequelize 6; PostgreSQL only): `documents`, as the web app's "New doc" (a published,
//! empty, untitled document in a collection, or a draft), the API (`POST /api/documents.create`: n8n, a postmortem
//! relay, a release workflow, a standup script), the MCP server's `create_document` (AI agents), "Import" of single
//! files, "Duplicate", the Notion and Markdown imports, and templates (rows of the same table) write it, and as people,
//! the collaboration server and the background tasks change it afterwards: three workspaces (one German), 8 weeks.
//! Read: outline/outline (d77dcdf) server/models/Document.ts (`createUrlId`, `setDocumentVersion`, `processUpdate`,
//! `publish`, `archiveWithChildren`, `destroyWithCtx`), server/models/Template.ts, server/models/base/IdModel.ts,
//! ParanoidModel.ts, ArchivableModel.ts, server/commands/documentCreator.ts, documentUpdater.ts,
//! documentCollaborativeUpdater.ts, documentDuplicator.ts, documentImporter.ts, server/routes/api/documents/documents.ts
//! and schema.ts (`documents.create`, `.update`, `.duplicate`, `.import`, `.archive`, `.delete`),
//! server/routes/api/templates/templates.ts, server/tools/documents.ts (`create_document`),
//! server/collaboration/PersistenceExtension.ts, server/services/collaboration.ts (debounce 3 s, at most 10 s),
//! server/queues/processors/RevisionsProcessor.ts, DebounceProcessor.ts (5 min), ImportsProcessor.ts,
//! server/queues/tasks/DocumentUpdateTextTask.ts, DocumentImportTask.ts, MarkdownAPIImportTask.ts,
//! CleanupDeletedDocumentsTask.ts (hourly, 30 days), UpdateDocumentsPopularityScoreTask.ts (12 h, 2 weeks, gravity 0.7),
//! server/utils/url.ts and shared/random.ts (`urlId`: 10 random letters and digits), shared/editor/version.ts,
//! shared/editor/nodes/ (Markdown and JSON of paragraphs, headings, lists), shared/utils/TextHelper.ts, date.ts;
//! app/scenes/DocumentNew.tsx, app/stores/base/Store.ts, app/stores/DocumentsStore.ts, app/utils/ApiClient.ts
//! (fetch-retry: network errors only, 3 times, 1 s apart; `retry: false` for imports), app/models/Document.ts,
//! app/scenes/Document/hooks/useDocumentSave.ts (title autosave after 3 s), app/hooks/useImportDocument.ts,
//! app/components/DocumentExplorer/DocumentCopy.tsx; sequelize 6.37 `Model.save` (before-update hooks run before the
//! changed check). The DDL is pg_dump's of a database that all 301 of server/migrations/ ran on (sequelize-cli,
//! NODE_ENV=test), less the foreign keys to other tables.
//! On a create: `id` a uuid v4 (or the one `duplicate` mints); `urlId` 10 random characters; `createdAt` = `updatedAt`
//! (JavaScript dates: milliseconds); `version` 2; `revisionCount` 1 (the before-create hook runs `processUpdate`),
//! `collaboratorIds` {creator}; `lastModifiedById` the creator; `content` the ProseMirror JSON, `text` its Markdown
//! (trimmed); `editorVersion` the `x-editor-version` header (the web app's "17.0.0", nothing from the API, the MCP
//! server, duplicates and imports). With `publish` the same request publishes it: `publishedAt` a few ms after
//! `createdAt`, a silent save (`revisionCount` 2); a titled document's publish event writes a revision and
//! `DocumentUpdateTextTask` saves `text` (untrimmed) and `language` silently (`revisionCount` 3). The web app creates
//! with no title and an empty paragraph (published in a collection, else a draft); a template's content with its
//! {date}/{author} filled in when made from one. Imports bring `state` (Yjs), `sourceMetadata` (file name and type);
//! duplicates `sourceMetadata.originalDocumentId`; the Notion and Markdown imports the source's times (or one `now`
//! for the whole import), `apiImportId` and `sourceMetadata` (external id, name, author). A template row: `template`
//! true, `publishedAt` taken just before the insert, `version`, `text`, `collaboratorIds` NULL, `revisionCount` 0.
//! Later: the creator lands on the new document and the collaboration server stores its `state`; the title autosaves
//! through `documents.update` (each save a revision more, `previousTitles` when a title is replaced); editing sessions
//! persist every few seconds (`content`, `state`, `lastModifiedById`, `collaboratorIds`, `updatedAt`, and a revision
//! more each time) and close with a revision and the text task (`text`, `language`, a revision more, silent); drafts
//! are published (`collectionId`, `publishedAt`, `updatedAt`); archive and delete save again (a revision more, the
//! actor a collaborator); rows deleted over 30 days ago are gone; `popularityScore` is the views and revisions of the
//! last two weeks, decayed, as of the last 12-hourly run (0 for drafts and templates).
//! Retries (about 1.5% of creates): the web app's fetch-retry resending "New doc" 1 s after a lost response (some
//! twice), or the person clicking "New doc" again after the error toast (6-45 s): the app opens the last row, which is
//! written on, and the first stays an empty "Untitled" in the sidebar (or drafts) until someone deletes it; an agent
//! calling `create_document` again after its tool call timed out; the postmortem relay, the release workflow and n8n
//! resending a create; a person importing the same file again after the import seemed to fail. Three in the last day.
//! Legitimate repeats: "New doc" clicked again later in the same place, both left empty; n8n's weekly "On-call
//! handover" where nobody filled it in; the same document duplicated twice (new hires' checklists) and not yet renamed.
//! Plain near-repeats: recurring meeting titles, the standup script's daily pages, Notion pages of equal content (their
//! own external ids), docs made from the same template and filled in.
//! Guessed: the workspaces, collections, people and their rates; the bots, their schedules and their clients' retries;
//! the text; the Yjs bytes (a shape like Yjs' v1 update, not Yjs' own); who views what (for the popularity score).
use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, client_retry_delay};
use crate::common::Engine;
use std::collections::HashSet;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as Outline's migrations leave it (pg_trgm and btree_gin for its indexes, the search vector's trigger),
/// with its foreign key to itself (the parent) but not those to teams, users, collections, imports and file operations.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE TABLE documents (
    id uuid NOT NULL,
    "urlId" character varying NOT NULL,
    title character varying NOT NULL,
    text text,
    "createdAt" timestamp with time zone NOT NULL,
    "updatedAt" timestamp with time zone NOT NULL,
    "collectionId" uuid,
    "teamId" uuid,
    "parentDocumentId" uuid,
    "lastModifiedById" uuid NOT NULL,
    "revisionCount" integer DEFAULT 0,
    "searchVector" tsvector,
    "deletedAt" timestamp with time zone,
    "createdById" uuid,
    "collaboratorIds" uuid[],
    "publishedAt" timestamp with time zone,
    "pinnedById" uuid,
    "archivedAt" timestamp with time zone,
    "isWelcome" boolean DEFAULT false NOT NULL,
    "editorVersion" character varying(255),
    version smallint,
    template boolean DEFAULT false NOT NULL,
    "templateId" uuid,
    "previousTitles" character varying(255)[],
    state bytea,
    "fullWidth" boolean DEFAULT false NOT NULL,
    "importId" uuid,
    "insightsEnabled" boolean DEFAULT true NOT NULL,
    "sourceMetadata" jsonb,
    content jsonb,
    summary text,
    icon character varying(255),
    color character varying(255),
    "apiImportId" uuid,
    language character varying(2),
    "popularityScore" double precision DEFAULT '0'::double precision NOT NULL,
    preferences jsonb
);
ALTER TABLE ONLY documents ADD CONSTRAINT documents_pkey PRIMARY KEY (id);
ALTER TABLE ONLY documents ADD CONSTRAINT "documents_urlId_key" UNIQUE ("urlId");
CREATE INDEX documents_active_popularity_score ON documents USING btree (id) WHERE ("popularityScore" > (0)::double precision);
CREATE INDEX documents_api_import_id ON documents USING btree ("apiImportId");
CREATE INDEX documents_archived_at ON documents USING btree ("archivedAt");
CREATE INDEX documents_collection_id ON documents USING btree ("collectionId");
CREATE INDEX documents_import_id ON documents USING btree ("importId");
CREATE INDEX documents_parent_document_id_atlas_id_deleted_at ON documents USING btree ("parentDocumentId", "collectionId", "deletedAt");
CREATE INDEX documents_published_at ON documents USING btree ("publishedAt");
CREATE INDEX documents_team_id ON documents USING btree ("teamId", "deletedAt");
CREATE INDEX documents_team_id_tsv_idx ON documents USING gin ("teamId", "searchVector");
CREATE INDEX documents_title_idx ON documents USING gin (title gin_trgm_ops);
CREATE INDEX documents_updated_at ON documents USING btree ("updatedAt");
CREATE INDEX documents_url_id_deleted_at ON documents USING btree ("urlId", "deletedAt");
CREATE FUNCTION documents_search_trigger() RETURNS trigger LANGUAGE plpgsql AS $function$
    begin
      new."searchVector" :=
        setweight(to_tsvector('english', coalesce(new.title, '')),'A') ||
        setweight(to_tsvector('english', coalesce(array_to_string(new."previousTitles", ' , '),'')),'C') ||
        setweight(to_tsvector('english', substring(coalesce(new.text, ''), 1, 1000000)), 'D');
      return new;
    end
    $function$;
CREATE TRIGGER documents_tsvectorupdate BEFORE INSERT OR UPDATE ON documents FOR EACH ROW EXECUTE FUNCTION documents_search_trigger();
ALTER TABLE ONLY documents ADD CONSTRAINT "documents_parentDocumentId_fkey" FOREIGN KEY ("parentDocumentId") REFERENCES documents(id) ON DELETE CASCADE"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Outline runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id urlId title text createdAt updatedAt collectionId teamId parentDocumentId lastModifiedById \
    revisionCount deletedAt createdById collaboratorIds publishedAt archivedAt isWelcome editorVersion version template \
    templateId previousTitles state fullWidth insightsEnabled sourceMetadata content icon apiImportId language \
    popularityScore";

const NOW: i64 = T0;
/// A Monday, eight weeks back.
const START: i64 = T0 - 56 * DAY;
/// The last run of the popularity task (every 12 hours).
const RUN: i64 = NOW - 12 * HOUR;
/// The editor version the web app sends in `x-editor-version`.
const EDITOR: &str = "17.0.0";
/// Creates per hour of the day (UTC), relative: Europe, then the Americas.
const RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 2, 4, 7, 10, 11, 11, 10, 9, 10, 11, 11, 10, 9, 7, 6, 5, 4, 3, 2];
/// The first "New doc" after each of these times loses its response.
const LATE: [i64; 3] = [NOW - 21 * HOUR, NOW - 9 * HOUR, NOW - 3 * HOUR];
/// Workspaces: (first user, users, German, how busy).
const TEAMS: [(usize, usize, bool, u64); 3] = [(0, 48, false, 70), (48, 16, true, 20), (64, 8, false, 10)];
const USERS: usize = 72;
/// The service account n8n, the postmortem relay and the release workflow post with (its API key).
const BOT: usize = 47;
/// The release workflow runs with the engineering lead's key, the standup script with the agency owner's.
const LEAD: usize = 3;
const OWNER: usize = 71;
/// People who have an AI agent connected to the MCP server.
const AGENTS: [usize; 6] = [2, 5, 9, 14, 21, 65];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Eng,
    Product,
    Handbook,
    Support,
    Meetings,
    Incidents,
    Design,
    Sales,
    Marketing,
}

/// The workspaces' collections, the busiest first.
const COLLS: [&[Kind]; 3] = [
    &[
        Kind::Eng,
        Kind::Meetings,
        Kind::Product,
        Kind::Handbook,
        Kind::Support,
        Kind::Design,
        Kind::Sales,
        Kind::Marketing,
        Kind::Incidents,
    ],
    &[Kind::Eng, Kind::Meetings, Kind::Handbook, Kind::Sales],
    &[Kind::Product, Kind::Meetings, Kind::Handbook],
];

#[rustfmt::skip]
const FIRST: &[&str] = &["Alex", "Sam", "Priya", "Jonas", "Maria", "Chen", "Fatima", "Lukas", "Emma", "Diego", "Aisha",
    "Tom", "Nina", "Omar", "Julia", "Ravi", "Sofia", "Ben", "Hannah", "Mateo"];
#[rustfmt::skip]
const LAST: &[&str] = &["Meyer", "Okafor", "Santos", "Kim", "Novak", "Schmidt", "Brown", "Ito", "Larsen", "Rossi",
    "Haddad", "Wright", "Weber", "Fischer"];
#[rustfmt::skip]
const THINGS: &[&str] = &["billing service", "search index", "API gateway", "mobile app", "onboarding flow",
    "CI pipeline", "staging cluster", "data warehouse", "SSO login", "notification emails", "export job",
    "admin dashboard", "webhooks", "rate limiter", "pricing page", "help center", "Postgres replica", "Redis cache",
    "feature flags", "audit log"];
#[rustfmt::skip]
const FEATURES: &[&str] = &["bulk export", "saved filters", "team invites", "usage reports", "dark mode", "SAML setup",
    "Slack alerts", "custom fields", "guest access", "recurring invoices", "calendar sync", "offline mode"];
const VERBS: &[&str] = &["migrate", "deploy", "debug", "monitor", "scale", "document", "test", "refactor", "release"];
#[rustfmt::skip]
const POLICIES: &[&str] = &["Expense policy", "Travel policy", "Parental leave", "Remote work guidelines",
    "Security awareness", "Onboarding checklist", "Offboarding checklist", "Company holidays 2027", "Code of conduct",
    "Equipment and laptops", "Benefits overview", "Performance reviews", "How we hire", "Office access"];
const COMPANIES: &[&str] = &["Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods", "Hooli"];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const MONATE: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];
#[rustfmt::skip]
const DINGE: &[&str] = &["Rechnungsdienst", "Suchindex", "Kundenportal", "Lagerverwaltung", "Buchhaltungsexport",
    "Testumgebung", "Datenbank", "Anmeldung", "Newsletter", "Schnittstelle zu SAP", "Urlaubsplanung", "Zeiterfassung"];
const TUN: &[&str] = &["prüfen", "aktualisieren", "dokumentieren", "testen", "abstimmen", "einrichten", "umstellen"];
#[rustfmt::skip]
const REGELN: &[&str] = &["Urlaubsregelung", "Reisekosten", "Homeoffice-Regelung", "Einarbeitung neuer Kollegen",
    "Datenschutz im Alltag", "Arbeitszeiten", "Dienstwagen", "Weiterbildung"];
const SERVICES: &[&str] = &["payments", "search", "api-gateway", "notifications", "exports", "auth"];
const SYMPTOMS: &[&str] = &["elevated 5xx", "slow responses", "failed jobs", "login errors", "queue backlog"];

/// A block of the editor's document.
#[derive(Clone, PartialEq)]
enum Block {
    H(u8, String),
    P(String),
    /// An empty paragraph (the one a new document has, or the editor's last line).
    Empty,
    Bullets(Vec<String>),
    Checks(Vec<(bool, String)>),
}

#[derive(Clone, PartialEq, Default)]
struct Body(Vec<Block>);

impl Body {
    fn empty() -> Body {
        Body(vec![Block::Empty])
    }

    /// `serializer.serialize`: blocks a blank line apart, an empty paragraph as a backslash and a newline.
    fn serialize(&self) -> String {
        let (mut out, mut closed) = (String::new(), false);
        for b in &self.0 {
            if closed {
                out.push_str("\n\n");
            }
            closed = true;
            match b {
                Block::Empty => {
                    out.push_str("\\\n");
                    closed = false;
                }
                Block::H(l, t) => out += &format!("{} {t}", "#".repeat(usize::from(*l))),
                Block::P(t) => out += t,
                Block::Bullets(items) => out += &items.iter().map(|i| format!("* {i}")).collect::<Vec<_>>().join("\n"),
                Block::Checks(items) => {
                    let lines: Vec<String> =
                        items.iter().map(|(c, i)| format!("- [{}] {i}", if *c { 'x' } else { ' ' })).collect();
                    out += &lines.join("\n");
                }
            }
        }
        out
    }

    /// `DocumentHelper.toMarkdown`: the same, each escaped newline made a blank line, trimmed.
    fn markdown(&self) -> String {
        let c: Vec<char> = self.serialize().chars().collect();
        let (mut out, mut i) = (String::new(), 0);
        while i < c.len() {
            let at = if i == 0 && c[0] == '\\' {
                Some(1)
            } else if c[i] == '\n' && c.get(i + 1) == Some(&'\\') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(j) = at
                && (j == c.len() || c[j] == '\n')
            {
                out.push_str("\n\n");
                i = (j + 1).min(c.len());
                continue;
            }
            out.push(c[i]);
            i += 1;
        }
        out.trim().to_string()
    }

    /// The ProseMirror JSON (`Node.toJSON`).
    fn json(&self) -> String {
        let text = |t: &str| format!(r#"[{{"type":"text","text":"{}"}}]"#, esc(t));
        let para = |t: &str| {
            if t.is_empty() {
                r#"{"type":"paragraph"}"#.to_string()
            } else {
                format!(r#"{{"type":"paragraph","content":{}}}"#, text(t))
            }
        };
        let nodes: Vec<String> = self
            .0
            .iter()
            .map(|b| match b {
                Block::Empty => r#"{"type":"paragraph"}"#.to_string(),
                Block::P(t) => para(t),
                Block::H(l, t) => format!(r#"{{"type":"heading","attrs":{{"level":{l}}},"content":{}}}"#, text(t)),
                Block::Bullets(items) => {
                    let li: Vec<String> =
                        items.iter().map(|i| format!(r#"{{"type":"list_item","content":[{}]}}"#, para(i))).collect();
                    format!(r#"{{"type":"bullet_list","content":[{}]}}"#, li.join(","))
                }
                Block::Checks(items) => {
                    let li: Vec<String> = items
                        .iter()
                        .map(|(c, i)| {
                            format!(r#"{{"type":"checkbox_item","attrs":{{"checked":{c}}},"content":[{}]}}"#, para(i))
                        })
                        .collect();
                    format!(r#"{{"type":"checkbox_list","attrs":{{"id":null}},"content":[{}]}}"#, li.join(","))
                }
            })
            .collect();
        format!(r#"{{"type":"doc","content":[{}]}}"#, nodes.join(","))
    }

    /// The length of the plain text (franc wants 50 characters to guess a language).
    fn plain(&self) -> usize {
        self.0
            .iter()
            .map(|b| match b {
                Block::Empty => 0,
                Block::H(_, t) | Block::P(t) => t.chars().count(),
                Block::Bullets(items) => items.iter().map(|i| i.chars().count()).sum(),
                Block::Checks(items) => items.iter().map(|(_, i)| i.chars().count()).sum(),
            })
            .sum()
    }

    /// Template variables filled in (`replaceTemplateVariables`).
    fn fill(&self, date: &str, author: &str) -> Body {
        let f = |s: &String| s.replace("{date}", date).replace("{author}", author);
        Body(
            self.0
                .iter()
                .map(|b| match b {
                    Block::H(l, t) => Block::H(*l, f(t)),
                    Block::P(t) => Block::P(f(t)),
                    Block::Bullets(i) => Block::Bullets(i.iter().map(f).collect()),
                    Block::Checks(i) => Block::Checks(i.iter().map(|(c, s)| (*c, f(s))).collect()),
                    Block::Empty => Block::Empty,
                })
                .collect(),
        )
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn ms(t: i64) -> i64 {
    t - t.rem_euclid(1_000)
}

fn varint(b: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        b.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    b.push(n as u8);
}

/// A Yjs update of the document: each client's structs (the loading one's with the fragment), then the delete set.
fn ystate(clients: &[u32], body: &Body) -> V {
    if clients.is_empty() {
        return V::Null;
    }
    let mut cs = clients.to_vec();
    cs.sort_unstable_by(|a, b| b.cmp(a));
    let text = body.serialize();
    let bytes = text.as_bytes();
    let mut b: Vec<u8> = Vec::new();
    varint(&mut b, cs.len() as u64);
    for (k, &c) in cs.iter().enumerate() {
        let chunk = &bytes[bytes.len() * k / cs.len()..bytes.len() * (k + 1) / cs.len()];
        varint(&mut b, 1 + chunk.len().div_ceil(24) as u64);
        varint(&mut b, u64::from(c));
        varint(&mut b, 0);
        if c == clients[0] {
            b.extend_from_slice(&[0x07, 0x01, 0x07]);
            b.extend_from_slice(b"default");
            b.extend_from_slice(&[0x03, 0x09]);
            b.extend_from_slice(b"paragraph");
        }
        for piece in chunk.chunks(24) {
            b.push(0x84);
            varint(&mut b, piece.len() as u64);
            b.extend_from_slice(piece);
        }
    }
    b.push(0x00);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::from("\\x");
    for x in b {
        s.push(char::from(HEX[usize::from(x >> 4)]));
        s.push(char::from(HEX[usize::from(x & 15)]));
    }
    V::T(s)
}

/// A date as `toLocaleDateString` writes it for the user's language.
fn date_text(t: i64, de: bool) -> String {
    let d = chrono_parts(t);
    if de { format!("{}. {} {}", d.2, MONATE[d.1 - 1], d.0) } else { format!("{} {}, {}", MONTHS[d.1 - 1], d.2, d.0) }
}

/// (year, month, day) of a time, UTC.
fn chrono_parts(t: i64) -> (i64, usize, i64) {
    let z = t.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m as usize, d)
}

struct Team {
    id: String,
    lo: usize,
    n: usize,
    de: bool,
    colls: Vec<usize>,
    tpls: Vec<Tpl>,
}

struct Coll {
    id: String,
    kind: Kind,
}

#[derive(Clone)]
struct Tpl {
    id: String,
    at: i64,
    coll: Option<usize>,
    body: Body,
    icon: Option<&'static str>,
}

/// A row: as its create request wrote it, then as it stands now.
#[derive(Clone, Default)]
struct Doc {
    id: String,
    url: String,
    /// When it was inserted (the row order); `at` is `createdAt` (an import's may be the source's).
    ins: i64,
    at: i64,
    team: usize,
    coll: Option<usize>,
    parent: Option<usize>,
    by: usize,
    title: String,
    body: Body,
    text: Option<String>,
    published: Option<i64>,
    updated: i64,
    last_by: usize,
    collab: Vec<usize>,
    revs: i64,
    deleted: Option<i64>,
    archived: Option<i64>,
    editor: bool,
    template: bool,
    tpl: Option<String>,
    prev: Vec<String>,
    /// The Yjs clients that wrote its `state` (none: no state yet).
    clients: Vec<u32>,
    full: bool,
    source: Vec<(&'static str, String)>,
    icon: Option<&'static str>,
    import: Option<usize>,
    lang: Option<&'static str>,
    /// Views (0.5) and revisions (1.0), for the popularity score.
    activity: Vec<(i64, f64)>,
    mark: Mark,
    /// A retry's row: the row of its first attempt.
    of: Option<usize>,
    /// Never archived or deleted (it may get children).
    stable: bool,
}

struct World {
    r: Rng,
    users: Vec<String>,
    names: Vec<String>,
    wide: Vec<bool>,
    teams: Vec<Team>,
    colls: Vec<Coll>,
    imports: Vec<String>,
    v: Vec<Doc>,
}

impl World {
    fn member(&mut self, team: usize) -> usize {
        let t = &self.teams[team];
        let mut u = t.lo + self.r.skewed(t.n as u64) as usize;
        if u == BOT {
            u = t.lo;
        }
        u
    }

    fn coll(&mut self, team: usize) -> usize {
        let n = self.teams[team].colls.len() as u64;
        let (a, b) = (self.r.below(n), self.r.below(n));
        self.teams[team].colls[a.min(b) as usize]
    }

    fn de(&self, team: usize) -> bool {
        self.teams[team].de
    }

    fn push(&mut self, mut d: Doc) -> usize {
        if d.collab.is_empty() && !d.template {
            d.collab.push(d.by);
        }
        self.v.push(d);
        self.v.len() - 1
    }

    /// A published, never archived or deleted document of the collection, from before `t`, to nest under.
    fn parent(&mut self, c: usize, t: i64) -> Option<usize> {
        let found: Vec<usize> = (0..self.v.len())
            .rev()
            .take(900)
            .filter(|&k| {
                let d = &self.v[k];
                d.coll == Some(c) && d.stable && !d.template && d.published.is_some_and(|p| p < t) && d.at < t
            })
            .collect();
        if found.is_empty() { None } else { Some(found[self.r.skewed(found.len() as u64) as usize]) }
    }

    /// A fresh row with what every create writes.
    fn row(&mut self, t: i64, team: usize, by: usize, coll: Option<usize>) -> Doc {
        let (id, url) = (self.r.uuid(), self.r.alnum(10));
        let at = ms(t);
        Doc { id, url, ins: at, at, team, coll, by, updated: at, last_by: by, revs: 1, ..Doc::default() }
    }

    /// `documentCreator` with `publish`: the silent save of the publish, and (for a titled document) the text task.
    fn publish_on_create(&mut self, d: &mut Doc) {
        d.published = Some(d.at + self.r.range(3, 18) * 1_000);
        d.revs += 1;
        if !d.title.is_empty() {
            let t = d.at + self.r.range(200, 2_500) * 1_000;
            self.text_task(d, t);
        }
    }

    /// A revision, then `DocumentUpdateTextTask`: `text` and `language` saved silently.
    fn text_task(&mut self, d: &mut Doc, t: i64) {
        d.revs += 1;
        d.text = Some(d.body.serialize());
        d.lang = (d.body.plain() >= 50).then_some(if self.de(d.team) { "de" } else { "en" });
        d.activity.push((t, 1.0));
    }

    /// Someone opens it: the collaboration server stores a `state` if it has none; a view.
    fn open(&mut self, d: &mut Doc, t: i64) {
        if d.clients.is_empty() {
            d.clients.push(self.r.next() as u32);
        }
        d.activity.push((t, 0.5));
    }

    fn touch(&mut self, d: &mut Doc, t: i64, user: usize) {
        d.revs += 1;
        d.updated = ms(t);
        d.last_by = user;
        if !d.collab.contains(&user) {
            d.collab.push(user);
        }
    }

    /// A title autosaved through `documents.update` (`alone`: no editing follows, the debounced revision writes text).
    fn retitle(&mut self, d: &mut Doc, t: i64, user: usize, title: String, alone: bool) {
        if !d.title.is_empty() && d.title != title && !d.prev.contains(&d.title) {
            d.prev.push(d.title.clone());
        }
        d.title = title;
        d.editor = true;
        self.touch(d, t, user);
        if alone {
            let t = t + 5 * MINUTE + self.r.range(1, 30) * SECOND;
            self.text_task(d, t);
        }
    }

    /// An editing session in the collaborative editor: a persist every few seconds, the revision when it closes.
    /// Returns when it ended.
    fn session(&mut self, d: &mut Doc, user: usize, start: i64, body: Body) -> i64 {
        let r = &mut self.r;
        let secs = if r.chance(0.7) { r.range(40, 900) } else { r.range(900, 3_600) };
        let persists = (secs / r.range(10, 45)).max(1);
        let mut end = start + secs * SECOND + r.below(1_000_000) as i64;
        let open = end >= NOW - MINUTE;
        if open {
            end = NOW - r.range(5, 50) * SECOND;
        }
        self.open(d, start);
        d.clients.push(self.r.next() as u32);
        d.body = body;
        d.editor = true;
        d.revs += persists - 1;
        self.touch(d, end, user);
        if !open {
            let t = end + self.r.range(1, 8) * SECOND;
            self.text_task(d, t);
        }
        end
    }

    fn delete(&mut self, d: &mut Doc, t: i64, user: usize) {
        d.deleted = Some(ms(t));
        let t = t + self.r.range(2, 20) * 1_000;
        self.touch(d, t, user);
    }

    fn archive(&mut self, d: &mut Doc, t: i64, user: usize) {
        d.archived = Some(ms(t));
        let t = t + self.r.range(2, 20) * 1_000;
        self.touch(d, t, user);
    }

    /// Readers: each opens it once (a view), before it was deleted.
    fn readers(&mut self, d: &mut Doc, n: u64) {
        let (from, end) = (d.ins.max(d.at), d.deleted.unwrap_or(NOW));
        for _ in 0..n {
            let span = ((end - from) / SECOND).max(120);
            let a = self.r.range(60, span);
            let b = self.r.range(60, span);
            let t = from + a.min(b) * SECOND;
            if t < end {
                self.open(d, t);
            }
        }
    }

    /// What happens to a document after its first session: more sessions, readers, a rename, an archive or delete.
    fn later(&mut self, d: &mut Doc, kind: Kind) {
        let mut t = d.updated;
        for _ in 0..self.r.skewed(7) {
            t += self.r.range(1_800, 12 * 86_400) * SECOND;
            if t >= NOW - HOUR {
                break;
            }
            let user = if self.r.chance(0.5) { d.by } else { self.member(d.team) };
            let body = self.extend(&d.body, kind, d.team);
            t = self.session(d, user, t, body);
        }
        let n = self.r.skewed(24);
        self.readers(d, n);
        if self.r.chance(0.06) && t < NOW - 2 * HOUR {
            let at = t + self.r.range(600, (NOW - t) / SECOND - 600) * SECOND;
            let title = format!("{} ({})", d.title, self.word(d.team));
            let user = d.last_by;
            self.retitle(d, at, user, title, true);
            t = d.updated;
        }
        if self.r.chance(0.05) {
            // An emoji chosen for it (`documents.update`).
            d.icon = Some(self.r.one(&["📌", "🚀", "📝", "✅", "📚", "🔥"]));
            let at = t + self.r.range(30, 600) * SECOND;
            if at < NOW {
                let user = d.by;
                self.touch(d, at, user);
                t = d.updated;
            }
        }
        let x = self.r.below(100);
        let gone = t + self.r.range(3_600, 20 * 86_400) * SECOND;
        if x < 4 && d.published.is_some() && gone < NOW {
            let user = self.member(d.team);
            self.archive(d, gone, user);
        } else if x < 9 && gone < NOW {
            let user = if self.r.chance(0.6) { d.by } else { self.member(d.team) };
            self.delete(d, gone, user);
        } else {
            d.stable = true;
        }
        d.activity.retain(|a| a.0 < NOW);
    }

    fn word(&mut self, team: usize) -> String {
        if self.de(team) {
            self.r.one(&["alt", "neu", "Entwurf", "2027", "überarbeitet"]).to_string()
        } else {
            self.r.one(&["old", "draft", "v2", "2027", "deprecated", "WIP"]).to_string()
        }
    }

    fn title(&mut self, kind: Kind, team: usize, t: i64) -> String {
        let r = &mut self.r;
        if self.teams[team].de {
            let (a, b) = (r.one(DINGE), r.one(TUN));
            return match kind {
                Kind::Handbook => r.one(REGELN).to_string(),
                Kind::Meetings => {
                    let (y, m, dd) = chrono_parts(t);
                    let what = r.one(&["Teamrunde", "Abteilungsmeeting", "Jour fixe", "Retro"]);
                    format!("{what} {dd:02}.{m:02}.{y}")
                }
                Kind::Sales => format!("Angebot {}", r.one(COMPANIES)),
                _ => match r.below(3) {
                    0 => format!("{a} {b}"),
                    1 => format!("Anleitung: {a}"),
                    _ => format!("Konzept {a}"),
                },
            };
        }
        let (thing, feature, verb) = (r.one(THINGS), r.one(FEATURES), r.one(VERBS));
        match kind {
            Kind::Eng => match r.below(6) {
                0 => format!("How to {verb} the {thing}"),
                1 => format!("RFC: {} the {thing}", capital(verb)),
                2 => format!("Runbook: {thing}"),
                3 => format!("Debugging the {thing}"),
                4 => format!("{} architecture", capital(thing)),
                _ => format!("Local setup for the {thing}"),
            },
            Kind::Product => match r.below(4) {
                0 => format!("PRD: {feature}"),
                1 => format!("Customer interviews: {feature}"),
                2 => format!("Launch plan: {feature}"),
                _ => format!("{} research notes", capital(feature)),
            },
            Kind::Handbook => r.one(POLICIES).to_string(),
            Kind::Support => match r.below(3) {
                0 => format!("Macro: {feature} not working"),
                1 => format!("Troubleshooting the {thing}"),
                _ => format!("Known issue: {feature}"),
            },
            Kind::Meetings => {
                let (who, with) = (r.one(FIRST), r.one(FIRST));
                match r.below(5) {
                    0 => "Weekly product sync".to_string(),
                    1 => "Engineering all-hands".to_string(),
                    2 => format!("Design review: {feature}"),
                    3 => format!("1:1 {who} / {with}"),
                    _ => format!("Retro sprint {}", r.range(40, 58)),
                }
            }
            Kind::Incidents => format!("Incident review: {thing}"),
            Kind::Design => match r.below(3) {
                0 => format!("{} design spec", capital(feature)),
                1 => format!("Usability test: {feature}"),
                _ => format!("Design system: {}", r.one(&["buttons", "tables", "forms", "empty states", "icons"])),
            },
            Kind::Sales => match r.below(3) {
                0 => format!("Account plan: {}", r.one(COMPANIES)),
                1 => format!("Call notes: {}", r.one(COMPANIES)),
                _ => "Pricing FAQ".to_string(),
            },
            Kind::Marketing => match r.below(3) {
                0 => format!("Blog draft: {feature}"),
                1 => format!("Campaign brief: {feature}"),
                _ => format!("Newsletter {}", MONTHS[chrono_parts(t).1 - 1]),
            },
        }
    }

    fn prose(&mut self, team: usize) -> String {
        let r = &mut self.r;
        let n = 1 + r.below(3);
        let mut out: Vec<String> = Vec::new();
        for _ in 0..n {
            let s = if self.teams[team].de {
                let (a, b, c) = (r.one(DINGE), r.one(TUN), r.one(DINGE));
                match r.below(4) {
                    0 => format!("Wir müssen den {a} bis Ende des Monats {b}."),
                    1 => format!("Der {a} hängt vom {c} ab, deshalb bitte zuerst dort {b}."),
                    2 => format!("{} kümmert sich um den {a} und meldet sich bei Fragen.", r.one(FIRST)),
                    _ => format!("Offene Punkte zum {a}: Zuständigkeit klären und Termine {b}."),
                }
            } else {
                let (a, b, v) = (r.one(THINGS), r.one(THINGS), r.one(VERBS));
                match r.below(6) {
                    0 => format!("We {v} the {a} every {} before the release.", r.one(&["week", "sprint", "month"])),
                    1 => format!("The {a} depends on the {b}, so {v} that first."),
                    2 => format!("If the {a} fails, check the {} and the {} logs.", r.one(WORDS), r.one(WORDS)),
                    3 => format!("{} owns the {a} until the end of the quarter.", r.one(FIRST)),
                    4 => format!("Customers asked for {} because the {a} is too slow.", r.one(FEATURES)),
                    _ => format!("Open question: who reviews changes to the {a} and the {}?", r.one(WORDS)),
                }
            };
            out.push(s);
        }
        out.join(" ")
    }

    fn items(&mut self, team: usize, n: u64) -> Vec<String> {
        let de = self.de(team);
        (0..n)
            .map(|_| {
                if de {
                    format!("{} {}", self.r.one(DINGE), self.r.one(TUN))
                } else {
                    let v = capital(self.r.one(VERBS));
                    format!("{v} the {}", self.r.one(THINGS))
                }
            })
            .collect()
    }

    fn heading(&self, team: usize, which: usize) -> String {
        let en = ["Context", "Goals", "Steps", "Notes", "Open questions", "Action items", "Decision"];
        let de = ["Hintergrund", "Ziele", "Schritte", "Notizen", "Offene Fragen", "Aufgaben", "Entscheidung"];
        if self.de(team) { de[which % 7].to_string() } else { en[which % 7].to_string() }
    }

    /// What people write into a document of the kind.
    fn body(&mut self, kind: Kind, team: usize) -> Body {
        let mut b: Vec<Block> = Vec::new();
        match kind {
            Kind::Meetings => {
                b.push(Block::H(2, self.heading(team, 3)));
                let n = 2 + self.r.below(4);
                b.push(Block::Bullets(self.items(team, n)));
                b.push(Block::P(self.prose(team)));
                b.push(Block::H(2, self.heading(team, 5)));
                let n = 1 + self.r.below(4);
                b.push(Block::Checks(self.items(team, n).into_iter().map(|i| (false, i)).collect()));
            }
            Kind::Handbook => {
                b.push(Block::P(self.prose(team)));
                for k in 0..1 + self.r.below(3) {
                    let h = self.heading(team, 1 + k as usize);
                    b.push(Block::H(2, h));
                    b.push(Block::P(self.prose(team)));
                }
            }
            _ => {
                let h = self.heading(team, 0);
                b.push(Block::H(2, h));
                b.push(Block::P(self.prose(team)));
                if self.r.chance(0.6) {
                    b.push(Block::H(2, self.heading(team, 2)));
                    let n = 2 + self.r.below(5);
                    b.push(Block::Bullets(self.items(team, n)));
                }
                if self.r.chance(0.4) {
                    b.push(Block::P(self.prose(team)));
                }
            }
        }
        if self.r.chance(0.25) {
            b.push(Block::Empty);
        }
        Body(b)
    }

    /// A later session's change: a paragraph or list added, tasks ticked off, a paragraph rewritten.
    fn extend(&mut self, body: &Body, kind: Kind, team: usize) -> Body {
        let mut b = body.0.clone();
        if b.last() == Some(&Block::Empty) {
            b.pop();
        }
        match self.r.below(4) {
            0 if b.iter().any(|x| matches!(x, Block::Checks(_))) => {
                for x in b.iter_mut() {
                    if let Block::Checks(items) = x {
                        for it in items.iter_mut() {
                            it.0 = it.0 || self.r.chance(0.6);
                        }
                    }
                }
            }
            1 if !b.is_empty() => {
                let k = self.r.below(b.len() as u64) as usize;
                if matches!(b[k], Block::P(_)) {
                    b[k] = Block::P(self.prose(team));
                } else {
                    b.push(Block::P(self.prose(team)));
                }
            }
            2 => {
                let n = 2 + self.r.below(3);
                b.push(Block::Bullets(self.items(team, n)));
            }
            _ => {
                if b.is_empty() {
                    b = self.body(kind, team).0;
                } else {
                    b.push(Block::P(self.prose(team)));
                }
            }
        }
        if self.r.chance(0.25) {
            b.push(Block::Empty);
        }
        Body(b)
    }

    /// A document made from a template, filled in: text under its headings, its tasks named.
    fn fill_in(&mut self, body: &Body, team: usize) -> Body {
        let mut b: Vec<Block> = Vec::new();
        for x in &body.0 {
            match x {
                Block::Empty if self.r.chance(0.85) => b.push(Block::P(self.prose(team))),
                Block::Checks(items) => {
                    let n = items.len() as u64 + self.r.below(3);
                    b.push(Block::Checks(self.items(team, n).into_iter().map(|i| (false, i)).collect()));
                }
                _ => b.push(x.clone()),
            }
        }
        Body(b)
    }

    /// A template usable in the collection at `t`.
    fn template_for(&mut self, team: usize, coll: usize, t: i64) -> Option<Tpl> {
        let usable: Vec<Tpl> =
            self.teams[team].tpls.iter().filter(|p| p.at < t && p.coll.is_none_or(|c| c == coll)).cloned().collect();
        if usable.is_empty() { None } else { Some(self.r.pick(&usable).clone()) }
    }

    /// "New doc" (in a collection, maybe under a document, maybe from a template) or a new draft, as
    /// `documents.create` writes it.
    fn web_row(
        &mut self,
        t: i64,
        team: usize,
        by: usize,
        coll: Option<usize>,
        parent: Option<usize>,
        tpl: Option<&Tpl>,
    ) -> Doc {
        let mut d = self.row(t, team, by, coll);
        d.parent = parent;
        d.editor = true;
        d.full = self.wide[by] || parent.is_some_and(|p| self.v[p].full);
        d.body = Body::empty();
        if let Some(p) = tpl {
            let (date, name) = (date_text(t, self.de(team)), self.names[by].clone());
            d.body = p.body.fill(&date, &name);
            d.tpl = Some(p.id.clone());
            d.icon = p.icon;
        }
        d.text = Some(d.body.markdown());
        if coll.is_some() {
            self.publish_on_create(&mut d);
        }
        d
    }

    /// The author's life with the document they were taken to: its state stored, a title, the writing, what follows.
    fn write(&mut self, d: &mut Doc, kind: Kind) {
        let t = d.at + self.r.range(300, 1_500) * 1_000;
        self.open(d, t);
        let fate = self.r.below(100);
        if fate < 8 {
            // Left empty: an "Untitled" in the sidebar (or in drafts).
            return;
        }
        let title = self.title(kind, d.team, d.at);
        let mut t = d.at + self.r.range(6, 70) * SECOND + self.r.below(1_000_000) as i64;
        if self.r.chance(0.15) {
            // The title saved while still being typed (3 s without a key), then again.
            let words: Vec<&str> = title.split(' ').collect();
            if words.len() > 2 {
                let part = words[..words.len() / 2].join(" ");
                let by = d.by;
                self.retitle(d, t, by, part, false);
                t += self.r.range(4, 20) * SECOND;
            }
        }
        if t >= NOW - 10 * SECOND {
            return;
        }
        let by = d.by;
        let stub = fate < 13;
        self.retitle(d, t, by, title, stub);
        if stub {
            return;
        }
        let body = if d.tpl.is_some() { self.fill_in(&d.body, d.team) } else { self.body(kind, d.team) };
        let start = t + self.r.range(2, 30) * SECOND;
        if start < NOW - MINUTE {
            self.session(d, by, start, body);
        }
        self.later(d, kind);
    }

    /// A first attempt whose response was lost: nobody was taken to it.
    fn orphan(&mut self, d: &mut Doc) {
        let x = self.r.below(100);
        let t = d.at + self.r.range(120, 5 * 86_400) * SECOND;
        if t >= NOW {
            return;
        }
        if d.published.is_none() {
            // Only its author sees a draft.
            if x < 25 {
                let by = d.by;
                self.delete(d, t, by);
            }
        } else if x < 45 {
            let user = if self.r.chance(0.7) { d.by } else { self.member(d.team) };
            self.delete(d, t, user);
        } else if x < 60 {
            self.open(d, t);
        }
    }

    /// "New doc" or "New draft" from the web app.
    fn web(&mut self, t: i64, team: usize, by: usize, draft: bool, forced: bool) {
        let coll = if draft { None } else { Some(self.coll(team)) };
        let parent = match coll {
            Some(c) if self.r.chance(0.3) => self.parent(c, t),
            _ => None,
        };
        let tpl = match coll {
            Some(c) if self.r.chance(0.15) => self.template_for(team, c, t),
            _ => None,
        };
        let kind = coll.map_or(Kind::Product, |c| self.colls[c].kind);
        let y = self.r.below(1_000);
        let lost = forced || y < 11;
        let again = !lost && (11..15).contains(&y);
        if !lost && !again {
            let mut d = self.web_row(t, team, by, coll, parent, tpl.as_ref());
            self.write(&mut d, kind);
            if draft {
                self.publish_later(&mut d);
            }
            self.push(d);
            return;
        }
        let mut first = self.web_row(t, team, by, coll, parent, tpl.as_ref());
        self.orphan(&mut first);
        let of = self.push(first);
        let mut at = t;
        if lost && self.r.chance(0.12) {
            // Two responses lost: fetch-retry's second try made a row too.
            at += SECOND + self.r.range(30, 400) * 1_000;
            let mut second = self.web_row(at, team, by, coll, parent, tpl.as_ref());
            self.orphan(&mut second);
            second.mark = Mark::Retry;
            second.of = Some(of);
            self.push(second);
        }
        at += if lost { SECOND + self.r.range(30, 400) * 1_000 } else { self.r.range(6, 45) * SECOND };
        let mut d = self.web_row(at, team, by, coll, parent, tpl.as_ref());
        self.write(&mut d, kind);
        if draft {
            self.publish_later(&mut d);
        }
        d.mark = Mark::Retry;
        d.of = Some(of);
        self.push(d);
    }

    /// A draft with a title published (`documents.update` with `publish`), most of them.
    fn publish_later(&mut self, d: &mut Doc) {
        if d.title.is_empty() || d.deleted.is_some() || !self.r.chance(0.6) {
            return;
        }
        let t = d.updated + self.r.range(20, 3 * 86_400) * SECOND;
        if t >= NOW {
            return;
        }
        d.coll = Some(self.coll(d.team));
        d.published = Some(ms(t));
        let by = d.by;
        self.touch(d, t, by);
    }

    /// `templates.create` from the settings: published, with content.
    fn template(&mut self, t: i64, team: usize, by: usize) {
        let coll = if self.r.chance(0.4) { Some(self.coll(team)) } else { None };
        let (title, body, icon) = self.template_text(team);
        let mut d = self.row(t, team, by, coll);
        (d.template, d.revs, d.editor) = (true, 0, true);
        d.published = Some(d.at - self.r.range(1, 4) * 1_000);
        (d.title, d.body, d.icon) = (title, body, icon);
        if self.r.chance(0.4) {
            // `templates.update`: its content reworked.
            let at = t + self.r.range(300, 10 * 86_400) * SECOND;
            if at < NOW {
                let kind = coll.map_or(Kind::Meetings, |c| self.colls[c].kind);
                d.body = self.extend(&d.body, kind, team);
                d.updated = ms(at);
                d.last_by = if self.r.chance(0.7) { by } else { self.member(team) };
            }
        }
        self.teams[team].tpls.push(Tpl { id: d.id.clone(), at: d.updated, coll, body: d.body.clone(), icon });
        self.push(d);
    }

    fn template_text(&mut self, team: usize) -> (String, Body, Option<&'static str>) {
        let de = self.de(team);
        let (date, author) =
            if de { ("Datum: {date}", "Moderation: {author}") } else { ("Date: {date}", "Owner: {author}") };
        let k = self.r.below(4);
        let titles: [&str; 4] = if de {
            ["Besprechungsprotokoll", "Projektsteckbrief", "Übergabe", "Wochenbericht"]
        } else {
            ["Meeting notes", "Project brief", "1:1 notes", "Weekly update"]
        };
        let mut b = vec![Block::P(date.to_string()), Block::P(author.to_string())];
        for h in 0..2 + self.r.below(3) as usize {
            b.push(Block::H(2, self.heading(team, (h + k as usize) % 7)));
            b.push(Block::Empty);
        }
        if self.r.chance(0.5) {
            let task = if de { "Aufgabe" } else { "Task" };
            b.push(Block::Checks(vec![(false, task.to_string())]));
        }
        (titles[k as usize].to_string(), Body(b), self.r.chance(0.5).then(|| self.r.one(&["📝", "📋", "🗓️", "🤝"])))
    }

    /// An API or MCP create of a titled, written, published document (`documentCreator`, then its text task).
    fn api_row(&mut self, t: i64, team: usize, by: usize, coll: usize, title: &str, body: &Body) -> Doc {
        let mut d = self.row(t, team, by, Some(coll));
        d.title = title.to_string();
        d.body = body.clone();
        d.text = Some(d.body.markdown());
        self.publish_on_create(&mut d);
        d
    }

    /// An AI agent's `create_document` (Markdown, or HTML through the import task), and its repeat after a timeout.
    fn agent(&mut self, t: i64, team: usize, by: usize) {
        let coll = self.coll(team);
        let kind = self.colls[coll].kind;
        let title = match self.r.below(3) {
            0 => format!("Summary: {}", self.title(kind, team, t)),
            1 => self.title(kind, team, t),
            _ => format!("Research: {}", self.r.one(FEATURES)),
        };
        let mut body = self.body(kind, team);
        body.0.retain(|b| *b != Block::Empty);
        let html = self.r.chance(0.2);
        let file = !html && self.r.chance(0.1);
        let make = |w: &mut World, at: i64| {
            let mut d = w.api_row(at, team, by, coll, &title, &body);
            if html {
                d.source = vec![("fileName", "document.html".to_string()), ("mimeType", "text/html".to_string())];
                d.clients.push(w.r.next() as u32);
            } else if file {
                d.source = vec![("fileName", "notes.md".to_string()), ("mimeType", "text/markdown".to_string())];
            }
            d
        };
        let mut d = make(self, t);
        if self.r.chance(0.06) {
            let at = t + client_retry_delay(&mut self.r);
            let mut e = make(self, at);
            let x = self.r.below(100);
            let gone = at + self.r.range(300, 4 * 86_400) * SECOND;
            if x < 35 && gone < NOW {
                self.delete(&mut d, gone, by);
            } else if x < 50 && gone < NOW {
                self.delete(&mut e, gone, by);
            }
            self.readers(&mut d, 1);
            let n = self.r.skewed(6);
            self.readers(&mut e, n);
            let of = self.push(d);
            e.mark = Mark::Retry;
            e.of = Some(of);
            self.push(e);
            return;
        }
        if self.r.chance(0.4) {
            let body = self.extend(&d.body, kind, team);
            let start = d.at + self.r.range(60, 3 * 86_400) * SECOND;
            if start < NOW - HOUR {
                self.session(&mut d, by, start, body);
            }
        }
        self.later(&mut d, kind);
        self.push(d);
    }

    /// "Import" of files: each one `documents.import` (the import task converts it, then `documentCreator`).
    fn import_files(&mut self, t: i64, team: usize, by: usize) {
        let coll = self.coll(team);
        let kind = self.colls[coll].kind;
        let parent = if self.r.chance(0.3) { self.parent(coll, t) } else { None };
        let n = if self.r.chance(0.75) { 1 } else { 2 + self.r.below(5) };
        let mut at = t;
        for _ in 0..n {
            at += self.r.range(2_000, 9_000) * 1_000;
            let title = self.title(kind, team, at);
            let (ext, mime) = self.r.one(&[
                ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
                ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
                ("md", "text/markdown"),
                ("html", "text/html"),
            ]);
            let file = format!("{}.{ext}", title.replace([':', '/'], ""));
            let mut body = self.body(kind, team);
            body.0.retain(|b| *b != Block::Empty);
            let make = |w: &mut World, at: i64| {
                let mut d = w.api_row(at, team, by, coll, &title, &body);
                d.parent = parent;
                d.source = vec![("fileName", file.clone()), ("mimeType", mime.to_string())];
                d.clients.push(w.r.next() as u32);
                d
            };
            let mut d = make(self, at);
            if n == 1 {
                // Taken to it.
                let t = d.at + 800_000;
                self.open(&mut d, t);
                if self.r.chance(0.03) {
                    // The import seemed to fail (a gateway timeout); the same file imported again.
                    let a2 = at + self.r.range(15, 90) * SECOND;
                    let mut e = make(self, a2);
                    let t = e.at + 700_000;
                    self.open(&mut e, t);
                    let gone = a2 + self.r.range(60, 2 * 86_400) * SECOND;
                    if self.r.chance(0.5) && gone < NOW {
                        self.delete(&mut d, gone, by);
                    }
                    self.later(&mut e, kind);
                    let of = self.push(d);
                    e.mark = Mark::Retry;
                    e.of = Some(of);
                    self.push(e);
                    return;
                }
            }
            self.later(&mut d, kind);
            self.push(d);
        }
    }

    /// "Duplicate" of a document (a copy with the same title, in the same place), once or for each new hire.
    fn duplicate(&mut self, t: i64, team: usize, by: usize) {
        let found: Vec<usize> = (0..self.v.len())
            .rev()
            .take(600)
            .filter(|&k| {
                let d = &self.v[k];
                d.team == team
                    && !d.template
                    && !d.title.is_empty()
                    && d.published.is_some_and(|p| p < t)
                    && d.updated < t
                    && d.stable
                    && d.coll.is_some()
            })
            .collect();
        if found.is_empty() {
            return;
        }
        let o = found[self.r.skewed(found.len() as u64) as usize];
        let orig = self.v[o].clone();
        let kind = self.colls[orig.coll.unwrap_or(0)].kind;
        let many = matches!(kind, Kind::Handbook | Kind::Meetings) && self.r.chance(0.6);
        let copies = if many { 2 + self.r.below(3) } else { 1 };
        let mut at = t;
        for _ in 0..copies {
            let mut d = self.api_row(at, team, by, orig.coll.unwrap_or(0), &orig.title, &orig.body);
            d.parent = orig.parent;
            (d.icon, d.full) = (orig.icon, orig.full);
            d.source = orig.source.iter().filter(|s| s.0 != "originalDocumentId").cloned().collect();
            d.source.push(("originalDocumentId", orig.id.clone()));
            let t = d.at + 900_000;
            self.open(&mut d, t);
            // Renamed for its new use (when the new hire starts, the meeting is due), then filled in.
            let rt = d.at + self.r.range(300, 12 * 86_400) * SECOND;
            if self.r.chance(0.6) && rt < NOW - MINUTE {
                let name = self.r.one(FIRST);
                let title = format!("{} – {name}", orig.title);
                self.retitle(&mut d, rt, by, title, false);
                let body = self.extend(&d.body, kind, team);
                let start = rt + self.r.range(5, 300) * SECOND;
                if start < NOW - MINUTE {
                    self.session(&mut d, by, start, body);
                }
                self.later(&mut d, kind);
            } else {
                d.stable = true;
            }
            self.push(d);
            at += self.r.range(15, 200) * SECOND;
        }
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().collect::<String>() + c.as_str())
}

/// A bot's document: `documents.create` through the API, its retry by the bot's client, and what people do with them.
#[allow(clippy::too_many_arguments)]
fn bot_post(
    w: &mut World,
    t: i64,
    team: usize,
    by: usize,
    coll: usize,
    title: &str,
    body: &Body,
    retry: bool,
    fill: f64,
) {
    let kind = w.colls[coll].kind;
    let mut d = w.api_row(t, team, by, coll, title, body);
    let e = retry.then(|| {
        let at = t + client_retry_delay(&mut w.r);
        let mut e = w.api_row(at, team, by, coll, title, body);
        e.mark = Mark::Retry;
        e
    });
    // The bot links the last row it got back: that one is filled in; a first attempt is deleted or left.
    let worked = match e {
        Some(mut e) => {
            let x = w.r.below(100);
            let gone = e.at + w.r.range(600, 3 * 86_400) * SECOND;
            if x < 50 && gone < NOW {
                let user = w.member(team);
                w.delete(&mut d, gone, user);
            } else if x < 65 {
                w.open(&mut d, gone.min(NOW - MINUTE));
            }
            let of = w.push(d);
            e.of = Some(of);
            e
        }
        None => d,
    };
    let mut d = worked;
    if w.r.chance(fill) {
        let start = d.at + w.r.range(600, 2 * 86_400) * SECOND;
        if start < NOW - MINUTE {
            let user = w.member(team);
            let body = w.extend(&d.body, kind, team);
            w.session(&mut d, user, start, body);
            w.later(&mut d, kind);
        }
    } else if w.r.chance(0.5) {
        let n = 1 + w.r.skewed(5);
        w.readers(&mut d, n);
    }
    w.push(d);
}

/// The scheduled and event-driven posters: n8n's on-call handover, the postmortem relay, the release workflow, the
/// standup script.
fn bots(w: &mut World) {
    let (eng, incidents) = (w.teams[0].colls[0], w.teams[0].colls[8]);
    let handover = Body(vec![
        Block::P("Handover from the outgoing on-call engineer. Fill in before the Monday sync.".to_string()),
        Block::H(2, "Open incidents".to_string()),
        Block::Empty,
        Block::H(2, "Alerts that fired".to_string()),
        Block::Empty,
        Block::H(2, "Checklist".to_string()),
        Block::Checks(vec![
            (false, "PagerDuty schedule updated".to_string()),
            (false, "Runbooks touched this week linked".to_string()),
            (false, "Flaky alerts ticketed".to_string()),
        ]),
    ]);
    for week in 0..8 {
        let t = START + week * 7 * DAY + 8 * HOUR + w.r.range(400, 40_000) * 1_000;
        bot_post(w, t, 0, BOT, incidents, "On-call handover", &handover, week == 4, 0.45);
    }
    // Postmortems: the relay posts one when an incident is resolved.
    let mut t = START + w.r.range(1, 3 * 86_400) * SECOND;
    let mut inc = 2_310;
    while t < NOW - HOUR {
        inc += 1 + w.r.below(3) as i64;
        let (svc, sym) = (w.r.one(SERVICES), w.r.one(SYMPTOMS));
        let title = format!("Postmortem: INC-{inc} {svc} {sym}");
        let body = Body(vec![
            Block::P(format!("Incident INC-{inc} on {svc} ({sym}), resolved {}.", date_text(t, false))),
            Block::H(2, "Summary".to_string()),
            Block::Empty,
            Block::H(2, "Impact".to_string()),
            Block::Empty,
            Block::H(2, "Timeline".to_string()),
            Block::Empty,
            Block::H(2, "Root cause".to_string()),
            Block::Empty,
            Block::H(2, "Action items".to_string()),
            Block::Checks(vec![(false, "Owner:".to_string())]),
        ]);
        let retry = w.r.chance(0.08);
        bot_post(w, t, 0, BOT, incidents, &title, &body, retry, 0.8);
        t += w.r.range(20 * 3_600, 5 * 86_400) * SECOND + w.r.below(1_000_000) as i64;
    }
    // Releases: the workflow posts the changelog (curl, retried after its timeout).
    let mut t = START + DAY + 15 * HOUR;
    let mut minor = 41;
    while t < NOW - HOUR {
        minor += 1;
        let n = 3 + w.r.below(6);
        let mut changes = w.items(0, n);
        for c in changes.iter_mut() {
            *c = format!("{c} (#{})", w.r.range(4_100, 4_900));
        }
        let body = Body(vec![
            Block::H(2, "Changes".to_string()),
            Block::Bullets(changes),
            Block::P(format!("Tagged v3.{minor}.0 by the release workflow.")),
        ]);
        let retry = w.r.chance(0.05);
        bot_post(w, t, 0, LEAD, eng, &format!("Release v3.{minor}.0"), &body, retry, 0.1);
        t += w.r.one(&[2, 3, 4, 5, 7]) * DAY + w.r.range(-3_600, 3_600) * SECOND;
    }
    // The agency's standup page, weekdays 07:30 UTC, each person's section filled in during the morning.
    let standups = w.teams[2].colls[1];
    let mut d = START;
    while d < NOW - DAY {
        if (d / DAY + 3) % 7 < 5 {
            let t = d + 7 * HOUR + 30 * MINUTE + w.r.range(200, 9_000) * 1_000;
            let (y, m, dd) = chrono_parts(t);
            let mut b: Vec<Block> = Vec::new();
            for name in &w.names[64..70] {
                b.push(Block::H(3, name.clone()));
                b.push(Block::Checks(vec![(false, "Yesterday:".to_string()), (false, "Today:".to_string())]));
            }
            let body = Body(b);
            let title = format!("Standup {y}-{m:02}-{dd:02}");
            let mut doc = w.api_row(t, 2, OWNER, standups, &title, &body);
            let mut at = t;
            for _ in 0..2 + w.r.below(4) {
                at += w.r.range(300, 3 * 3_600) * SECOND;
                if at >= NOW - MINUTE {
                    break;
                }
                let user = 64 + w.r.below(6) as usize;
                let body = w.extend(&doc.body, Kind::Meetings, 2);
                at = w.session(&mut doc, user, at, body);
            }
            let n = w.r.skewed(6);
            w.readers(&mut doc, n);
            doc.stable = true;
            w.push(doc);
        }
        d += DAY;
    }
}

/// An import (Notion through its API, or a Markdown zip): new collections, then every page in one transaction
/// (`findOrCreate`, silent): the source's times or the import's `now`, `apiImportId`, `sourceMetadata`.
fn bulk_import(w: &mut World, t: i64, team: usize, by: usize, notion: bool) {
    let imp = w.imports.len();
    w.imports.push(w.r.uuid());
    let de = w.de(team);
    let roots = if notion { 3 } else { 1 };
    let mut colls: Vec<usize> = Vec::new();
    for k in 0..roots {
        let kind = [Kind::Eng, Kind::Handbook, Kind::Meetings][k];
        let id = w.r.uuid();
        w.colls.push(Coll { id, kind });
        colls.push(w.colls.len() - 1);
    }
    let now = ms(t);
    let mut at = t;
    let mut pages: Vec<usize> = Vec::new();
    let total = if notion { w.r.range(55, 85) } else { w.r.range(25, 40) };
    for _ in 0..total {
        at += w.r.range(3, 40) * 1_000;
        let c = colls[w.r.below(roots as u64) as usize];
        let kind = w.colls[c].kind;
        let mine: Vec<usize> =
            pages.iter().copied().filter(|&p| w.v[p].coll == Some(c) && !w.v[p].title.is_empty()).collect();
        let parent =
            if !mine.is_empty() && w.r.chance(0.45) { Some(mine[w.r.below(mine.len() as u64) as usize]) } else { None };
        let empty = w.r.chance(if notion { 0.08 } else { 0.03 });
        let then = t - w.r.range(30, 700) * DAY;
        let title = if empty { String::new() } else { w.title(kind, team, then) };
        let body = if empty { Body::empty() } else { w.body(kind, team) };
        let author = w.r.below(w.teams[team].n as u64) as usize + w.teams[team].lo;
        let mut d = w.row(at, team, by, Some(c));
        d.ins = ms(at);
        d.parent = parent;
        d.title = title.clone();
        d.body = body;
        d.text = Some(d.body.markdown());
        d.import = Some(imp);
        let ext = w.r.uuid();
        if notion {
            // Notion's times are whole minutes.
            let created = t - w.r.range(20, 900) * DAY - w.r.range(0, 1_439) * MINUTE;
            let created = created - created.rem_euclid(MINUTE);
            let edited = created + w.r.range(0, (t - created) / MINUTE) * MINUTE;
            (d.at, d.updated, d.published) = (created, edited, Some(edited));
            // Authors matched to members by email, else the person importing.
            if w.r.chance(0.7) {
                d.by = author;
            }
            d.source = vec![("externalId", ext), ("externalName", title), ("createdByName", w.names[author].clone())];
        } else {
            (d.at, d.updated, d.published) = (now, now, Some(now));
            d.source = vec![("externalId", ext), ("externalName", title)];
        }
        d.last_by = d.by;
        d.lang = None;
        if w.r.chance(0.35) {
            let start = t + w.r.range(3_600, 20 * 86_400) * SECOND;
            if start < NOW - MINUTE {
                let user = w.member(team);
                let body = w.extend(&d.body, kind, team);
                w.session(&mut d, user, start, body);
            }
        }
        let n = w.r.skewed(8);
        w.readers(&mut d, n);
        d.activity.retain(|a| a.0 > t);
        d.stable = true;
        if !de && d.title.is_empty() && w.r.chance(0.5) {
            let gone = t + w.r.range(3_600, 9 * 86_400) * SECOND;
            if gone < NOW {
                let user = by;
                w.delete(&mut d, gone, user);
                d.stable = false;
            }
        }
        let k = w.push(d);
        pages.push(k);
    }
}

/// The popularity score as the last run before now (or before its deletion) left it.
fn popularity(d: &Doc) -> f64 {
    let run = match d.deleted {
        Some(x) if x <= RUN => x - x.rem_euclid(12 * HOUR),
        _ => RUN,
    };
    if d.template || d.published.is_none_or(|p| p > run) {
        return 0.0;
    }
    let today = run / DAY;
    let mut s = 0.0;
    for &(t, weight) in &d.activity {
        let dd = t / DAY;
        if t < run && dd >= today - 14 {
            let hours = ((today - dd) * 24 + 2) as f64;
            s += weight / hours.powf(0.7);
        }
    }
    s
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x0071_1AE5);
    let users: Vec<String> = (0..USERS).map(|_| r.uuid()).collect();
    let names: Vec<String> = (0..USERS)
        .map(|u| if u == BOT { "Automation".to_string() } else { format!("{} {}", r.one(FIRST), r.one(LAST)) })
        .collect();
    let wide: Vec<bool> = (0..USERS).map(|_| r.chance(0.12)).collect();
    let mut w =
        World { r, users, names, wide, teams: Vec::new(), colls: Vec::new(), imports: Vec::new(), v: Vec::new() };
    for (k, &(lo, n, de, _)) in TEAMS.iter().enumerate() {
        let id = w.r.uuid();
        let mut colls = Vec::new();
        for &kind in COLLS[k] {
            let cid = w.r.uuid();
            w.colls.push(Coll { id: cid, kind });
            colls.push(w.colls.len() - 1);
        }
        w.teams.push(Team { id, lo, n, de, colls, tpls: Vec::new() });
        // Templates from before the window (rows not in this table's window).
        for _ in 0..2 + w.r.below(3) {
            let (_, body, icon) = w.template_text(k);
            let coll = if w.r.chance(0.3) { Some(w.teams[k].colls[w.r.below(2) as usize]) } else { None };
            let id = w.r.uuid();
            w.teams[k].tpls.push(Tpl { id, at: START - 100 * DAY, coll, body, icon });
        }
    }

    let mut t = START + w.r.range(0, 3_600) * SECOND;
    let mut late = 0;
    loop {
        let weekend = (t / DAY + 3) % 7 >= 5;
        let gap = w.r.range(60, 3_400) * SECOND * 6 / RHYTHM[(t / HOUR % 24) as usize];
        t += if weekend { gap * 5 } else { gap } + w.r.below(1_000_000) as i64;
        if t >= NOW - 2 * MINUTE {
            break;
        }
        let y = w.r.below(100);
        let team = if y < TEAMS[0].3 {
            0
        } else if y < TEAMS[0].3 + TEAMS[1].3 {
            1
        } else {
            2
        };
        let by = w.member(team);
        let forced = late < LATE.len() && t > LATE[late] && team == 0;
        late += usize::from(forced);
        let x = if forced { 999 } else { w.r.below(1_000) };
        match x {
            0..=14 => w.duplicate(t, team, by),
            15..=24 => w.import_files(t, team, by),
            25..=31 => w.template(t, team, by),
            32..=76 => {
                let mine: Vec<usize> = AGENTS
                    .iter()
                    .copied()
                    .filter(|u| (TEAMS[team].0..TEAMS[team].0 + TEAMS[team].1).contains(u))
                    .collect();
                if !mine.is_empty() {
                    let u = mine[w.r.below(mine.len() as u64) as usize];
                    w.agent(t, team, u);
                }
            }
            77..=185 => w.web(t, team, by, true, false),
            _ => w.web(t, team, by, false, forced),
        }
    }
    bots(&mut w);
    bulk_import(&mut w, START + 9 * DAY + 10 * HOUR + 14 * MINUTE, 1, 48, true);
    bulk_import(&mut w, START + 33 * DAY + 15 * HOUR + 2 * MINUTE, 0, 6, false);

    let v = &w.v;
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&k| (v[k].ins, k));
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("documents", &columns);
    let mut present_group: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for &k in &order {
        let d = &v[k];
        // The cleanup task destroyed what was deleted over 30 days ago.
        if d.deleted.is_some_and(|x| x < NOW - 30 * DAY) {
            continue;
        }
        let score = popularity(d);
        let text = if d.template { None } else { d.text.clone() };
        let source = (!d.source.is_empty()).then(|| {
            let kv: Vec<String> = d.source.iter().map(|(key, val)| format!(r#""{key}":"{}""#, esc(val))).collect();
            format!("{{{}}}", kv.join(","))
        });
        let collab = (!d.template)
            .then(|| format!("{{{}}}", d.collab.iter().map(|&u| w.users[u].as_str()).collect::<Vec<_>>().join(",")));
        let prev = (!d.prev.is_empty()).then(|| {
            let items: Vec<String> =
                d.prev.iter().map(|p| format!("\"{}\"", p.replace('\\', "\\\\").replace('"', "\\\""))).collect();
            format!("{{{}}}", items.join(","))
        });
        let coll = d.coll.map(|c| w.colls[c].id.as_str());
        let parent = d.parent.map(|p| v[p].id.as_str());
        let content = d.body.json();
        let group = d.of.unwrap_or(k);
        let mut mark = d.mark;
        if mark == Mark::Retry && !present_group.contains(&group) {
            mark = Mark::Plain;
        }
        present_group.insert(group);
        let key = format!(
            "{}|{:?}|{}|{:?}|{:?}|{}|{}|{}|{}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{}|{}|{}",
            d.title,
            text,
            content,
            coll,
            parent,
            d.team,
            d.by,
            d.last_by,
            d.revs,
            collab,
            d.deleted,
            d.archived,
            d.editor,
            d.tpl,
            prev,
            d.full,
            source,
            d.icon,
            d.import,
            d.lang,
            score.to_bits(),
            d.published.is_some(),
            d.updated != d.at,
        );
        if !seen.insert(key) && mark == Mark::Plain {
            mark = Mark::Legit;
        }
        f.push(&[
            ("id", V::t(&d.id)),
            ("urlId", V::t(&d.url)),
            ("title", V::t(&d.title)),
            ("text", V::opt_t(text.as_deref())),
            ("createdAt", V::AtZ(d.at)),
            ("updatedAt", V::AtZ(d.updated)),
            ("collectionId", V::opt_t(coll)),
            ("teamId", V::t(&w.teams[d.team].id)),
            ("parentDocumentId", V::opt_t(parent)),
            ("lastModifiedById", V::t(&w.users[d.last_by])),
            ("revisionCount", V::I(d.revs)),
            ("deletedAt", d.deleted.map_or(V::Null, V::AtZ)),
            ("createdById", V::t(&w.users[d.by])),
            ("collaboratorIds", V::opt_t(collab.as_deref())),
            ("publishedAt", d.published.map_or(V::Null, V::AtZ)),
            ("archivedAt", d.archived.map_or(V::Null, V::AtZ)),
            ("isWelcome", V::B(false)),
            ("editorVersion", V::opt_t(d.editor.then_some(EDITOR))),
            ("version", if d.template { V::Null } else { V::I(2) }),
            ("template", V::B(d.template)),
            ("templateId", V::opt_t(d.tpl.as_deref())),
            ("previousTitles", V::opt_t(prev.as_deref())),
            ("state", ystate(&d.clients, &d.body)),
            ("fullWidth", V::B(d.full)),
            ("insightsEnabled", V::B(true)),
            ("sourceMetadata", V::opt_t(source.as_deref())),
            ("content", V::t(content)),
            ("icon", V::opt_t(d.icon)),
            ("apiImportId", V::opt_t(d.import.map(|i| w.imports[i].as_str()))),
            ("language", V::opt_t(d.lang)),
            ("popularityScore", V::F(score)),
        ]);
        f.mark(&d.id, mark);
    }
    f
}
