//! Immich (TypeScript, NestJS with Kysely migrations; PostgreSQL only): `asset` (`assets` before v1.136), as a fresh
//! v2.7.5 install leaves it, filled the way a family server's clients write it: two iPhones and a Pixel backing up
//! with the mobile app (`POST /assets` from the foreground uploader and the background upload tasks), the web
//! uploader, a one-off CLI bulk upload (`immich upload`), two external libraries scanned nightly, and the Android
//! motion photo videos the metadata job extracts; then as the server's jobs and the family change the rows; six weeks
//! (2026-08-21 to 2026-09-30), 2,799 rows.
//! Read: immich-app/immich at v2.7.5 (95e57a24c, the newest release, read in a fork's mirror of upstream history; main
//! after it, 9263e2f2e, drops `deviceAssetId` and `deviceId` in 1776263790468, unreleased):
//! server/src/schema/migrations/1744910873969-InitialMigration.ts, 1745902563899-AddAssetVisibilityColumn,
//! 1746636476623-DropExtraIndexes, 1746844028242-AddLockedVisibilityEnum, 1752267649968-StandardizeNames (the table,
//! constraint and index renames), 1764698859174-SidecarInAssetFile, 1768336661963-AddAssetWidthHeight,
//! 1768587436457-AddEditCountToAsset, 1768757482271-SwitchToIsEdited, 1771478781948-PeopleSearchIndex,
//! 1773242919341-EncodedVideoAssetFiles, 1774548649115-AddChecksumAlgorithm; server/src/schema/tables/asset.table.ts,
//! schema/enums.ts, schema/functions.ts (`updated_at`, `immich_uuid_v7`, `f_unaccent`), enum.ts, config.ts (defaults:
//! storage template off, trash 30 days, duplicate detection on), constants.ts, utils/database.ts;
//! controllers/asset-media.controller.ts, middleware/asset-upload.interceptor.ts (the `x-immich-checksum` check),
//! middleware/file-upload.interceptor.ts (the upload's uuid, the sha1 of the bytes received),
//! services/asset-media.service.ts (`uploadAsset`, `create`, `handleUploadError`, `bulkUploadCheck`,
//! `replaceAsset`/`createCopy`), dtos/asset-media.dto.ts, repositories/asset.repository.ts (`create`, `createAll`,
//! `getUploadAssetIdByChecksum`), utils/asset.util.ts (`onBeforeLink`), cores/storage.core.ts (`getNestedFolder`,
//! `getAndroidMotionPath`), services/storage.service.ts (media location /data), services/metadata.service.ts
//! (`handleMetadataExtraction`, `getDates`, `getDuration`, `linkLivePhotos`, `applyMotionPhotos`),
//! services/media.service.ts (`handleGenerateThumbnails`: the thumbhash, skipped for hidden assets),
//! services/job.service.ts (the job chain), services/duplicate.service.ts (`handleSearchDuplicates`,
//! `updateDuplicates`, `resolve`), services/asset.service.ts (`deleteAll`, `handleAssetDeletionCheck`),
//! repositories/trash.repository.ts, repositories/asset-job.repository.ts (`streamForDeletedJob`),
//! services/library.service.ts (`handleSyncFiles`, `processEntity`, the offline check); mobile/lib/services/
//! foreground_upload.service.dart, background_upload.service.dart (`buildUploadTask`: `retries: 3`, a live photo as two
//! tasks), repositories/upload.repository.dart, providers/auth.provider.dart (`FlutterUdid.consistentUdid`);
//! web/src/lib/utils/file-uploader.ts; cli/src/commands/asset.ts. Issues #29542/#29543 (iOS hands over a new rendition
//! of some assets each time, so they are uploaded again every backup cycle), #15051, #14483, #12909, #30374.
//! On a create (`AssetMediaService.create`, one INSERT through Kysely): `id` uuid_generate_v4() (the column default);
//! `ownerId` the caller; `libraryId` NULL; `checksum` the sha1 of the bytes received, `checksumAlgorithm` 'sha1';
//! `originalPath` /data/upload/<owner>/<u[0:2]>/<u[2:4]>/<u><the filename's extension>, u a new randomUUID per request;
//! `deviceAssetId`, `deviceId`, `fileCreatedAt`, `fileModifiedAt` as sent (JS Dates: milliseconds), `localDateTime` =
//! `fileCreatedAt`; `type` from the extension; `isFavorite` as sent; `duration` as sent or NULL; `visibility` as sent,
//! else 'timeline'; `livePhotoVideoId` as sent (an iOS live photo's still, sent after its .MOV, which `onBeforeLink`
//! hides); `originalFileName` the filename; `createdAt` = `updatedAt` = now(); `updateId` immich_uuid_v7(); `status`
//! 'active'; the rest their defaults. The app sends the local id (the PHAsset localIdentifier, the MediaStore id), its
//! consistentUdid (64 hex), the asset's creation and modification dates, `isFavorite` and `duration` ('0' from the
//! background tasks); the web `web-<name>-<lastModified>`, 'WEB', lastModified twice, '0:00:00.000000'; the CLI
//! `<basename>-<size>`, 'CLI', the mtime twice, no duration. A library scan inserts each batch of new paths in one
//! statement (one `createdAt` for the batch): `checksum` sha1('path:' + path) with 'sha1-path', `deviceAssetId` the
//! basename without whitespace, `deviceId` 'Library Import', the mtime as the three dates, `isExternal` true. The
//! metadata job of an Android motion photo inserts its video: 'NONE' twice, an id the app mints,
//! /data/encoded-video/<owner>/../<id>-MP.mp4, hidden (the one place rows are not in `createdAt` order here: that video
//! goes just before the photo whose `livePhotoVideoId` points at it, for the self-reference).
//! A duplicate checksum: `x-immich-checksum` (the interceptor) or the client's bulk-upload-check answers before the
//! upload; else the unique index `UQ_assets_owner_checksum` (ownerId, checksum) WHERE libraryId IS NULL refuses the
//! INSERT and `handleUploadError` answers 200 DUPLICATE with the existing id (for libraries
//! `asset_ownerId_libraryId_checksum_idx`); trashed rows count too. So any retry sending the same bytes (the background
//! task's `retries: 3`, the CLI queue's `retry: 3`, a re-dropped file on the web, foreground and background uploading
//! one asset at once, the Android app's endless re-uploads of #30374, a rescan) makes no row.
//! Later: the metadata job (seconds later; minutes for a big import) sets `fileCreatedAt` (EXIF DateTimeOriginal, else
//! the earliest of the sent date and the mtime), `localDateTime` (the wall clock as UTC), `fileModifiedAt` (the mtime
//! the upload set from the sent date), `duration` ('hh:mm:ss.SSS' for videos, NULL for images), `width`/`height`, and
//! links live photos again; the thumbnail job sets `thumbhash` (not for hidden videos); duplicate detection (CLIP,
//! 0.01) puts near-identical assets of one owner under one `duplicateId`; people favourite, archive, lock, stack bursts
//! (`stackId`), trash (`deletedAt`, 'trashed'), empty the trash, resolve duplicates (the kept one loses its
//! `duplicateId`, the others are trashed); the nightly job deletes rows 30 days in the trash (or offline); a library
//! scan marks a vanished path `isOffline` with `deletedAt`. Every update bumps `updatedAt` (clock_timestamp) and
//! `updateId` (v7 of it) by trigger. Rows created in the last seconds still have what the upload sent.
//! Retries (only what the index lets through; 51 rows, about 2% of the iPhones' stills and videos): some iOS assets
//! (HEIC/ProRAW stills, Dolby Vision videos, iCloud-optimised originals) come out of `originFile` as a different
//! rendition every time (same length or downscaled, new sha1: #29542), and since the local checksum never matches the
//! server's the asset stays a backup candidate: the foreground uploader and a background task on it at once (40 ms to
//! 1.5 s apart), the pass after an upload whose response was lost (10-60 s), then each later backup cycle (the app
//! opened, the nightly background task), up to six copies, until someone notices. A live photo's copies point at the
//! same .MOV (its bytes repeat, so it came back DUPLICATE). Copies share all the app sends; duplicate detection groups
//! most with the first; half the groups are resolved days later (the first kept, mostly). Where iOS bumped the asset's
//! modification date between cycles (its analysis, a favourite on the phone) the copy carries the new date and looks
//! like an edited copy: hidden (15). Three land in the last day.
//! Legitimate repeats (154): an iPhone photo edited after its backup, uploaded again (same local id, name and capture
//! time; the edit's modification date, new bytes, maybe cropped); a folder renamed on the NAS, imported again under
//! the new paths by the next scan (the old rows go offline); the mother's library over the NAS's Family folder,
//! importing the same files as the father's (her owner and library). Plain near-repeats: live photo pairs, bursts (some
//! stacked), Pixel motion photos and their videos, the 2016 photos both in the CLI upload and on the NAS (grouped as
//! duplicates, the NAS side trashed), screenshots, WhatsApp pictures, scans.
//! Guessed: the family, devices, rhythms and counts; the rendition bug's rate and the cycles' timing; the dates the
//! iPhone, Pixel and camera files carry (zones, precision) and what the metadata job makes of PNGs and of a motion
//! photo's video; the NAS layout and habits; job delays; thumbhash lengths.
use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, secs};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as a fresh v2.7.5 install leaves it after its Kysely migrations (columns dropped and appended in their
/// order), with the functions and types it needs, its self-reference (the live photo's video) but not the foreign keys
/// to `user`, `library` and `stack`, and not the delete-audit trigger (it writes `asset_audit`). Where the server
/// cannot load uuid-ossp's library (the PostgreSQL 18 binaries the matrix runs), a `uuid_generate_v4()` over
/// `gen_random_uuid()` stands in: the rows bring their own ids.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS "uuid-ossp"; EXCEPTION WHEN OTHERS THEN CREATE OR REPLACE FUNCTION uuid_generate_v4() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()'; END $$;
CREATE EXTENSION IF NOT EXISTS "unaccent";
CREATE EXTENSION IF NOT EXISTS "pg_trgm";
CREATE OR REPLACE FUNCTION immich_uuid_v7(p_timestamp timestamp with time zone default clock_timestamp())
  RETURNS uuid
  VOLATILE LANGUAGE SQL
  AS $$
    select encode(
      set_bit(
        set_bit(
          overlay(uuid_send(gen_random_uuid())
                  placing substring(int8send(floor(extract(epoch from p_timestamp) * 1000)::bigint) from 3)
                  from 1 for 6
          ),
          52, 1
        ),
        53, 1
      ),
      'hex')::uuid;
  $$;
CREATE OR REPLACE FUNCTION updated_at()
  RETURNS TRIGGER
  LANGUAGE PLPGSQL
  AS $$
    DECLARE
        clock_timestamp TIMESTAMP := clock_timestamp();
    BEGIN
        new."updatedAt" = clock_timestamp;
        new."updateId" = immich_uuid_v7(clock_timestamp);
        return new;
    END;
  $$;
CREATE OR REPLACE FUNCTION f_unaccent(text)
  RETURNS text
  PARALLEL SAFE STRICT IMMUTABLE LANGUAGE SQL
    RETURN unaccent('unaccent', $1);
CREATE TYPE "assets_status_enum" AS ENUM ('active','trashed','deleted');
CREATE TYPE "asset_visibility_enum" AS ENUM ('archive','timeline','hidden','locked');
CREATE TYPE "asset_checksum_algorithm_enum" AS ENUM ('sha1','sha1-path');
CREATE TABLE "asset" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "deviceAssetId" character varying NOT NULL,
  "ownerId" uuid NOT NULL, "deviceId" character varying NOT NULL, "type" character varying NOT NULL,
  "originalPath" character varying NOT NULL, "fileCreatedAt" timestamp with time zone NOT NULL,
  "fileModifiedAt" timestamp with time zone NOT NULL, "isFavorite" boolean NOT NULL DEFAULT false,
  "duration" character varying, "checksum" bytea NOT NULL, "livePhotoVideoId" uuid,
  "updatedAt" timestamp with time zone NOT NULL DEFAULT now(), "createdAt" timestamp with time zone NOT NULL DEFAULT now(),
  "originalFileName" character varying NOT NULL, "thumbhash" bytea, "isOffline" boolean NOT NULL DEFAULT false,
  "libraryId" uuid, "isExternal" boolean NOT NULL DEFAULT false, "deletedAt" timestamp with time zone,
  "localDateTime" timestamp with time zone NOT NULL, "stackId" uuid, "duplicateId" uuid,
  "status" assets_status_enum NOT NULL DEFAULT 'active', "updateId" uuid NOT NULL DEFAULT immich_uuid_v7(),
  "visibility" asset_visibility_enum NOT NULL DEFAULT 'timeline', "width" integer, "height" integer,
  "isEdited" boolean NOT NULL DEFAULT false, "checksumAlgorithm" asset_checksum_algorithm_enum NOT NULL);
