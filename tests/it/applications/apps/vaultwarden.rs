//! Vaultwarden (Rust, Rocket and Diesel 2; SQLite, MySQL/MariaDB and PostgreSQL): `ciphers` (vault items), as
//! `post_ciphers` (`POST /api/ciphers`, a personal item), `post_ciphers_create` (`POST /api/ciphers/create`, an item
//! made in an organization, a clone), `post_ciphers_import` (`POST /api/ciphers/import`), the organization import
//! (`post_org_import`) and `post_cipher_share` (moving an item into an organization) write it, through
//! `update_cipher_from_data` and `Cipher::save`, and as people keep their vaults afterwards: the self-hosted vault of
//! a 31-person design and software studio in Toronto (its organization, the admin's family organization, a dozen of
//! his friends), 90 days to the end of September. Bitwarden's clients encrypt every item before they send it.
//! Read: dani-garcia/vaultwarden (46d7110) migrations/{sqlite,mysql,postgresql}: 2018-01-14-171611_create_tables,
//! 2018-04-27-155151_create_users_ciphers (the table rebuilt without `folder_uuid`), 2018-08-27-172114_update_ciphers
//! (`password_history`), 2019-05-26-216651_rename_key_and_type_columns (`type` to `atype`), postgresql
//! 2019-09-12-100000_create_tables and 2019-09-16-150000_fix_attachments (VARCHAR(40) ids),
//! 2020-04-09-235005_add_cipher_delete_date, 2020-08-02-025025_add_favorites_table (`favorite` dropped: SQLite's
//! twelve-step rebuild), 2021-04-30-233251_add_reprompt, 2023-10-21-221242_add_cipher_key, 2026-03-09-005927
//! _add_archives; src/db/schema.rs, src/db/models/cipher.rs (`Cipher::new`, `save`: `updated_at` = now on every save,
//! `replace_into` on SQLite/MySQL, upsert on PostgreSQL; `delete`, `purge_trash`, `move_to_folder`, `set_favorite`,
//! `set_archived_at`), src/api/core/ciphers.rs (`CipherData`, `post_ciphers`, `post_ciphers_create`,
//! `update_cipher_from_data`, `post_ciphers_import`, `put_cipher`, `share_cipher_by_uuid`, `delete_cipher_by_uuid`:
//! soft for `PUT .../delete`, hard for `DELETE`, `restore_cipher_by_uuid`, `move_cipher_selected`,
//! `purge_personal_vault`, `archive_cipher`), src/api/core/organizations.rs (`post_org_import`),
//! src/api/core/accounts.rs (`post_rotatekey`), src/api/core/mod.rs (`/api/config`: version 2026.6.0, no
//! `cipher-key-encryption` flag), src/config.rs (`trash_auto_delete_days` unset by default, `SUPPORTED_FEATURE_FLAGS`),
//! src/util.rs (`get_uuid`: uuid v4), Cargo.toml and Cargo.lock (serde_json with indexmap: `data` keeps the client's
//! key order). bitwarden/clients (by code search): libs/common/src/vault/models/request/cipher.request.ts (the order
//! and nulls of `login`, `uris`, `fido2Credentials`), services/cipher.service.ts (`encrypt`, `encryptFields` and
//! `encryptPasswordHistories` give null for none, `getCipherKeyEncryptionEnabled`: a feature flag that defaults to
//! false), enums/feature-flag.enum.ts. bitwarden/android (d817f6b): network/.../CipherJsonRequest.kt,
//! SyncResponseJson.kt (`Login`, `Uri` field order), core/.../CoreModule.kt (`explicitNulls = false`),
//! app/.../FeatureFlagManagerImpl.kt (cipher keys on for any server at 2024.2.0 or later),
//! VaultSdkCipherExtensions.kt, VaultAddItemStateExtensions.kt (`fields` always a list, password history null when
//! empty, kept to five), network/.../RetrofitsImpl.kt (OkHttp's defaults: 10 s timeouts, `retryOnConnectionFailure`).
//! Issues: dani-garcia/vaultwarden #2005 ("the web-vault encrypts each value separately, and thus no match can be
//! made on the server side"), #1466 (an import past Cloudflare's 100 s finishes anyway), #4691 (imports twice make
//! folders twice); bitwarden/clients #14145 (an item saved three times after errors on a hotel connection), #4130
//! (weekly Chrome exports imported again: hundreds of duplicates, "intended behavior"), #5630 (the extension adds a
//! login again when the vault is locked); bitwarden/android #6410 (saving a login that was just filled). DDL checked
//! against each engine after running all of Vaultwarden's up.sql files on a scratch database.
//! On a create: `uuid` a fresh uuid4; `created_at` = `updated_at` = now in `Cipher::new`, then every save sets
//! `updated_at` again (a millisecond or few later; an organization create saves twice, 6-30 ms apart); `user_uuid`
//! the caller for a personal item, NULL for an organization's (`organization_uuid` set); `atype` 1 login, 2 secure
//! note, 3 card, 4 identity, 5 SSH key; `name`, `notes` and every secret in `data`, `fields` and `password_history`
//! are EncStrings (`2.<iv>|<ciphertext>|<mac>`, a fresh IV on each encryption); `data` is the client's type object
//! as JSON (`response` keys removed): the web clients write every key with its nulls, Android leaves nulls out and
//! always sends `fields` (`[]` when none); `key` (the item's own key, wrapped) only from the mobile apps, which turn
//! cipher keys on by the server's version, while the web clients wait for a flag Vaultwarden never sends; `reprompt`
//! 0 or 1; `password_history` and `deleted_at` NULL. An import writes its items one after another in one request
//! (10-35 ms each), a retried request's body is byte for byte the first one's.
//! Later: an edit (`PUT /ciphers/<id>`) re-encrypts the whole item (new ciphertexts everywhere, the editing client's
//! JSON), a password change adds the old one to `password_history` (five kept) and sets `passwordRevisionDate`, the
//! mobile apps give a key-less item a key, the web clients wrap an existing key again; moving an item into the
//! organization (`share`) re-encrypts it with the organization's key, sets `organization_uuid` and clears
//! `user_uuid`; deleting moves it to the trash (`deleted_at`, `updated_at`), restoring clears it, deleting from the
//! trash removes the row (no auto-purge: `TRASH_AUTO_DELETE_DAYS` unset); a key rotation re-encrypts all of a user's
//! personal items in one request; folders, favorites, archiving, collections and attachments live in other tables
//! and leave the row alone. Every save bumps `updated_at`.
//! Retries (about 2% of the 1,820 interactive creates; imports are one request and none is retried here): the create
//! paths read send once, but the transport resends: Android's OkHttp sends the same body again when the connection
//! drops after the request went out (a phone leaving Wi-Fi, the proxy restarting), 0.25-4 s later, and Chromium
//! (extension, desktop, web vault) resends on a reused connection that closed before any answer, 20-300 ms later; both
//! rows carry the very same ciphertexts, and any two rows that do are such a resend. Three in the last day (forced). A
//! person who got an error (Android's 10 s read timeout, the proxy's 504 after 60 s, a dropped hotel connection) and
//! pressed Save again makes a re-encrypted item 12 s-2 min later, a few a third one; those extra rows look exactly like
//! a login typed in twice and are hidden. The client keeps the copy it heard of; the other is moved to the trash (some
//! later deleted for good), edited, or left; an extra row whose copy was edited since no longer shares its ciphertexts
//! and is hidden too. An import re-clicked after a proxy's 504/524 (#1466) would double hundreds of rows at once; none
//! here. Legitimate repeats, all re-encrypted: a Chrome export imported again six weeks later (70 of the doubled
//! logins, either copy, deleted two days later and emptied from the trash a week after); a LastPass import run twice
//! two minutes apart (the items did not show in the filtered list), 60% of the second copy deleted for good; team
//! logins imported into a personal vault after the admin imported them into the organization; the same login saved in
//! the personal vault and the organization, or twice in two folders; clones; the locked extension saving a known login
//! again; Android offering to save a login it just filled.
//! Guessed: the studio, its people, devices, rates and rhythms (Toronto, EDT; four friends in Europe); the mix of
//! clients; how often connections drop and people press Save again (4% of Android's creates resent by OkHttp, 1.2% of
//! the Chromium clients', 0.2% saved again by hand) and Chromium's resend timing; the import sizes and their pace; SSH
//! key items turned on for the developers; the shapes of items (how many have usernames, URIs, notes, fields, TOTP,
//! passkeys); iOS writing like Android (nulls left out, keys sorted, cipher keys on); Android's key order for cards,
//! identities, fields and password history; plaintext lengths behind the ciphertexts; the fates of duplicates; one key
//! rotation.
use std::collections::HashMap;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres, Engine::Sqlite];

/// MySQL/MariaDB: the 2018 rebuild, `type` renamed to `atype` in place, `favorite` dropped, three columns added, as
/// MariaDB 10.11 leaves it (`SHOW CREATE TABLE` after the migrations, run with FOREIGN_KEY_CHECKS off as Vaultwarden
/// runs them): MariaDB honours the column-level REFERENCES to `users` and `organizations`, and InnoDB indexes both
/// columns for them. The two foreign keys are left out (those tables are not here), their indexes kept.
const MYSQL: &str = "CREATE TABLE ciphers (
  uuid              CHAR(36) NOT NULL PRIMARY KEY,
  created_at        DATETIME NOT NULL,
  updated_at        DATETIME NOT NULL,
  user_uuid         CHAR(36),
  organization_uuid CHAR(36),
  atype             INTEGER  NOT NULL,
  name              TEXT     NOT NULL,
  notes             TEXT,
  fields            TEXT,
  data              TEXT     NOT NULL,
  password_history  TEXT,
  deleted_at        DATETIME,
  reprompt          INTEGER,
  `key`             TEXT,
  KEY user_uuid (user_uuid),
  KEY organization_uuid (organization_uuid)
)";

/// PostgreSQL: created in 2019 with CHAR(36) ids, changed to VARCHAR(40) the same week; the foreign keys to `users`
/// and `organizations` (`ciphers_user_uuid_fkey`, `ciphers_organization_uuid_fkey`, no index) left out.
const POSTGRES: &str = "CREATE TABLE ciphers (
  uuid              VARCHAR(40) NOT NULL PRIMARY KEY,
  created_at        TIMESTAMP NOT NULL,
  updated_at        TIMESTAMP NOT NULL,
  user_uuid         VARCHAR(40),
  organization_uuid VARCHAR(40),
  atype             INTEGER  NOT NULL,
  name              TEXT     NOT NULL,
  notes             TEXT,
  fields            TEXT,
  data              TEXT     NOT NULL,
  password_history  TEXT,
  deleted_at        TIMESTAMP,
  reprompt          INTEGER,
  \"key\"             TEXT
)";

/// SQLite: the table as the 2020 rebuild (`new_ciphers` renamed) and two ADD COLUMNs leave it in `sqlite_master`,
/// without the REFERENCES to `users` and `organizations`.
const SQLITE: &str = "CREATE TABLE \"ciphers\"(
  uuid              TEXT     NOT NULL PRIMARY KEY,
  created_at        DATETIME NOT NULL,
  updated_at        DATETIME NOT NULL,
  user_uuid         TEXT,
  organization_uuid TEXT,
  atype             INTEGER  NOT NULL,
  name              TEXT     NOT NULL,
  notes             TEXT,
  fields            TEXT,
  data              TEXT     NOT NULL,
  password_history  TEXT,
  deleted_at        DATETIME
, reprompt INTEGER, \"key\" TEXT)";

/// The table as Vaultwarden's Diesel migrations leave it on each engine: no index of its own besides the primary key
/// (on MariaDB, those its two foreign keys made).
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL,
        Engine::Postgres => POSTGRES,
        Engine::Sqlite => SQLITE,
    }
    .to_string()
}

const COLUMNS: &str = "uuid created_at updated_at user_uuid organization_uuid atype name notes fields data \
    password_history deleted_at reprompt key";

const NOW: i64 = T0;
const DAYS: i64 = 90;
/// Friday 2026-07-03.
const START: i64 = T0 - DAYS * DAY;
const EDT: i64 = -4 * HOUR;
const CEST: i64 = 2 * HOUR;
const USERS: usize = 46;
/// The studio's admin (also the family organization's owner).
const ADMIN: usize = 0;
/// Users 0-30 work at the studio (26-30 hired in the window), 31-33 are the admin's family, 34-45 his friends (42-45
/// in Europe).
const STAFF: usize = 31;
const FAMILY: usize = 34;
const EUROPE: usize = 42;
/// New accounts: (user, day of the window).
const JOINS: [(usize, i64); 7] = [(26, 9), (27, 23), (28, 37), (29, 58), (30, 76), (40, 15), (44, 64)];
/// The studio's organization and the family's.
const STUDIO: usize = 0;
const HOME_ORG: usize = 1;
/// Users whose locked browser extension offers to add a login they already have, and who accept (clients#5630).
const LOCKED: [usize; 2] = [17, 38];
/// A key rotation: (user, day, local time).
const ROTATION: (usize, i64, i64) = (7, 71, 14 * HOUR + 20 * MINUTE);
/// The first create after each of these (2026-09-30 10:00, 13:00 and 15:00 in Toronto) is sent twice.
const LATE: [i64; 3] = [NOW - 10 * HOUR, NOW - 7 * HOUR, NOW - 5 * HOUR];
/// Creates per local hour: at the office, and at home.
const OFFICE: [i64; 24] = [0, 0, 0, 0, 0, 0, 1, 3, 6, 10, 10, 9, 7, 8, 9, 8, 6, 4, 3, 3, 3, 2, 1, 0];
const HOME: [i64; 24] = [1, 0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 4, 5, 7, 8, 7, 5, 3];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Src {
    Chrome,
    Firefox,
    LastPass,
    Bitwarden,
    KeePass,
}