ALTER TABLE "asset" ADD CONSTRAINT "asset_pkey" PRIMARY KEY ("id");
ALTER TABLE "asset" ADD CONSTRAINT "asset_livePhotoVideoId_fkey" FOREIGN KEY ("livePhotoVideoId") REFERENCES "asset" ("id") ON UPDATE CASCADE ON DELETE SET NULL;
CREATE INDEX "asset_originalFilename_trigram_idx" ON "asset" USING gin (f_unaccent("originalFileName") gin_trgm_ops);
CREATE INDEX "asset_id_stackId_idx" ON "asset" ("id", "stackId");
CREATE INDEX "asset_originalPath_libraryId_idx" ON "asset" ("originalPath", "libraryId");
CREATE INDEX "asset_localDateTime_month_idx" ON "asset" ((date_trunc('MONTH'::text, ("localDateTime" AT TIME ZONE 'UTC'::text)) AT TIME ZONE 'UTC'::text));
CREATE INDEX "asset_localDateTime_idx" ON "asset" ((("localDateTime" at time zone 'UTC')::date));
CREATE UNIQUE INDEX "asset_ownerId_libraryId_checksum_idx" ON "asset" ("ownerId", "libraryId", "checksum") WHERE ("libraryId" IS NOT NULL);
CREATE UNIQUE INDEX "UQ_assets_owner_checksum" ON "asset" ("ownerId", "checksum") WHERE ("libraryId" IS NULL);
CREATE INDEX "asset_ownerId_idx" ON "asset" ("ownerId");
CREATE INDEX "asset_fileCreatedAt_idx" ON "asset" ("fileCreatedAt");
CREATE INDEX "asset_checksum_idx" ON "asset" ("checksum");
CREATE INDEX "asset_livePhotoVideoId_idx" ON "asset" ("livePhotoVideoId");
CREATE INDEX "asset_originalFileName_idx" ON "asset" ("originalFileName");
CREATE INDEX "asset_libraryId_idx" ON "asset" ("libraryId");
CREATE INDEX "asset_stackId_idx" ON "asset" ("stackId");
CREATE INDEX "asset_duplicateId_idx" ON "asset" ("duplicateId");
CREATE INDEX "asset_updateId_idx" ON "asset" ("updateId");
CREATE INDEX "asset_id_timeline_notDeleted_idx" ON "asset" ("id") WHERE visibility = 'timeline' AND "deletedAt" IS NULL;
CREATE OR REPLACE TRIGGER "asset_updatedAt"
  BEFORE UPDATE ON "asset"
  FOR EACH ROW
  EXECUTE FUNCTION updated_at()"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Immich runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id deviceAssetId ownerId deviceId type originalPath fileCreatedAt fileModifiedAt isFavorite \
    duration checksum livePhotoVideoId updatedAt createdAt originalFileName thumbhash isOffline libraryId isExternal \
    deletedAt localDateTime stackId duplicateId status updateId visibility width height isEdited checksumAlgorithm";