/// An import: (user, into the studio's organization, day, local minute of the day, source, items, the import it
/// repeats).
type Import = (usize, bool, i64, i64, Src, usize, Option<usize>);

#[rustfmt::skip]
const IMPORTS: [Import; 11] = [
    (12, false, 8, 20 * 60 + 40, Src::Chrome, 163, None),
    (26, false, 10, 10 * 60 + 5, Src::Chrome, 214, None),
    (40, false, 15, 20 * 60 + 10, Src::LastPass, 312, None),
    // Run again two minutes later: the list was filtered to a folder and showed nothing new.
    (40, false, 15, 20 * 60 + 12, Src::LastPass, 312, Some(2)),
    (27, false, 24, 13 * 60 + 30, Src::Bitwarden, 96, None),
    // The studio's KeePass database, into the organization on a Sunday.
    (ADMIN, true, 30, 10 * 60 + 15, Src::KeePass, 236, None),
    // 41 of the same logins, from her own copy of the file, into a designer's personal vault.
    (5, false, 33, 15 * 60 + 40, Src::KeePass, 41, Some(5)),
    (28, false, 38, 11 * 60, Src::Chrome, 143, None),
    // A fresh Chrome export imported again: the 163 logins once more and 14 new ones.
    (12, false, 50, 21 * 60 + 5, Src::Chrome, 177, Some(0)),
    (44, false, 64, 19 * 60 + 30, Src::LastPass, 187, None),
    (30, false, 77, 9 * 60 + 50, Src::Firefox, 88, None),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Client {
    Web,
    Ext,
    Desktop,
    Android,
    Ios,
}

const CLIENTS: [Client; 5] = [Client::Web, Client::Ext, Client::Desktop, Client::Android, Client::Ios];

/// How a client writes its JSON: TypeScript (every key, nulls too), Kotlin (nulls left out), Swift (nulls left out,
/// keys in alphabetical order).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Js,
    Kotlin,
    Swift,
}

impl Client {
    fn style(self) -> Style {
        match self {
            Client::Android => Style::Kotlin,
            Client::Ios => Style::Swift,
            _ => Style::Js,
        }
    }

    /// The mobile apps give every item a key of its own.
    fn keys(self) -> bool {
        matches!(self, Client::Android | Client::Ios)
    }
}

struct User {
    id: String,
    tz: i64,
    /// Interactive creates per weekday, and the factor on weekends.
    rate: f64,
    weekend: f64,
    join: i64,
    orgs: Vec<usize>,
    org_share: f64,
    /// Weights of `CLIENTS`.
    devices: [i64; 5],
    office: bool,
}

/// A vault item as the client holds it in plain text: the lengths behind its ciphertexts.
#[derive(Clone, Default)]
struct Item {
    atype: i32,
    name: usize,
    notes: Option<usize>,
    /// Custom fields: name, value, type (0 text, 1 hidden, 2 boolean).
    fields: Vec<(usize, usize, u8)>,
    username: Option<usize>,
    password: Option<usize>,
    uris: Vec<usize>,
    totp: Option<usize>,
    /// A passkey's creation time.
    passkey: Option<i64>,
    pw_rev: Option<i64>,
    /// Old passwords: length, last used.
    history: Vec<(usize, i64)>,
    /// A card's, an identity's or an SSH key's values.
    slots: Vec<Option<usize>>,
    reprompt: i32,
}

/// What the client sent: the ciphertexts and the JSON around them.
#[derive(Clone)]
struct Enc {
    name: String,
    notes: Option<String>,
    fields: Option<String>,
    data: String,
    history: Option<String>,
}

#[derive(Clone, Copy)]
enum Act {
    /// An edit from a client; a password change or not.
    Edit(Client, bool),
    Trash,
    Restore,
    Purge,
    Share(Client),
}

#[derive(Clone)]
struct Row {
    /// The intent: a retry's rows share their first attempt's.
    grp: usize,
    at: i64,
    upd: i64,
    user: usize,
    org: Option<usize>,
    item: Item,
    enc: Enc,
    key: Option<String>,
    client: Client,
    mark: Mark,
    /// Sent again by a person, re-encrypted.
    hidden: bool,
    deleted: Option<i64>,
    gone: bool,
    evs: Vec<(i64, Act)>,
}

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// `n` random bytes in padded standard base64.
fn b64(r: &mut Rng, n: usize) -> String {
    fn put(r: &mut Rng, s: &mut String, modulo: u64, step: u64) {
        s.push(B64[(r.below(modulo) * step) as usize] as char);
    }
    let mut s = String::with_capacity(n.div_ceil(3) * 4);
    for _ in 0..n / 3 {
        for _ in 0..4 {
            put(r, &mut s, 64, 1);
        }
    }
    match n % 3 {
        1 => {
            put(r, &mut s, 64, 1);
            put(r, &mut s, 4, 16);
            s.push_str("==");
        }
        2 => {
            put(r, &mut s, 64, 1);
            put(r, &mut s, 64, 1);
            put(r, &mut s, 16, 4);
            s.push('=');
        }
        _ => {}
    }
    s
}

/// An EncString of `n` bytes of plain text: AES-256-CBC with a fresh IV, PKCS#7 padding, HMAC-SHA256.
fn enc(r: &mut Rng, n: usize) -> String {
    let iv = b64(r, 16);
    let ct = b64(r, 16 * (n / 16 + 1));
    let mac = b64(r, 32);
    format!("2.{iv}|{ct}|{mac}")
}

fn quote(s: String) -> String {
    format!("\"{s}\"")
}