const NOW: i64 = T0;
const START: i64 = T0 - 40 * DAY;
/// The family lives in Central European Summer Time: the wall clock is UTC + 2 h.
const TZ: i64 = 2 * HOUR;
const DAD: usize = 0;
const MOM: usize = 1;
const TEEN: usize = 2;
const GRAN: usize = 3;
/// The libraries: the father's over the whole NAS share, the mother's over its Family folder.
const NAS: usize = 0;
const FAMILY: usize = 1;
/// The first iPhone upload after each of these goes through the rendition bug.
const LATE: [i64; 3] = [NOW - 22 * HOUR, NOW - 16 * HOUR, NOW - 11 * HOUR];
/// Photos taken per hour of the local day (relative).
const SHOOT: [i64; 24] = [1, 0, 0, 0, 0, 0, 1, 3, 5, 6, 7, 8, 9, 8, 8, 8, 9, 10, 10, 9, 7, 5, 3, 2];
/// The app opened per hour of the local day (relative).
const OPEN: [i64; 24] = [1, 0, 0, 0, 0, 0, 1, 4, 5, 4, 3, 3, 5, 4, 3, 3, 4, 5, 6, 7, 8, 7, 5, 2];
#[rustfmt::skip]
const EVENTS: [&str; 16] = [
    "Geburtstag", "Ostsee", "Wanderung Harz", "Hochzeit", "Zoo", "Grillen", "Konzert", "Weihnachten", "Ostern",
    "Radtour", "Stadtfest", "Kanu", "Skiurlaub", "Einschulung", "Herbstferien", "Garten",
];

/// An iPhone: its owner, how often it takes pictures, and how the rendition bug and edits touch it.
struct Phone {
    user: usize,
    moments: f64,
    live: f64,
    big: bool,
    affected: f64,
    edits: f64,
    bursts: f64,
    first: i64,
}