fn enc_q(r: &mut Rng, n: usize) -> String {
    quote(enc(r, n))
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ`, as JavaScript's `toISOString` writes a time.
fn iso(us: i64) -> String {
    let secs = us.div_euclid(SECOND);
    let ms = us.rem_euclid(SECOND) / 1_000;
    let (days, sod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z", sod / 3_600, sod % 3_600 / 60, sod % 60)
}

/// A JSON object as the client writes it; `kotlin` is Kotlin's key order where it differs from TypeScript's.
fn obj(style: Style, mut pairs: Vec<(&'static str, Option<String>)>, kotlin: &[&str]) -> String {
    match style {
        Style::Js => {}
        Style::Kotlin => pairs.sort_by_key(|p| kotlin.iter().position(|k| *k == p.0).unwrap_or(usize::MAX)),
        Style::Swift => pairs.sort_by(|a, b| a.0.cmp(b.0)),
    }
    let body: Vec<String> = pairs
        .into_iter()
        .filter_map(|(k, v)| match (v, style) {
            (Some(v), _) => Some(format!("\"{k}\":{v}")),
            (None, Style::Js) => Some(format!("\"{k}\":null")),
            (None, _) => None,
        })
        .collect();
    format!("{{{}}}", body.join(","))
}

const CARD: [&str; 6] = ["cardholderName", "brand", "number", "expMonth", "expYear", "code"];
#[rustfmt::skip]
const IDENTITY: [&str; 18] = [
    "title", "firstName", "middleName", "lastName", "address1", "address2", "address3", "city", "state", "postalCode",
    "country", "company", "email", "phone", "ssn", "username", "passportNumber", "licenseNumber",
];
const SSH: [&str; 3] = ["privateKey", "publicKey", "keyFingerprint"];

fn passkey(r: &mut Rng, created: i64, style: Style) -> String {
    #[rustfmt::skip]
    let lens: [(&'static str, i64, i64); 12] = [
        ("credentialId", 36, 36), ("keyType", 10, 10), ("keyAlgorithm", 5, 5), ("keyCurve", 5, 5),
        ("keyValue", 184, 184), ("rpId", 8, 22), ("userHandle", 22, 44), ("userName", 8, 30), ("counter", 1, 1),
        ("rpName", 4, 20), ("userDisplayName", 4, 24), ("discoverable", 4, 4),
    ];
    let mut pairs: Vec<(&'static str, Option<String>)> = lens
        .iter()
        .map(|&(k, lo, hi)| {
            let n = r.range(lo, hi) as usize;
            (k, Some(enc_q(r, n)))
        })
        .collect();
    pairs.push(("creationDate", Some(quote(iso(created)))));
    obj(style, pairs, &[])
}

fn login_data(r: &mut Rng, it: &Item, style: Style) -> String {
    let uris: Vec<String> = it
        .uris
        .iter()
        .map(|&n| {
            let pairs = vec![("uri", Some(enc_q(r, n))), ("uriChecksum", Some(enc_q(r, 44))), ("match", None)];
            obj(style, pairs, &["match", "uri", "uriChecksum"])
        })
        .collect();
    let uris = (style == Style::Js || !uris.is_empty()).then(|| format!("[{}]", uris.join(",")));
    let mut pairs = vec![
        ("uris", uris),
        ("username", it.username.map(|n| enc_q(r, n))),
        ("password", it.password.map(|n| enc_q(r, n))),
        ("passwordRevisionDate", it.pw_rev.map(|t| quote(iso(t)))),
        ("totp", it.totp.map(|n| enc_q(r, n))),
        ("autofillOnPageLoad", None),
    ];
    if let Some(t) = it.passkey {
        pairs.push(("fido2Credentials", Some(format!("[{}]", passkey(r, t, style)))));
    }
    let kotlin = ["uris", "totp", "password", "passwordRevisionDate", "autofillOnPageLoad", "uri", "username"];
    obj(style, pairs, &kotlin)
}

fn slots_data(r: &mut Rng, keys: &[&'static str], slots: &[Option<usize>], style: Style) -> String {
    let pairs = keys.iter().zip(slots).map(|(&k, &s)| (k, s.map(|n| enc_q(r, n)))).collect();
    obj(style, pairs, &[])
}

/// The client encrypts the item: every value gets a fresh IV.
fn encrypt(r: &mut Rng, it: &Item, style: Style) -> Enc {
    let name = enc(r, it.name);
    let notes = it.notes.map(|n| enc(r, n));
    let fields = (style != Style::Js || !it.fields.is_empty()).then(|| {
        let list: Vec<String> = it
            .fields
            .iter()
            .map(|&(n, v, kind)| {
                let (name, value) = (enc_q(r, n), enc_q(r, v));
                let pairs = vec![
                    ("name", Some(name)),
                    ("value", Some(value)),
                    ("type", Some(kind.to_string())),
                    ("linkedId", None),
                ];
                obj(style, pairs, &["linkedId", "name", "type", "value"])
            })
            .collect();
        format!("[{}]", list.join(","))
    });
    let data = match it.atype {
        1 => login_data(r, it, style),
        2 => "{\"type\":0}".to_string(),
        3 => slots_data(r, &CARD, &it.slots, style),
        4 => slots_data(r, &IDENTITY, &it.slots, style),
        _ => slots_data(r, &SSH, &it.slots, style),
    };
    let history = (!it.history.is_empty()).then(|| {
        let list: Vec<String> = it
            .history
            .iter()
            .map(|&(n, t)| {
                obj(style, vec![("password", Some(enc_q(r, n))), ("lastUsedDate", Some(quote(iso(t))))], &[])
            })
            .collect();
        format!("[{}]", list.join(","))
    });
    Enc { name, notes, fields, data, history }
}

fn opt(r: &mut Rng, p: f64, lo: i64, hi: i64) -> Option<usize> {
    if r.chance(p) { Some(r.range(lo, hi) as usize) } else { None }
}

fn custom_fields(r: &mut Rng, p: f64) -> Vec<(usize, usize, u8)> {
    if !r.chance(p) {
        return Vec::new();
    }
    (0..1 + r.below(3))
        .map(|_| {
            let kind = [0u8, 0, 0, 1, 1, 2][r.below(6) as usize];
            let value = if kind == 2 { r.range(4, 5) } else { r.range(3, 40) };
            (r.range(3, 16) as usize, value as usize, kind)
        })
        .collect()
}

fn uris(r: &mut Rng, weights: &[i64], lo: i64, hi: i64) -> Vec<usize> {
    (0..r.weighted(weights)).map(|_| r.range(lo, hi) as usize).collect()
}

fn login(r: &mut Rng) -> Item {
    Item {
        atype: 1,
        name: r.range(4, 28) as usize,
        notes: opt(r, 0.1, 8, 300),
        fields: custom_fields(r, 0.06),
        username: opt(r, 0.92, 5, 32),
        password: opt(r, 0.96, 10, 32),
        uris: uris(r, &[7, 85, 6, 2], 14, 70),
        totp: opt(r, 0.07, 32, 110),
        reprompt: i32::from(r.chance(0.02)),
        ..Item::default()
    }
}

fn note(r: &mut Rng) -> Item {
    Item { atype: 2, name: r.range(4, 30) as usize, notes: opt(r, 1.0, 20, 1_200), ..Item::default() }
}

fn card(r: &mut Rng) -> Item {
    let slots = vec![
        opt(r, 0.9, 8, 24),
        opt(r, 0.9, 4, 10),
        opt(r, 1.0, 15, 16),
        opt(r, 0.95, 1, 2),
        opt(r, 0.95, 4, 4),
        opt(r, 0.85, 3, 4),
    ];
    let reprompt = i32::from(r.chance(0.2));
    Item { atype: 3, name: r.range(6, 24) as usize, notes: opt(r, 0.05, 10, 80), slots, reprompt, ..Item::default() }
}

fn identity(r: &mut Rng) -> Item {
    #[rustfmt::skip]
    let fill: [(f64, i64, i64); 18] = [
        (0.3, 2, 4), (0.95, 3, 12), (0.1, 1, 10), (0.95, 3, 14), (0.6, 10, 30), (0.1, 3, 12), (0.0, 1, 1),
        (0.6, 4, 16), (0.55, 2, 16), (0.6, 5, 7), (0.55, 2, 13), (0.3, 4, 30), (0.8, 10, 32), (0.7, 10, 15),
        (0.15, 9, 11), (0.2, 4, 16), (0.15, 8, 9), (0.15, 8, 15),
    ];
    let slots = fill.iter().map(|&(p, lo, hi)| opt(r, p, lo, hi)).collect();
    Item { atype: 4, name: r.range(4, 24) as usize, notes: opt(r, 0.05, 10, 120), slots, ..Item::default() }
}

fn ssh(r: &mut Rng) -> Item {
    let private = if r.chance(0.8) { r.range(399, 411) } else { r.range(2_590, 2_610) };
    let slots = vec![Some(private as usize), Some(r.range(80, 110) as usize), Some(50)];
    Item { atype: 5, name: r.range(6, 24) as usize, slots, ..Item::default() }
}

/// An item in an import file, as the importer makes it.
fn imported(r: &mut Rng, src: Src) -> Item {
    match src {
        Src::Chrome | Src::Firefox => Item {
            atype: 1,
            name: r.range(6, 28) as usize,
            notes: if src == Src::Chrome { opt(r, 0.03, 5, 80) } else { None },
            username: opt(r, 0.95, 4, 34),
            password: opt(r, 0.99, 6, 24),
            uris: vec![r.range(15, 60) as usize],
            ..Item::default()
        },
        Src::LastPass => match r.weighted(&[82, 13, 3, 2]) {
            0 => Item {
                atype: 1,
                name: r.range(4, 30) as usize,
                notes: opt(r, 0.18, 5, 400),
                username: opt(r, 0.93, 4, 34),
                password: opt(r, 0.97, 6, 24),
                uris: uris(r, &[5, 95], 12, 80),
                totp: opt(r, 0.03, 16, 32),
                ..Item::default()
            },
            1 => Item { notes: opt(r, 1.0, 20, 2_000), ..note(r) },
            2 => card(r),
            _ => identity(r),
        },
        Src::Bitwarden => match r.weighted(&[80, 10, 6, 3, 1]) {
            0 => {
                let mut it = login(r);
                it.fields = custom_fields(r, 0.1);
                it.totp = opt(r, 0.1, 32, 110);
                it.notes = opt(r, 0.15, 8, 300);
                it.reprompt = i32::from(r.chance(0.04));
                if r.chance(0.15) {
                    let mut t = START - r.range(10, 300) * DAY + r.range(0, 86_399) * SECOND + micros(r);
                    it.pw_rev = Some(t + r.range(1, 40) * DAY);
                    for _ in 0..1 + r.below(5) {
                        it.history.push((r.range(8, 24) as usize, t));
                        t -= r.range(20, 400) * DAY + micros(r);
                    }
                }
                if r.chance(0.02) {
                    it.passkey = Some(START - r.range(30, 500) * DAY);
                }
                it
            }
            1 => note(r),
            2 => card(r),
            3 => identity(r),
            _ => ssh(r),
        },
        Src::KeePass => Item {
            atype: 1,
            name: r.range(4, 40) as usize,
            notes: opt(r, 0.35, 5, 500),
            fields: custom_fields(r, 0.15),
            username: opt(r, 0.9, 3, 30),
            password: opt(r, 0.98, 8, 40),
            uris: uris(r, &[20, 80], 12, 70),
            ..Item::default()
        },
    }
}

/// `updated_at` after the request's queries: one save, or two for an item made in an organization.
fn saved(r: &mut Rng, t: i64, org: bool) -> i64 {
    if org { t + r.range(6_000, 30_000) } else { t + r.range(700, 6_000) }
}

fn new_key(r: &mut Rng, client: Client) -> Option<String> {
    client.keys().then(|| enc(r, 64))
}

/// A row written for a request: every per-attempt value fresh.
fn row(r: &mut Rng, t: i64, user: usize, org: Option<usize>, item: Item, client: Client, mark: Mark) -> Row {
    let enc = encrypt(r, &item, client.style());
    let key = new_key(r, client);
    let upd = saved(r, t, org.is_some());
    let (hidden, deleted, gone, evs) = (false, None, false, Vec::new());
    Row { grp: 0, at: t, upd, user, org, item, enc, key, client, mark, hidden, deleted, gone, evs }
}

fn push(v: &mut Vec<Row>, mut x: Row) -> usize {
    x.grp = v.len();
    v.push(x);
    v.len() - 1
}

fn people(r: &mut Rng) -> Vec<User> {
    (0..USERS)
        .map(|u| {
            let staff = u < STAFF;
            let family = (STAFF..FAMILY).contains(&u);
            let join = JOINS.iter().find(|j| j.0 == u).map_or(0, |j| j.1);
            let phone = r.weighted(&[45, 40, 15]);
            let mut devices = [
                r.range(0, 2),
                if r.chance(0.88) { r.range(5, 10) } else { 0 },
                if staff && r.chance(0.3) { r.range(1, 4) } else { 0 },
                0,
                0,
            ];
            if phone < 2 {
                devices[3 + phone] = r.range(2, 7);
            }
            if devices.iter().sum::<i64>() == 0 {
                devices[0] = 3;
            }
            let x = r.unit();
            let (rate, weekend) = match u {
                ADMIN => (1.5, 0.3),
                _ if staff => (0.35 + 0.8 * x * x, 0.25),
                _ if family => (0.1 + 0.2 * x, 1.3),
                _ => (0.2 + 0.5 * x * x, 1.3),
            };
            let (orgs, org_share) = match u {
                ADMIN => (vec![STUDIO, HOME_ORG], 0.45),
                _ if staff => (vec![STUDIO], 0.3),
                _ if family => (vec![HOME_ORG], 0.25),
                _ => (Vec::new(), 0.0),
            };
            let tz = if u >= EUROPE { CEST } else { EDT };
            User { id: r.uuid(), tz, rate, weekend, join, orgs, org_share, devices, office: staff }
        })
        .collect()
}

/// A time on local day `d` at an hour drawn from `rhythm`, in UTC.
fn local(r: &mut Rng, d: i64, tz: i64, rhythm: &[i64; 24]) -> i64 {
    let h = r.weighted(rhythm) as i64;
    START + d * DAY - tz + h * HOUR + r.range(0, 3_599) * SECOND + micros(r)
}

/// Moved out of the night: people act when they are awake.
fn awake(t: i64, tz: i64) -> i64 {
    let h = (t + tz).rem_euclid(DAY) / HOUR;
    if h < 7 { t + (8 - h) * HOUR } else { t }
}

/// A delay drawn toward the short end: hours to weeks.
fn later(r: &mut Rng, max_days: i64) -> i64 {
    r.skewed((max_days * 24) as u64) as i64 * HOUR + r.range(0, 3_599) * SECOND + micros(r)
}

fn device(r: &mut Rng, user: &User) -> Client {
    CLIENTS[r.weighted(&user.devices)]
}

/// An import: the items one after another in one request.
fn import(r: &mut Rng, v: &mut Vec<Row>, users: &[User], files: &mut Vec<(Vec<Item>, Vec<usize>)>, i: usize) {
    let (u, to_org, day, minute, src, n, again) = IMPORTS[i];
    let user = &users[u];
    let mut items: Vec<(Item, Mark)> = match again {
        Some(j) if n >= files[j].0.len() => files[j].0.iter().map(|it| (it.clone(), Mark::Legit)).collect(),
        Some(j) => {
            // A part of the file, in its order.
            let mut pick: Vec<usize> = (0..files[j].0.len()).collect();
            for k in 0..n {
                let m = k + r.below((pick.len() - k) as u64) as usize;
                pick.swap(k, m);
            }
            let mut pick = pick[..n].to_vec();
            pick.sort_unstable();
            pick.iter().map(|&k| (files[j].0[k].clone(), Mark::Legit)).collect()
        }
        None => Vec::new(),
    };
    while items.len() < n {
        let it = imported(r, src);
        let at = if again.is_some() { r.below(items.len() as u64 + 1) as usize } else { items.len() };
        items.insert(at, (it, Mark::Plain));
    }
    let org = to_org.then_some(STUDIO);
    // Folders (or collections) first.
    let mut t = START + day * DAY - user.tz + minute * MINUTE + r.range(0, 59) * SECOND + r.range(5_000, 60_000);
    let mut ids = Vec::new();
    for (it, mark) in &items {
        let extra = if it.history.is_empty() { 0 } else { 2_000 } + if to_org { 3_000 } else { 0 };
        t += r.range(9_000, 32_000) + extra;
        let mut x = row(r, t, u, org, it.clone(), Client::Web, *mark);
        x.upd = t + r.range(500, 3_000) + extra;
        ids.push(push(v, x));
    }
    files.push((items.into_iter().map(|(it, _)| it).collect(), ids));
}

/// An interactive create and what its lost answers made: a resend of the same body by the transport, or the item sent
/// again by a person after an error, re-encrypted.
/// Says whether it made a `forced` resend (iOS's URLSession never resends a POST).
fn send(r: &mut Rng, v: &mut Vec<Row>, users: &[User], first: Row, forced: bool) -> bool {
    let i = push(v, first);
    let (at, client) = (v[i].at, v[i].client);
    let x = r.below(1_000);
    let resend = match client {
        Client::Android => 40,
        Client::Ios => 0,
        _ => 12,
    };
    let forced = forced && client != Client::Ios;
    let mut extra = Vec::new();
    if forced || x < resend {
        let delay = if client == Client::Android { r.range(250_000, 4_000_000) } else { r.range(20_000, 300_000) };
        let t = at + delay;
        let mut again = v[i].clone();
        (again.at, again.upd, again.mark) = (t, saved(r, t, again.org.is_some()), Mark::Plain);
        extra.push(again);
    } else if x < resend + 2 {
        // Android's 10 s read timeout, the proxy's 504 after 60 s, or a connection that failed at once; then the
        // person reads the error and presses Save again.
        let wait = match client {
            Client::Android => 10 * SECOND + r.range(2, 20) * SECOND,
            _ if r.chance(0.5) => 60 * SECOND + r.range(3, 40) * SECOND,
            _ => r.range(4, 30) * SECOND,
        };
        let mut t = at + wait + micros(r);
        for _ in 0..1 + usize::from(r.chance(0.2)) {
            let base = &v[i];
            let mut again = row(r, t, base.user, base.org, base.item.clone(), client, Mark::Plain);
            again.hidden = true;
            extra.push(again);
            t += r.range(10, 60) * SECOND + micros(r);
        }
    }
    if extra.is_empty() {
        return false;
    }
    let mut group = vec![i];
    for mut e in extra {
        e.grp = i;
        v.push(e);
        group.push(v.len() - 1);
    }
    // The next sync shows the copies: one goes to the trash (some then deleted for good), one is edited, or both stay.
    let last = v[group[group.len() - 1]].at;
    let tz = users[v[i].user].tz;
    let y = r.below(100);
    if y < 45 {
        let k = group[r.below(group.len() as u64) as usize];
        let t = awake(last + r.range(120, 3 * 86_400) * SECOND + micros(r), tz);
        v[k].evs.push((t, Act::Trash));
        if r.chance(0.35) {
            v[k].evs.push((t + later(r, 20) + HOUR, Act::Purge));
        }
    } else if y < 55 {
        let k = group[group.len() - 1];
        let by = device(r, &users[v[k].user]);
        v[k].evs.push((awake(last + later(r, 10) + MINUTE, tz), Act::Edit(by, r.chance(0.5))));
    }
    forced
}

/// One interactive create by user `u` at `t`: a new item, or a repeat of one they have.
/// Says whether it made a `forced` resend.
fn interactive(r: &mut Rng, v: &mut Vec<Row>, users: &[User], u: usize, t: i64, forced: bool) -> bool {
    let user = &users[u];
    let client = device(r, user);
    let org = (!user.orgs.is_empty() && r.chance(user.org_share))
        .then(|| user.orgs[r.below(user.orgs.len() as u64) as usize]);
    let mine: Vec<usize> = (0..v.len()).filter(|&k| v[k].user == u && v[k].grp == k && v[k].at < t - MINUTE).collect();
    let logins: Vec<usize> = mine.iter().copied().filter(|&k| v[k].item.atype == 1).collect();
    let x = r.below(1_000);
    if x < 6 {
        // The same login saved again elsewhere: into the organization after the personal vault, or into a second
        // folder; typed again, so encrypted again.
        let item = login(r);
        let first = row(r, t, u, None, item, client, Mark::Plain);
        let item = first.item.clone();
        let made = send(r, v, users, first, forced);
        let (dt, org) = if user.orgs.contains(&STUDIO) && r.chance(0.6) {
            (r.range(60, 1_200), Some(STUDIO))
        } else {
            (r.range(20, 240), None)
        };
        let at = t + dt * SECOND + micros(r);
        let twin = row(r, at, u, org, item, client, Mark::Legit);
        send(r, v, users, twin, false);
        return made;
    }
    if x < 16 && !mine.is_empty() && client != Client::Android {
        // A clone ("Clone" in the item's menu): the same item, " - Clone" after its name, where the original is.
        let src = &v[mine[r.below(mine.len() as u64) as usize]];
        let (mut item, org) = (src.item.clone(), src.org);
        item.name += 8;
        let clone = row(r, t, u, org, item, client, Mark::Legit);
        return send(r, v, users, clone, forced);
    }
    let again =
        (LOCKED.contains(&u) && client == Client::Ext && r.chance(0.3)) || (client == Client::Android && x < 46);
    if again && !logins.is_empty() {
        // The locked extension's "add login" (clients#5630) or Android's save offer for a login it just filled
        // (android#6410): a login the person has, saved again in their own vault.
        let mut item = v[logins[r.below(logins.len() as u64) as usize]].item.clone();
        (item.history, item.pw_rev, item.passkey) = (Vec::new(), None, None);
        (item.notes, item.fields, item.totp) = (None, Vec::new(), None);
        let re = row(r, t, u, None, item, client, Mark::Legit);
        return send(r, v, users, re, forced);
    }
    let browser = matches!(client, Client::Ext | Client::Android | Client::Ios);
    let mut item = match r.weighted(&[82, 9, 5, 3, 1]) {
        1 => note(r),
        2 => card(r),
        3 => identity(r),
        // SSH keys: the admin turned on the `ssh-key-vault-item` flag for the developers' desktop apps.
        4 if u < STAFF && matches!(client, Client::Desktop | Client::Web) => ssh(r),
        _ => login(r),
    };
    if browser && item.atype == 1 && r.chance(0.025) {
        // A passkey saved by the extension or the phone's credential manager.
        item.passkey = Some(t - r.range(200_000, 2_000_000));
    }
    let new = row(r, t, u, org, item, client, Mark::Plain);
    send(r, v, users, new, forced)
}

/// Edits, moves to the trash and into the organization, as people keep their items.
fn life(r: &mut Rng, x: &mut Row, user: &User) {
    let (at, tz) = (x.at, user.tz);
    let p = if x.item.atype == 1 { 0.11 } else { 0.05 };
    if r.chance(p) {
        let mut t = awake(at + later(r, 60) + 5 * MINUTE, tz);
        for _ in 0..1 + usize::from(r.chance(0.2)) {
            let pw = x.item.atype == 1 && x.item.password.is_some() && r.chance(0.6);
            x.evs.push((t, Act::Edit(device(r, user), pw)));
            t = awake(t + later(r, 30) + HOUR, tz);
        }
    }
    if r.chance(0.05) {
        let t = awake(at + later(r, 50) + 10 * MINUTE, tz);
        x.evs.push((t, Act::Trash));
        if r.chance(0.3) {
            x.evs.push((awake(t + later(r, 30) + HOUR, tz), Act::Purge));
        } else if r.chance(0.12) {
            x.evs.push((awake(t + later(r, 5) + MINUTE, tz), Act::Restore));
        }
    }
    if x.org.is_none() && user.orgs.contains(&STUDIO) && x.item.atype == 1 && r.chance(0.02) {
        let by = if r.chance(0.7) { Client::Web } else { Client::Ext };
        x.evs.push((awake(at + later(r, 30) + HOUR, tz), Act::Share(by)));
    }
}

/// The duplicates of an import run twice, cleared by hand: `share` of the rows moved to the trash (twelve
/// milliseconds apart, as the bulk delete saves them), then deleted for good.
fn sweep(r: &mut Rng, v: &mut [Row], rows: &[usize], share: f64, (trash, purge): (i64, i64)) {
    let (mut t1, mut t2) = (trash, purge);
    for &k in rows {
        if r.chance(share) {
            t1 += r.range(8_000, 16_000);
            t2 += r.range(5_000, 12_000);
            v[k].evs.push((t1, Act::Trash));
            v[k].evs.push((t2, Act::Purge));
        }
    }
}

fn rekey(r: &mut Rng, key: &Option<String>, client: Client) -> Option<String> {
    match (key, client.keys()) {
        // The SDK keeps the wrapped key; the web clients unwrap it and wrap it again.
        (Some(k), true) => Some(k.clone()),
        (Some(_), false) | (None, true) => Some(enc(r, 64)),
        (None, false) => None,
    }
}

fn apply(r: &mut Rng, x: &mut Row, t: i64, act: Act) {
    match act {
        Act::Edit(client, pw) => {
            if x.deleted.is_some() {
                return;
            }
            if pw {
                let old = x.item.password.unwrap_or(12);
                x.item.history.insert(0, (old, t));
                x.item.history.truncate(5);
                x.item.password = Some(r.range(14, 32) as usize);
                x.item.pw_rev = Some(t);
            } else {
                match r.below(10) {
                    0..=4 => x.item.notes = Some(r.range(10, 400) as usize),
                    5..=7 => x.item.name = r.range(4, 28) as usize,
                    _ if x.item.atype == 1 => x.item.uris.push(r.range(14, 70) as usize),
                    _ => x.item.notes = Some(r.range(10, 400) as usize),
                }
            }
            x.enc = encrypt(r, &x.item, client.style());
            x.key = rekey(r, &x.key, client);
            x.upd = t + r.range(800, 6_000);
        }
        Act::Trash if x.deleted.is_none() => {
            x.deleted = Some(t);
            x.upd = t + r.range(300, 4_000);
        }
        Act::Restore if x.deleted.is_some() => {
            x.deleted = None;
            x.upd = t + r.range(300, 4_000);
        }
        Act::Purge if x.deleted.is_some() => x.gone = true,
        Act::Share(client) if x.org.is_none() && x.deleted.is_none() => {
            // Re-encrypted with the organization's key; a key of its own is wrapped with it.
            x.enc = encrypt(r, &x.item, client.style());
            x.key = if x.key.is_some() || client.keys() { Some(enc(r, 64)) } else { None };
            x.org = Some(STUDIO);
            x.upd = t + r.range(5_000, 30_000);
        }
        _ => {}
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x7A0_17EA);
    let users = people(&mut r);
    let orgs = [r.uuid(), r.uuid()];
    let mut v: Vec<Row> = Vec::new();
    let mut files: Vec<(Vec<Item>, Vec<usize>)> = Vec::new();
    for i in 0..IMPORTS.len() {
        import(&mut r, &mut v, &users, &mut files, i);
    }

    let mut late = [false; 3];
    for d in 0..DAYS {
        let weekday = (4 + d) % 7 < 5;
        for (u, user) in users.iter().enumerate() {
            if d < user.join {
                continue;
            }
            let mut mean = if weekday { user.rate } else { user.rate * user.weekend };
            if user.join > 0 && d < user.join + 7 {
                // Setting up a new vault.
                mean *= 3.0;
            }
            let rhythm = if user.office && weekday { &OFFICE } else { &HOME };
            for _ in 0..r.poisson(mean) {
                let t = local(&mut r, d, user.tz, rhythm);
                if t >= NOW - MINUTE {
                    continue;
                }
                let slot = LATE.iter().position(|&l| t > l && t < l + 2 * HOUR).filter(|&s| !late[s]);
                if interactive(&mut r, &mut v, &users, u, t, slot.is_some())
                    && let Some(s) = slot
                {
                    late[s] = true;
                }
            }
        }
    }

    // User 40 deletes most of the second LastPass copy two days later (its folders were made twice, #4691) and empties
    // them from the trash a week after; user 12 deletes 70 of the doubled Chrome logins, either copy.
    let tz40 = users[40].tz;
    let second: Vec<usize> = files[3].1.clone();
    let (t1, t2) = (START + 17 * DAY - tz40 + 21 * HOUR + 4 * MINUTE, START + 25 * DAY - tz40 + 20 * HOUR);
    sweep(&mut r, &mut v, &second, 0.6, (t1, t2));
    let tz12 = users[12].tz;
    // The repeated logins of the second Chrome import are the first import's, in the file's order.
    let repeats: Vec<usize> = files[8].1.iter().copied().filter(|&k| v[k].mark == Mark::Legit).collect();
    let mut chosen = Vec::new();
    for (&new, &old) in repeats.iter().zip(&files[0].1) {
        if chosen.len() < 70 && r.chance(0.45) {
            chosen.push(if r.chance(0.5) { new } else { old });
        }
    }
    let (t1, t2) = (START + 52 * DAY - tz12 + 20 * HOUR + 30 * MINUTE, START + 60 * DAY - tz12 + 19 * HOUR);
    sweep(&mut r, &mut v, &chosen, 1.0, (t1, t2));

    for (k, x) in v.iter_mut().enumerate() {
        if x.grp == k {
            life(&mut r, x, &users[x.user]);
        }
    }

    v.retain(|x| x.at < NOW - SECOND);
    v.sort_by_key(|x| x.at);
    // Events in time order; the key rotation re-encrypts the user's personal items as one request.
    let (ru, rd, rt) = ROTATION;
    let rotation = START + rd * DAY - users[ru].tz + rt;
    let mut evs: Vec<(i64, usize, usize)> = Vec::new();
    for (k, x) in v.iter().enumerate() {
        evs.extend(x.evs.iter().enumerate().filter(|(_, e)| e.0 > x.at && e.0 < NOW).map(|(j, e)| (e.0, k, j)));
    }
    evs.push((rotation, usize::MAX, 0));
    evs.sort_unstable();
    for (t, k, j) in evs {
        if k == usize::MAX {
            let mut at = t + r.range(200_000, 900_000);
            for x in v.iter_mut().filter(|x| x.user == ru && x.org.is_none() && !x.gone && x.at < t) {
                at += r.range(4_000, 15_000);
                x.enc = encrypt(&mut r, &x.item, Style::Js);
                x.key = x.key.as_ref().map(|_| enc(&mut r, 64));
                x.upd = at + r.range(700, 4_000);
            }
            continue;
        }
        if v[k].gone {
            continue;
        }
        let act = v[k].evs[j].1;
        apply(&mut r, &mut v[k], t, act);
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("ciphers", &columns);
    // The first row of each intent still in the table.
    let mut present: HashMap<usize, usize> = HashMap::new();
    for (k, x) in v.iter().enumerate().filter(|(_, x)| !x.gone) {
        let id = r.uuid();
        let first = *present.entry(x.grp).or_insert(k);
        let mark = if first == k { x.mark } else { Mark::Retry };
        f.push(&[
            ("uuid", V::t(&id)),
            ("created_at", V::At(x.at)),
            ("updated_at", V::At(x.upd)),
            ("user_uuid", if x.org.is_some() { V::Null } else { V::t(&users[x.user].id) }),
            ("organization_uuid", x.org.map_or(V::Null, |o| V::t(&orgs[o]))),
            ("atype", V::I(i64::from(x.item.atype))),
            ("name", V::t(&x.enc.name)),
            ("notes", V::opt_t(x.enc.notes.as_deref())),
            ("fields", V::opt_t(x.enc.fields.as_deref())),
            ("data", V::t(&x.enc.data)),
            ("password_history", V::opt_t(x.enc.history.as_deref())),
            ("deleted_at", x.deleted.map_or(V::Null, V::At)),
            ("reprompt", V::I(i64::from(x.item.reprompt))),
            ("key", V::opt_t(x.key.as_deref())),
        ]);
        f.mark(&id, mark);
        if mark == Mark::Retry && (x.hidden || v[first].enc.name != x.enc.name) {
            // Pressed Save again after an error, or one of the two edited since: encrypted again, the row reads as a
            // login typed in twice.
            f.hidden.insert(id);
        }
    }
    f
}