const PHONES: [Phone; 2] = [
    Phone { user: DAD, moments: 1.9, live: 0.7, big: true, affected: 0.03, edits: 0.03, bursts: 0.08, first: 4_211 },
    Phone { user: MOM, moments: 2.4, live: 0.8, big: false, affected: 0.05, edits: 0.05, bursts: 0.0, first: 9_694 },
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shot {
    Photo,
    Live,
    Video,
    Screen,
}

/// A picture on a phone: when it was taken and what the photo library says of it.
#[derive(Clone)]
struct Take {
    at: i64,
    modified: i64,
    kind: Shot,
    name: String,
    local_id: String,
    wh: (i64, i64),
    msecs: i64,
    fav: bool,
    burst: Option<usize>,
}

/// A row as the server wrote it, and what happened to it later.
#[derive(Clone, Default)]
struct Row {
    id: String,
    at: i64,
    /// Where the row sits in insert order (its `createdAt`, but an Android motion video just before its photo, which
    /// references it).
    order: i64,
    owner: usize,
    dev_asset: String,
    device: String,
    video: bool,
    path: String,
    name: String,
    /// `fileCreatedAt` as sent, then as the metadata job set it.
    sent: i64,
    exif: i64,
    modified: i64,
    local: i64,
    dur_sent: Option<String>,
    dur: Option<String>,
    fav: bool,
    sum: String,
    live: Option<String>,
    lib: Option<usize>,
    vis: &'static str,
    wh: Option<(i64, i64)>,
    thumb: Option<String>,
    /// When the metadata job ran.
    meta: i64,
    dup: Option<usize>,
    stack: Option<usize>,
    deleted: Option<i64>,
    status: &'static str,
    offline: bool,
    updated: i64,
    gone: bool,
    screen: bool,
    mark: Mark,
    /// The rows of one intent: an asset and its retry copies, or an asset and its legitimate repeats.
    grp: Option<usize>,
}

struct Ctx {
    r: Rng,
    v: Vec<Row>,
    users: Vec<String>,
    groups: usize,
    dups: Vec<String>,
    stacks: Vec<String>,
    late: usize,
}

impl Ctx {
    fn group(&mut self) -> usize {
        self.groups += 1;
        self.groups
    }

    /// `getNestedFolder(Upload, owner, uuid)` and the file's extension.
    fn upload_path(&mut self, owner: usize, ext: &str) -> String {
        let u = self.r.uuid();
        format!("/data/upload/{}/{}/{}/{u}{ext}", self.users[owner], &u[..2], &u[2..4])
    }

    fn thumb(&mut self) -> String {
        let n = 46 + 2 * self.r.below(3) as usize;
        self.r.hex(n)
    }

    fn push(&mut self, row: Row) -> usize {
        self.v.push(row);
        self.v.len() - 1
    }

    /// An update of the row at `t` (the trigger's clock_timestamp), if it happened before the end.
    fn touch(&mut self, i: usize, t: i64) {
        if t < NOW && t > self.v[i].updated {
            self.v[i].updated = t;
        }
    }

    fn rand_us(&mut self, lo_ms: i64, hi_ms: i64) -> i64 {
        self.r.range(lo_ms, hi_ms) * 1_000 + self.r.below(1_000) as i64
    }

    /// Duplicate detection putting these rows under one `duplicateId` at `t`.
    fn dup_join(&mut self, members: &[usize], t: i64) {
        if t >= NOW || members.iter().any(|&i| self.v[i].deleted.is_some_and(|d| d <= t)) {
            return;
        }
        let g = match members.iter().find_map(|&i| self.v[i].dup) {
            Some(g) => g,
            None => {
                let u = self.r.uuid();
                self.dups.push(u);
                self.dups.len() - 1
            }
        };
        for &i in members {
            if self.v[i].dup != Some(g) {
                self.v[i].dup = Some(g);
                let at = t + self.rand_us(0, 40);
                self.touch(i, at);
            }
        }
    }

    /// Moving rows to the trash (`deleteAll`, or the duplicate resolution that also clears `duplicateId`).
    fn trash(&mut self, i: usize, t: i64) {
        if t >= NOW || self.v[i].deleted.is_some() {
            return;
        }
        let x = &mut self.v[i];
        (x.deleted, x.status, x.dup) = (Some(ms(t)), "trashed", None);
        let at = t + self.rand_us(1, 30);
        self.touch(i, at);
    }
}

fn ms(us: i64) -> i64 {
    us - us.rem_euclid(1_000)
}

fn weekend(us: i64) -> bool {
    ((us + TZ).div_euclid(DAY) + 3) % 7 >= 5
}

/// Local midnight of the day `k` of the window, in UTC.
fn local_day(k: i64) -> i64 {
    START + k * DAY - TZ
}

/// About `mean` events.
fn count(r: &mut Rng, mean: f64) -> usize {
    let n = (mean * 4.0).ceil() as usize;
    (0..n).filter(|_| r.chance(mean / n as f64)).count()
}

/// A time in the hour `weights` picks of a local day.
fn at_hour(r: &mut Rng, d: i64, weights: &[i64]) -> i64 {
    d + r.weighted(weights) as i64 * HOUR + r.below(3_600_000_000) as i64
}

/// Luxon's `toFormat('hh:mm:ss.SSS')` of a video's length.
fn hms(msecs: i64) -> String {
    let (h, m, s, f) = (msecs / 3_600_000, msecs / 60_000 % 60, msecs / 1_000 % 60, msecs % 1_000);
    format!("{h:02}:{m:02}:{s:02}.{f:03}")
}

/// Days since the epoch to (year, month, day).
fn civil(us: i64) -> (i64, i64, i64, i64, i64, i64) {
    let z = us.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let sod = us.rem_euclid(DAY) / SECOND;
    (y, m, d, sod / 3_600, sod / 60 % 60, sod % 60)
}

fn ymd(us: i64) -> String {
    let (y, m, d, ..) = civil(us);
    format!("{y:04}-{m:02}-{d:02}")
}

fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0_u32; 80];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6_u32),
            };
            let t = a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(wi);
            (e, d, c, b, a) = (d, c, b.rotate_left(30), a, t);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0_u8; 20];
    for (o, x) in out.chunks_mut(4).zip(h) {
        o.copy_from_slice(&x.to_be_bytes());
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A bytea literal from hex digits.
fn bytea(h: &str) -> V {
    V::t(format!("\\x{h}"))
}

/// `immich_uuid_v7(t)`: the milliseconds first, version 7, the RFC variant.
fn uuid7(r: &mut Rng, us: i64) -> String {
    let t = format!("{:012x}", us.div_euclid(1_000));
    let x = r.hex(18);
    let variant = b"89ab"[r.below(4) as usize] as char;
    format!("{}-{}-7{}-{variant}{}-{}", &t[..8], &t[8..], &x[..3], &x[3..6], &x[6..])
}

/// The first backup run after `t`, or the end.
fn next_run(runs: &[(i64, bool)], t: i64) -> i64 {
    runs.iter().map(|x| x.0).find(|&q| q > t).unwrap_or(NOW)
}

/// When an iPhone's app backs up: the nightly background task on the charger, and each time the app is opened.
fn ios_runs(r: &mut Rng) -> Vec<(i64, bool)> {
    let mut out = Vec::new();
    for k in -1..40 {
        let d = local_day(k);
        if r.chance(0.8) {
            out.push((d + r.range(60, 270) * MINUTE + r.below(60_000_000) as i64, false));
        }
        for _ in 0..count(r, 4.0) {
            out.push((at_hour(r, d, &OPEN), true));
        }
    }
    out.sort_unstable();
    out
}

fn ios_takes(c: &mut Ctx, p: &Phone) -> Vec<Take> {
    let mut out: Vec<Take> = Vec::new();
    let mut bursts = 0;
    for k in -1..40 {
        let d = local_day(k);
        let mean = if weekend(d + 12 * HOUR) { p.moments * 1.7 } else { p.moments };
        for _ in 0..count(&mut c.r, mean) {
            let mut t = at_hour(&mut c.r, d, &SHOOT);
            let portrait = c.r.chance(0.7);
            let photo = match (p.big, portrait) {
                (true, true) => (4_284, 5_712),
                (true, false) => (5_712, 4_284),
                (false, true) => (3_024, 4_032),
                (false, false) => (4_032, 3_024),
            };
            let base = Take {
                at: 0,
                modified: 0,
                kind: Shot::Photo,
                name: String::new(),
                local_id: String::new(),
                wh: photo,
                msecs: 0,
                fav: false,
                burst: None,
            };
            if c.r.chance(p.bursts) {
                bursts += 1;
                for _ in 0..c.r.range(6, 14) {
                    let (at, local_id) = (ms(t), format!("{}/L0/001", c.r.uuid().to_uppercase()));
                    let modified = ms(at + c.rand_us(600, 2_500));
                    out.push(Take { at, modified, local_id, burst: Some(bursts), ..base.clone() });
                    t += c.rand_us(90, 140);
                }
                continue;
            }
            for _ in 0..1 + c.r.skewed(7) {
                let x = c.r.below(100);
                let kind = if x < 10 {
                    Shot::Screen
                } else if x < 18 {
                    Shot::Video
                } else if c.r.chance(p.live) {
                    Shot::Live
                } else {
                    Shot::Photo
                };
                let (wh, msecs) = match kind {
                    Shot::Screen => ((1_179, 2_556), 0),
                    Shot::Video => {
                        let k4 = c.r.chance(0.2);
                        let wh = match (k4, c.r.chance(0.6)) {
                            (false, true) => (1_080, 1_920),
                            (false, false) => (1_920, 1_080),
                            (true, true) => (2_160, 3_840),
                            (true, false) => (3_840, 2_160),
                        };
                        (wh, 1_500 + c.r.skewed(90_000) as i64)
                    }
                    _ => (photo, 0),
                };
                let at = ms(t);
                let modified = ms(at + msecs * 1_000 + c.rand_us(300, 4_000));
                let local_id = format!("{}/L0/001", c.r.uuid().to_uppercase());
                let fav = c.r.chance(0.02);
                out.push(Take { at, modified, kind, local_id, wh, msecs, fav, ..base.clone() });
                t += c.r.range(3, 120) * SECOND + c.r.below(1_000_000) as i64 + msecs * 1_000;
            }
        }
    }
    out.retain(|x| x.at < NOW - 10 * MINUTE);
    out.sort_by_key(|x| x.at);
    let mut n = p.first;
    for x in out.iter_mut() {
        x.name = format!("IMG_{n:04}");
        n = if n == 9_999 { 1 } else { n + 1 };
    }
    out
}

/// One iPhone's uploads: each run sends what was taken since the last one, a live photo as its .MOV then its still.
fn ios(c: &mut Ctx, p: &Phone, device: &str) {
    let takes = ios_takes(c, p);
    let runs = ios_runs(&mut c.r);
    let mut bursts: Vec<Vec<usize>> = Vec::new();
    let mut edits: Vec<(usize, i64)> = Vec::new();
    let mut next = 0;
    for &(run, fg) in &runs {
        let mut t = run + c.rand_us(1_500, 6_000);
        while next < takes.len() && takes[next].at < run - 5 * SECOND {
            let k = takes[next].clone();
            let ext = match k.kind {
                Shot::Screen => ".PNG",
                Shot::Video => ".MOV",
                _ => ".HEIC",
            };
            let mut live = None;
            if k.kind == Shot::Live {
                t += c.rand_us(400, 1_200);
                let wh = if k.wh.0 < k.wh.1 { (1_440, 1_920) } else { (1_920, 1_440) };
                let exif = secs(k.at);
                let thumb = if c.r.chance(0.15) { Some(c.thumb()) } else { None };
                let mov = Row {
                    id: c.r.uuid(),
                    at: t,
                    owner: p.user,
                    dev_asset: k.local_id.clone(),
                    device: device.to_string(),
                    video: true,
                    path: c.upload_path(p.user, ".MOV"),
                    name: format!("{}.MOV", k.name),
                    sent: k.at,
                    exif,
                    modified: k.modified,
                    local: exif + TZ,
                    dur_sent: Some("0".to_string()),
                    dur: Some(hms(c.r.range(2_700, 3_100))),
                    fav: k.fav,
                    sum: c.r.hex(40),
                    vis: "timeline",
                    wh: Some(wh),
                    thumb,
                    meta: t + c.rand_us(300, 6_000),
                    ..Row::default()
                };
                live = Some(c.push(mov));
            }
            t += match k.kind {
                Shot::Screen => c.rand_us(100, 600),
                Shot::Video => k.msecs * c.r.range(50, 400) + c.rand_us(500, 1_500),
                _ => c.rand_us(300, 2_500),
            };
            if t >= NOW - SECOND {
                if let Some(j) = live {
                    c.v.truncate(j);
                }
                break;
            }
            let video = k.kind == Shot::Video;
            let exif = if video { secs(k.at) } else { k.at };
            let screen = k.kind == Shot::Screen;
            let dur_sent = if fg && video { (k.msecs / 1_000).to_string() } else { "0".to_string() };
            let row = Row {
                id: c.r.uuid(),
                at: t,
                owner: p.user,
                dev_asset: k.local_id.clone(),
                device: device.to_string(),
                video,
                path: c.upload_path(p.user, ext),
                name: format!("{}{ext}", k.name),
                sent: k.at,
                exif,
                modified: k.modified,
                local: if screen { exif } else { exif + TZ },
                dur_sent: Some(dur_sent),
                dur: video.then(|| hms(k.msecs)),
                fav: k.fav,
                sum: c.r.hex(40),
                live: live.map(|j| c.v[j].id.clone()),
                vis: "timeline",
                wh: Some(k.wh),
                thumb: Some(c.thumb()),
                meta: t + c.rand_us(300, 8_000),
                screen,
                ..Row::default()
            };
            let i = c.push(row);
            if let Some(j) = live {
                // `onBeforeLink` hides the .MOV; both metadata jobs link the pair again.
                let (hide, link) = (t - c.rand_us(5, 40), c.v[i].meta + c.rand_us(2, 30));
                c.v[j].vis = "hidden";
                c.touch(j, hide);
                c.touch(j, link);
                c.touch(i, link);
            }
            if let Some(b) = k.burst {
                while bursts.len() < b {
                    bursts.push(Vec::new());
                }
                bursts[b - 1].push(i);
            }
            let forced = c.late < LATE.len() && t > LATE[c.late] && !screen && k.burst.is_none();
            c.late += usize::from(forced);
            if forced || (!screen && k.burst.is_none() && c.r.chance(p.affected)) {
                copies(c, i, &runs, forced);
            } else if k.kind == Shot::Photo && k.burst.is_none() && c.r.chance(p.edits) {
                let e = k.at + c.r.range(600, 3 * 86_400) * SECOND + c.r.below(1_000_000) as i64;
                edits.push((i, e.max(t + 5 * MINUTE)));
            }
            next += 1;
        }
    }
    // An edit in Photos: a new file under the same local id, sent again at the next run.
    for (i, e) in edits {
        let at = next_run(&runs, e) + c.rand_us(2_000, 20_000);
        if at >= NOW {
            continue;
        }
        let g = c.group();
        c.v[i].grp = Some(g);
        let base = c.v[i].clone();
        let wh = base.wh.map(|(w, h)| {
            if c.r.chance(0.5) {
                let f = c.r.range(70, 95);
                (w * f / 100, h * c.r.range(70, 95) / 100)
            } else {
                (w, h)
            }
        });
        let twin = Row {
            id: c.r.uuid(),
            at,
            path: c.upload_path(base.owner, ".HEIC"),
            modified: ms(e),
            sum: c.r.hex(40),
            wh,
            thumb: Some(c.thumb()),
            meta: at + c.rand_us(300, 8_000),
            updated: 0,
            dup: None,
            mark: Mark::Legit,
            ..base
        };
        let j = c.push(twin);
        if c.r.chance(0.5) {
            let t = c.v[j].meta + c.r.range(5, 120) * SECOND;
            c.dup_join(&[i, j], t);
        }
    }
    // Bursts: stacked on the web, or left to duplicate detection.
    for frames in bursts {
        let last = frames.iter().map(|&i| c.v[i].at).max().unwrap_or(NOW);
        if c.r.chance(0.5) {
            let t = last + c.r.range(3_600, 4 * 86_400) * SECOND;
            if t < NOW {
                let u = c.r.uuid();
                c.stacks.push(u);
                for &i in &frames {
                    c.v[i].stack = Some(c.stacks.len() - 1);
                    let at = t + c.rand_us(0, 50);
                    c.touch(i, at);
                }
            }
        } else if c.r.chance(0.4) {
            let t = last + c.r.range(20, 300) * SECOND;
            let some: Vec<usize> = frames.iter().copied().filter(|_| c.r.chance(0.6)).collect();
            if some.len() >= 2 {
                c.dup_join(&some, t);
            }
        }
    }
}

/// The rendition bug: the same local asset sent again, each time as new bytes, until someone notices.
fn copies(c: &mut Ctx, i: usize, runs: &[(i64, bool)], forced: bool) {
    let g = c.group();
    c.v[i].grp = Some(g);
    let base = c.v[i].clone();
    let mut times = Vec::new();
    let first = if forced || c.r.chance(0.3) {
        // The foreground uploader and a background task on the same asset.
        base.at + c.rand_us(40, 1_500)
    } else if c.r.chance(0.45) {
        // The response was lost; the next pass sends it again.
        base.at + c.r.range(10, 60) * SECOND + c.rand_us(300, 3_000)
    } else {
        next_run(runs, base.at) + c.rand_us(2_000, 40_000)
    };
    times.push(first);
    let mut last = first;
    for _ in 0..if forced { 0 } else { c.r.skewed(6) } {
        let run = next_run(runs, last + 10 * MINUTE);
        if run >= NOW {
            break;
        }
        last = run + c.rand_us(2_000, 60_000);
        times.push(last);
    }
    let (mut modified, mut fav, mut prev) = (base.modified, base.fav, base.at);
    let mut made = vec![i];
    for at in times {
        if at >= NOW - SECOND {
            break;
        }
        if at - prev > 10 * MINUTE && c.r.chance(0.3) {
            // iOS touched the asset between cycles (its analysis, a favourite on the phone).
            modified = ms(prev + c.r.range(60, (at - prev) / SECOND - 30) * SECOND + c.rand_us(0, 999));
            fav |= c.r.chance(0.3);
        }
        let small = c.r.chance(0.35);
        let copy = Row {
            id: c.r.uuid(),
            at,
            path: c.upload_path(base.owner, &base.name[base.name.rfind('.').unwrap_or(0)..]),
            modified,
            fav,
            sum: c.r.hex(40),
            wh: base.wh.map(|(w, h)| if small { (w / 2, h / 2) } else { (w, h) }),
            thumb: if c.r.chance(0.4) { base.thumb.clone() } else { Some(c.thumb()) },
            meta: at + c.rand_us(300, 8_000),
            updated: at,
            mark: Mark::Retry,
            ..base.clone()
        };
        let j = c.push(copy);
        made.push(j);
        prev = at;
        if c.r.chance(0.8) {
            let t = c.v[j].meta + c.rand_us(3_000, 90_000);
            c.dup_join(&[i, j], t);
        }
    }
    // Someone opens the duplicates page (or the timeline) and keeps one.
    if made.len() > 1 && c.r.chance(0.5) {
        let t = prev + c.r.range(86_400, 12 * 86_400) * SECOND;
        if t < NOW {
            let keep = if c.r.chance(0.8) { i } else { made[made.len() - 1] };
            let fav = made.iter().any(|&j| c.v[j].fav);
            for &j in &made {
                if j == keep {
                    c.v[j].fav = fav;
                    c.v[j].dup = None;
                    c.touch(j, t);
                } else if c.v[j].dup.is_some() || c.r.chance(0.3) {
                    c.trash(j, t);
                }
            }
        }
    }
}

/// The Pixel: photos (half of them motion photos), videos and screenshots, backed up on the home Wi-Fi.
fn android(c: &mut Ctx, device: &str) {
    let mut takes: Vec<Take> = Vec::new();
    for k in -1..40 {
        let d = local_day(k);
        let mean = if weekend(d + 12 * HOUR) { 3.4 } else { 2.4 };
        for _ in 0..count(&mut c.r, mean) {
            let mut t = at_hour(&mut c.r, d, &SHOOT);
            for _ in 0..1 + c.r.skewed(5) {
                let x = c.r.below(100);
                let (kind, wh, msecs) = if x < 14 {
                    (Shot::Screen, (1_080, 2_400), 0)
                } else if x < 24 {
                    let wh = if c.r.chance(0.6) { (1_080, 1_920) } else { (1_920, 1_080) };
                    (Shot::Video, wh, 1_200 + c.r.skewed(60_000) as i64)
                } else {
                    let wh = if c.r.chance(0.7) { (3_072, 4_080) } else { (4_080, 3_072) };
                    (if c.r.chance(0.45) { Shot::Live } else { Shot::Photo }, wh, 0)
                };
                let at = ms(t);
                let modified = secs(at + msecs * 1_000 + c.rand_us(800, 3_000));
                let fav = c.r.chance(0.015);
                let (name, local_id, burst) = (String::new(), String::new(), None);
                takes.push(Take { at, modified, kind, name, local_id, wh, msecs, fav, burst });
                t += c.r.range(2, 90) * SECOND + c.r.below(1_000_000) as i64 + msecs * 1_000;
            }
        }
    }
    takes.retain(|x| x.at < NOW - 10 * MINUTE);
    takes.sort_by_key(|x| x.at);
    let mut media = 1_000_004_321_i64;
    for x in takes.iter_mut() {
        media += if c.r.chance(0.1) { c.r.range(2, 6) } else { 1 };
        x.local_id = media.to_string();
        let (y, mo, d, h, mi, s) = civil(x.at);
        let (ly, lmo, ld, lh, lmi, ls) = civil(x.at + TZ);
        let milli = x.at / 1_000 % 1_000;
        x.name = match x.kind {
            Shot::Screen => format!("Screenshot_{ly:04}{lmo:02}{ld:02}-{lh:02}{lmi:02}{ls:02}.png"),
            Shot::Video => format!("PXL_{y:04}{mo:02}{d:02}_{h:02}{mi:02}{s:02}{milli:03}.mp4"),
            Shot::Live => format!("PXL_{y:04}{mo:02}{d:02}_{h:02}{mi:02}{s:02}{milli:03}.MP.jpg"),
            Shot::Photo => format!("PXL_{y:04}{mo:02}{d:02}_{h:02}{mi:02}{s:02}{milli:03}.jpg"),
        };
    }
    // The upload worker runs whenever new media shows up on the home Wi-Fi.
    let mut runs: Vec<i64> = Vec::new();
    for k in -1..40 {
        let d = local_day(k);
        let we = weekend(d + 12 * HOUR);
        if !we {
            runs.push(d + r_min(&mut c.r, 6 * 60 + 40, 7 * 60 + 20));
        }
        let mut m = if we { 9 * 60 } else { 15 * 60 + 30 } + c.r.range(0, 40);
        while m < 23 * 60 + 30 {
            runs.push(d + m * MINUTE + c.r.below(60_000_000) as i64);
            m += c.r.range(40, 150);
        }
    }
    runs.sort_unstable();
    let mut next = 0;
    for run in runs {
        let mut t = run + c.rand_us(2_000, 9_000);
        while next < takes.len() && takes[next].at < run - 5 * SECOND {
            let k = takes[next].clone();
            t += match k.kind {
                Shot::Video => k.msecs * c.r.range(40, 200) + c.rand_us(400, 1_200),
                _ => c.rand_us(300, 2_200),
            };
            if t >= NOW - SECOND {
                break;
            }
            let video = k.kind == Shot::Video;
            let screen = k.kind == Shot::Screen;
            let exif = if video { secs(k.at) } else { k.at };
            let row = Row {
                id: c.r.uuid(),
                at: t,
                owner: TEEN,
                dev_asset: k.local_id.clone(),
                device: device.to_string(),
                video,
                path: c.upload_path(TEEN, &k.name[k.name.rfind('.').unwrap_or(0)..]),
                name: k.name.clone(),
                sent: k.at,
                exif,
                modified: k.modified,
                local: if screen { exif } else { exif + TZ },
                dur_sent: Some("0".to_string()),
                dur: video.then(|| hms(k.msecs)),
                fav: k.fav,
                sum: c.r.hex(40),
                vis: "timeline",
                wh: Some(k.wh),
                thumb: Some(c.thumb()),
                meta: t + c.rand_us(400, 9_000),
                screen,
                ..Row::default()
            };
            let i = c.push(row);
            if k.kind == Shot::Live {
                // `applyMotionPhotos`: the embedded video becomes a hidden asset of its own.
                let mt = c.v[i].meta + c.rand_us(150, 1_500);
                if mt < NOW - SECOND {
                    let id = c.r.uuid();
                    let owner = &c.users[TEEN];
                    let path = format!("/data/encoded-video/{owner}/{}/{}/{id}-MP.mp4", &id[..2], &id[2..4]);
                    let stem = &k.name[..k.name.len() - 4];
                    let written = ms(mt + c.rand_us(3, 40));
                    let wh = if k.wh.0 < k.wh.1 { (1_080, 1_440) } else { (1_440, 1_080) };
                    let mp = Row {
                        id: id.clone(),
                        at: mt,
                        order: c.v[i].at - 1,
                        owner: TEEN,
                        dev_asset: "NONE".to_string(),
                        device: "NONE".to_string(),
                        video: true,
                        path,
                        name: format!("{stem}.mp4"),
                        sent: k.at,
                        exif: k.at,
                        modified: written,
                        local: k.at,
                        dur_sent: None,
                        dur: Some(hms(c.r.range(1_200, 2_900))),
                        sum: c.r.hex(40),
                        vis: "hidden",
                        wh: Some(wh),
                        meta: written + c.rand_us(20, 400),
                        ..Row::default()
                    };
                    c.push(mp);
                    c.v[i].live = Some(id);
                    let link = mt + c.rand_us(2, 30);
                    c.touch(i, link);
                }
            }
            next += 1;
        }
    }
}

fn r_min(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    r.range(lo, hi) * MINUTE + r.below(60_000_000) as i64
}

/// The grandmother's web uploads: WhatsApp pictures and scans, a handful of sessions.
fn web(c: &mut Ctx) {
    let mut days: Vec<i64> = (0..9).map(|_| c.r.range(1, 39)).collect();
    days.sort_unstable();
    days.dedup();
    let mut scan = 41;
    for k in days {
        let mut t = local_day(k) + r_min(&mut c.r, 10 * 60, 20 * 60);
        if t >= NOW - HOUR {
            continue;
        }
        let mut wa: Vec<(i64, i64)> = Vec::new();
        for _ in 0..c.r.range(3, 25) {
            let whatsapp = c.r.chance(0.7);
            let (name, lm, wh) = if whatsapp {
                let got = ms(t - c.r.range(600, 5 * 86_400) * SECOND - c.rand_us(0, 999));
                let day_local = (got + TZ).div_euclid(DAY);
                let n = wa.iter().rev().find(|x| x.0 == day_local).map_or(0, |x| x.1 + c.r.range(1, 3));
                wa.push((day_local, n));
                let (y, m, d, ..) = civil(got + TZ);
                let wh = *c.r.pick(&[(1_200, 1_600), (1_600, 1_200), (1_536, 2_048), (960, 1_280)]);
                (format!("IMG-{y:04}{m:02}{d:02}-WA{n:04}.jpg"), got, wh)
            } else {
                scan += 1;
                let lm = ms(t - c.r.range(300, 7_200) * SECOND - c.rand_us(0, 999));
                let wh = if c.r.chance(0.5) { (1_748, 1_240) } else { (1_240, 1_748) };
                (format!("scan{scan:04}.jpg"), lm, wh)
            };
            t += c.rand_us(200, 1_500);
            let row = Row {
                id: c.r.uuid(),
                at: t,
                owner: GRAN,
                dev_asset: format!("web-{name}-{}", lm / 1_000),
                device: "WEB".to_string(),
                path: c.upload_path(GRAN, ".jpg"),
                name,
                sent: lm,
                exif: lm,
                modified: lm,
                local: lm,
                dur_sent: Some("0:00:00.000000".to_string()),
                sum: c.r.hex(40),
                vis: "timeline",
                wh: Some(wh),
                thumb: Some(c.thumb()),
                meta: t + c.rand_us(300, 5_000),
                ..Row::default()
            };
            c.push(row);
        }
    }
}

/// A file of the father's camera archive: (folder, name, wall clock, mtime, size, width/height, video length).
#[derive(Clone)]
struct CamFile {
    folder: String,
    name: String,
    wall: i64,
    mtime: i64,
    size: i64,
    wh: (i64, i64),
    msecs: i64,
}

/// Camera files of `events` outings from `from` on, each copied off the card a day or three later.
fn camera(r: &mut Rng, events: usize, from: i64, span: i64, dsc: &mut i64, clip: &mut i64) -> Vec<CamFile> {
    let mut out = Vec::new();
    let mut starts: Vec<i64> = (0..events).map(|_| from + r.below(span as u64) as i64).collect();
    starts.sort_unstable();
    for s in starts {
        let wall = s - s.rem_euclid(DAY) + r.range(9, 15) * HOUR + r.below(3_600_000_000) as i64;
        let folder = format!("{} {}", ymd(wall), r.pick(&EVENTS));
        let mut t = wall;
        let copied = wall + r.range(1, 3) * DAY + r.range(0, 9) * HOUR + r.below(3_600_000_000) as i64;
        let mut mtime = ms(copied);
        for _ in 0..r.range(12, 48) {
            let video = r.chance(0.08);
            let (name, wh, msecs, size) = if video {
                *clip += 1;
                let msecs = r.range(4_000, 120_000);
                (format!("C{:04}.MP4", *clip), (1_920, 1_080), msecs, msecs * r.range(6_000, 12_000))
            } else {
                *dsc += 1;
                let wh = if r.chance(0.25) { (4_000, 6_000) } else { (6_000, 4_000) };
                (format!("DSC{:05}.JPG", *dsc), wh, 0, r.range(7_000_000, 14_000_000))
            };
            out.push(CamFile { folder: folder.clone(), name, wall: ms(t), mtime, size, wh, msecs });
            t += r.range(5, 900) * SECOND + r.below(1_000_000) as i64 + msecs * 1_000;
            mtime += r.range(40, 400) * 1_000;
        }
    }
    out
}

/// `immich upload --recursive ~/Bilder/Archiv/2016`: hashed, checked, then four uploads at a time.
fn cli(c: &mut Ctx) -> Vec<(usize, CamFile)> {
    let (mut dsc, mut clip) = (1_804, 12);
    let from = 1_451_606_400_000_000 + 40 * DAY;
    let files = camera(&mut c.r, 11, from, 300 * DAY, &mut dsc, &mut clip);
    let mut t = local_day(6) + r_min(&mut c.r, 21 * 60, 21 * 60 + 20) + c.r.range(30, 120) * SECOND;
    let mut ml = t;
    let mut out = Vec::new();
    for f in files {
        let video = f.msecs > 0;
        t += if video { c.rand_us(4_000, 25_000) } else { c.rand_us(150, 900) };
        let meta = t.max(ml) + c.rand_us(200, 1_500);
        ml = meta;
        let ext = &f.name[f.name.rfind('.').unwrap_or(0)..];
        let row = Row {
            id: c.r.uuid(),
            at: t,
            owner: DAD,
            dev_asset: format!("{}-{}", f.name, f.size),
            device: "CLI".to_string(),
            video,
            path: c.upload_path(DAD, ext),
            name: f.name.clone(),
            sent: f.mtime,
            exif: if video { secs(f.wall) } else { f.wall },
            modified: f.mtime,
            local: if video { secs(f.wall) } else { f.wall },
            dur: video.then(|| hms(f.msecs)),
            sum: c.r.hex(40),
            vis: "timeline",
            wh: Some(f.wh),
            thumb: Some(c.thumb()),
            meta,
            ..Row::default()
        };
        let i = c.push(row);
        out.push((i, f));
    }
    out
}

/// A file on the NAS share and when it was there.
struct NasFile {
    path: String,
    file: CamFile,
    added: i64,
    removed: Option<i64>,
    family: bool,
    /// The file it was before a rename (its index).
    was: Option<usize>,
}

fn nas_row(c: &mut Ctx, lib: usize, owner: usize, f: &NasFile, at: i64, meta: i64) -> Row {
    let video = f.file.msecs > 0;
    let wall = if video { secs(f.file.wall) } else { f.file.wall };
    Row {
        id: c.r.uuid(),
        at,
        owner,
        dev_asset: f.file.name.split_whitespace().collect(),
        device: "Library Import".to_string(),
        video,
        path: f.path.clone(),
        name: f.file.name.clone(),
        sent: f.file.mtime,
        exif: wall,
        modified: f.file.mtime,
        local: wall,
        dur: video.then(|| hms(f.file.msecs)),
        sum: hex(&sha1(format!("path:{}", f.path).as_bytes())),
        lib: Some(lib),
        vis: "timeline",
        wh: Some(f.file.wh),
        thumb: Some(c.thumb()),
        meta,
        ..Row::default()
    }
}

/// The NAS: the father's library over /mnt/nas/photos (created on day 12), the mother's over its Family folder (day
/// 20); both scanned every night at 00:00 UTC, each scan inserting its new paths in one statement.
fn libraries(c: &mut Ctx, archive: &[(usize, CamFile)]) {
    let root = "/mnt/nas/photos";
    let mut files: Vec<NasFile> = Vec::new();
    let (mut dsc, mut clip) = (2_410, 31);
    let long_ago = START - 400 * DAY;
    // The 2016 folder holds much of what the CLI uploaded, copied to the NAS the year after.
    let picked: Vec<&CamFile> = archive.iter().map(|x| &x.1).filter(|_| c.r.chance(0.45)).collect();
    for f in picked {
        let mut file = f.clone();
        file.mtime = ms(1_485_907_200_000_000 + c.r.range(0, 86_400) * SECOND);
        let path = format!("{root}/2016/{}/{}", file.folder, file.name);
        files.push(NasFile { path, file, added: long_ago, removed: None, family: false, was: None });
    }
    for year in 2019..=2025_i64 {
        let from = (year - 1970) * 365 * DAY + (year - 1969) / 4 * DAY;
        for file in camera(&mut c.r, 2, from, 330 * DAY, &mut dsc, &mut clip) {
            let path = format!("{root}/{year}/{}/{}", file.folder, file.name);
            files.push(NasFile { path, file, added: long_ago, removed: None, family: false, was: None });
        }
    }
    for n in 1..=24 {
        let wall = 315_532_800_000_000 + c.r.below(30 * 365 * 86_400) as i64 * SECOND;
        let mtime = ms(1_700_000_000_000_000 + n * c.r.range(20, 90) * SECOND);
        let wh = if c.r.chance(0.6) { (1_800, 1_200) } else { (1_200, 1_800) };
        let name = format!("Scan {n:03}.jpg");
        let file = CamFile { folder: "Scans".to_string(), name, wall, mtime, size: 0, wh, msecs: 0 };
        let path = format!("{root}/Family/Scans/{}", file.name);
        files.push(NasFile { path, file, added: long_ago, removed: None, family: true, was: None });
    }
    for file in camera(&mut c.r, 1, START - 280 * DAY, 5 * DAY, &mut dsc, &mut clip) {
        let path = format!("{root}/Family/{}/{}", file.folder, file.name);
        files.push(NasFile { path, file, added: long_ago, removed: None, family: true, was: None });
    }
    // Sundays: the week's card copied onto the share, now and then into Family.
    let mut week_folders: Vec<(String, Vec<usize>)> = Vec::new();
    for k in 0..40 {
        let d = local_day(k);
        if (d + 12 * HOUR + TZ).div_euclid(DAY).rem_euclid(7) != 3 {
            continue;
        }
        let copy = d + r_min(&mut c.r, 18 * 60, 22 * 60);
        let family = c.r.chance(0.35);
        let mut mtime = ms(copy);
        for mut file in camera(&mut c.r, 1, copy - 6 * DAY, 5 * DAY, &mut dsc, &mut clip) {
            mtime += c.r.range(40, 400) * 1_000;
            file.mtime = mtime;
            let dir = format!("{root}/{}/{}", if family { "Family" } else { "2026" }, file.folder);
            if week_folders.last().is_none_or(|w| w.0 != dir) {
                week_folders.push((dir.clone(), Vec::new()));
            }
            let path = format!("{dir}/{}", file.name);
            if let Some(w) = week_folders.last_mut() {
                w.1.push(files.len());
            }
            files.push(NasFile { path, file, added: copy, removed: None, family, was: None });
        }
    }
    // Day 28: a folder renamed; day 33: a dozen bad shots deleted.
    let plain: Vec<usize> = (0..week_folders.len()).filter(|&w| week_folders[w].0.contains("/2026/")).collect();
    if let (Some(&a), Some(&b)) = (plain.first(), plain.get(1)) {
        let when = local_day(28) + r_min(&mut c.r, 19 * 60, 22 * 60);
        let (dir, members) = week_folders[a].clone();
        let to = format!("{dir} {}", c.r.pick(&["Urlaub", "mit Oma", "2"]));
        for j in members {
            files[j].removed = Some(when);
            let file = files[j].file.clone();
            let path = format!("{to}/{}", file.name);
            files.push(NasFile { path, file, added: when, removed: None, family: false, was: Some(j) });
        }
        let when = local_day(33) + r_min(&mut c.r, 19 * 60, 22 * 60);
        let bad: Vec<usize> = week_folders[b].1.iter().copied().filter(|_| c.r.chance(0.3)).collect();
        for j in bad {
            files[j].removed = Some(when);
        }
    }

    let created =
        [local_day(12) + r_min(&mut c.r, 22 * 60, 22 * 60 + 30), local_day(20) + r_min(&mut c.r, 21 * 60, 22 * 60)];
    let owners = [DAD, MOM];
    let mut row_of: Vec<[Option<usize>; 2]> = vec![[None, None]; files.len()];
    let mut scans: Vec<(i64, usize)> = Vec::new();
    for (lib, &t) in created.iter().enumerate() {
        scans.push((t + c.rand_us(8_000, 25_000), lib));
    }
    let mut midnight = START - START.rem_euclid(DAY) + DAY;
    while midnight < NOW {
        let dad = midnight + c.rand_us(600, 4_000);
        scans.push((dad, NAS));
        scans.push((dad + c.rand_us(300, 3_000), FAMILY));
        midnight += DAY;
    }
    scans.sort_unstable();
    let mut ml = 0;
    for (at, lib) in scans {
        if at < created[lib] + SECOND || at >= NOW {
            continue;
        }
        let batch: Vec<usize> = (0..files.len())
            .filter(|&j| row_of[j][lib].is_none() && files[j].added < at && files[j].removed.is_none_or(|x| x > at))
            .filter(|&j| lib == NAS || files[j].family)
            .collect();
        let mut meta = at.max(ml);
        for &j in &batch {
            meta += c.rand_us(120, 400);
            let row = nas_row(c, lib, owners[lib], &files[j], at, meta);
            let i = c.push(row);
            row_of[j][lib] = Some(i);
            let earlier = if lib == FAMILY { row_of[j][NAS] } else { files[j].was.and_then(|o| row_of[o][lib]) };
            if let Some(o) = earlier {
                let g = match c.v[o].grp {
                    Some(g) => g,
                    None => c.group(),
                };
                c.v[o].grp = Some(g);
                (c.v[i].grp, c.v[i].mark) = (Some(g), Mark::Legit);
            }
        }
        ml = meta;
        // The same scan finds the paths that went away: offline, and in the trash.
        let mut off = at + c.rand_us(2_000, 20_000);
        for (j, file) in files.iter().enumerate() {
            if let (Some(i), Some(gone)) = (row_of[j][lib], file.removed)
                && gone < at
                && !c.v[i].offline
                && at - gone < DAY
            {
                off += c.rand_us(1, 20);
                (c.v[i].offline, c.v[i].deleted) = (true, Some(ms(off)));
                c.touch(i, off);
            }
        }
    }
    // Duplicate detection finds the 2016 photos the CLI had uploaded; the father keeps the uploads.
    let resolve = local_day(15) + r_min(&mut c.r, 20 * 60, 22 * 60);
    for (ci, f) in archive {
        let Some(j) = files.iter().position(|x| x.path.ends_with(&format!("/2016/{}/{}", f.folder, f.name))) else {
            continue;
        };
        let Some(li) = row_of[j][NAS] else { continue };
        let t = c.v[li].meta + c.r.range(60, 3_600) * SECOND;
        if c.r.chance(0.9) {
            c.dup_join(&[*ci, li], t);
            if c.v[li].dup.is_some() && t < resolve {
                let at = resolve + c.rand_us(0, 900);
                c.trash(li, at);
                c.v[*ci].dup = None;
                let later = at + c.rand_us(1, 20);
                c.touch(*ci, later);
            }
        }
    }
}

/// What people do with their pictures afterwards.
fn life(c: &mut Ctx, i: usize) {
    let x = c.v[i].clone();
    if x.mark != Mark::Plain || x.grp.is_some() || x.vis != "timeline" || x.deleted.is_some() || x.dup.is_some() {
        return;
    }
    let later = |c: &mut Ctx| x.at + c.r.range(3_600, 10 * 86_400) * SECOND + c.r.below(1_000_000) as i64;
    if x.lib.is_some() {
        if c.r.chance(0.02) {
            let t = later(c);
            if t < NOW {
                c.v[i].fav = true;
                c.touch(i, t);
            }
        }
        if c.r.chance(0.005) {
            let t = later(c);
            c.trash(i, t);
        }
        return;
    }
    if c.r.chance(0.035) {
        let t = later(c);
        if t < NOW {
            c.v[i].fav = true;
            c.touch(i, t);
        }
    }
    let archive = if x.screen { 0.12 } else { 0.01 };
    if c.r.chance(archive) {
        let t = later(c);
        if t < NOW {
            c.v[i].vis = "archive";
            c.touch(i, t);
        }
    } else if c.r.chance(0.004) {
        let t = later(c);
        if t < NOW {
            c.v[i].vis = "locked";
            c.touch(i, t);
        }
    }
    if c.r.chance(0.03) {
        let t = (x.at + c.r.range(600, 6 * 86_400) * SECOND + c.r.below(1_000_000) as i64).max(c.v[i].updated + SECOND);
        c.trash(i, t);
        if c.v[i].deleted.is_some() && c.r.chance(0.25) {
            let emptied = t + c.r.range(60, 3 * 86_400) * SECOND;
            c.v[i].gone = emptied < NOW;
        }
    }
}

pub fn fixture() -> Fixture {
    let mut c = Ctx {
        r: Rng::new(0x1_3A1C),
        v: Vec::new(),
        users: Vec::new(),
        groups: 0,
        dups: Vec::new(),
        stacks: Vec::new(),
        late: 0,
    };
    c.users = (0..4).map(|_| c.r.uuid()).collect();
    let phones: Vec<String> = (0..3).map(|_| c.r.hex(64)).collect();
    let libs = [c.r.uuid(), c.r.uuid()];
    for (p, device) in PHONES.iter().zip(&phones) {
        ios(&mut c, p, device);
    }
    android(&mut c, &phones[2]);
    web(&mut c);
    let archive = cli(&mut c);
    libraries(&mut c, &archive);
    for i in 0..c.v.len() {
        life(&mut c, i);
    }

    // The nightly job deletes what has been in the trash (or offline) for 30 days; a motion video goes with the last
    // still that points at it.
    for x in c.v.iter_mut() {
        if let Some(d) = x.deleted {
            let due = d + 30 * DAY;
            x.gone |= due - due.rem_euclid(DAY) + DAY < NOW;
        }
        if x.order == 0 {
            x.order = x.at;
        }
    }
    let mut kept = std::collections::HashSet::new();
    for x in c.v.iter().filter(|x| !x.gone) {
        if let Some(l) = &x.live {
            kept.insert(l.clone());
        }
    }
    for x in c.v.iter_mut().filter(|x| x.vis == "hidden" && x.video) {
        x.gone |= !kept.contains(&x.id);
    }

    let mut idx: Vec<usize> = (0..c.v.len()).filter(|&i| !c.v[i].gone).collect();
    idx.sort_by_key(|&i| (c.v[i].order, i));
    // Marks among the rows still there: the first of an intent is the original.
    let mut first: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("asset", &columns);
    for &i in &idx {
        let x = c.v[i].clone();
        let mut mark = x.mark;
        let mut hidden = false;
        if let Some(g) = x.grp {
            match first.get(&g) {
                None => {
                    first.insert(g, i);
                    mark = Mark::Plain;
                }
                Some(&o) => hidden = mark == Mark::Retry && c.v[o].modified != x.modified,
            }
        }
        // The metadata job, then the thumbnail job (the thumbhash, if it changed).
        let done = x.meta < NOW;
        let thumbed = x.meta + c.rand_us(800, 20_000);
        let (fc, local) = if done { (x.exif, x.local) } else { (x.sent, x.sent) };
        let dur = if done { x.dur.clone() } else { x.dur_sent.clone() };
        let wh = if done { x.wh } else { None };
        let thumb = if thumbed < NOW { x.thumb.clone() } else { None };
        let mut updated = x.updated.max(x.at);
        if done {
            updated = updated.max(x.meta);
        }
        if thumb.is_some() {
            updated = updated.max(thumbed);
        }
        let update_id = uuid7(&mut c.r, updated);
        f.push(&[
            ("id", V::t(&x.id)),
            ("deviceAssetId", V::t(&x.dev_asset)),
            ("ownerId", V::t(&c.users[x.owner])),
            ("deviceId", V::t(&x.device)),
            ("type", V::t(if x.video { "VIDEO" } else { "IMAGE" })),
            ("originalPath", V::t(&x.path)),
            ("fileCreatedAt", V::AtZ(fc)),
            ("fileModifiedAt", V::AtZ(x.modified)),
            ("isFavorite", V::B(x.fav)),
            ("duration", V::opt_t(dur.as_deref())),
            ("checksum", bytea(&x.sum)),
            ("livePhotoVideoId", V::opt_t(x.live.as_deref())),
            ("updatedAt", V::AtZ(updated)),
            ("createdAt", V::AtZ(x.at)),
            ("originalFileName", V::t(&x.name)),
            ("thumbhash", thumb.as_deref().map_or(V::Null, bytea)),
            ("isOffline", V::B(x.offline)),
            ("libraryId", x.lib.map_or(V::Null, |l| V::t(&libs[l]))),
            ("isExternal", V::B(x.lib.is_some())),
            ("deletedAt", x.deleted.map_or(V::Null, V::AtZ)),
            ("localDateTime", V::AtZ(local)),
            ("stackId", x.stack.map_or(V::Null, |s| V::t(&c.stacks[s]))),
            ("duplicateId", x.dup.map_or(V::Null, |d| V::t(&c.dups[d]))),
            ("status", V::t(x.status_or_active())),
            ("updateId", V::t(update_id)),
            ("visibility", V::t(x.vis)),
            ("width", wh.map_or(V::Null, |w| V::I(w.0))),
            ("height", wh.map_or(V::Null, |w| V::I(w.1))),
            ("isEdited", V::B(false)),
            ("checksumAlgorithm", V::t(if x.lib.is_some() { "sha1-path" } else { "sha1" })),
        ]);
        f.mark(&x.id, mark);
        if hidden {
            f.hidden.insert(x.id.clone());
        }
    }
    f
}

impl Row {
    fn status_or_active(&self) -> &'static str {
        if self.status.is_empty() { "active" } else { self.status }
    }
}
