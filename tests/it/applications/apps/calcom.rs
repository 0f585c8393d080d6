//! Cal.com (Node.js and TypeScript, Prisma, PostgreSQL): `"Booking"`, as
//! `RegularBookingService` writes it. `uid` is minted from the attempt's
//! `Date.now()`, `iCalUID` is `uid@Cal.com`, `oneTimePassword` a v4 made by
//! Prisma Client, `"updatedAt"` Prisma's `@updatedAt`; the post-create update
//! puts the attempt's video URL in `metadata`. The idempotency key (a v5 of
//! slot and host) is set on accepted bookings only: two concurrent requests
//! for a booking that needs confirmation both insert.

use super::{DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V};

pub const DDL: &str = r#"
CREATE TYPE "BookingStatus" AS ENUM ('cancelled','accepted','rejected','pending','awaiting_host');
CREATE TYPE "CreationSource" AS ENUM ('api_v1','api_v2','webapp');
CREATE TABLE "Booking" (
  "id"                    SERIAL NOT NULL,
  "uid"                   TEXT NOT NULL,
  "idempotencyKey"        TEXT,
  "userId"                INTEGER,
  "userPrimaryEmail"      TEXT,
  "eventTypeId"           INTEGER,
  "title"                 TEXT NOT NULL,
  "description"           TEXT,
  "customInputs"          JSONB,
  "responses"             JSONB,
  "startTime"             TIMESTAMP(3) NOT NULL,
  "endTime"               TIMESTAMP(3) NOT NULL,
  "location"              TEXT,
  "createdAt"             TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"             TIMESTAMP(3),
  "status"                "BookingStatus" NOT NULL DEFAULT 'accepted',
  "paid"                  BOOLEAN NOT NULL DEFAULT false,
  "destinationCalendarId" INTEGER,
  "cancellationReason"    TEXT,
  "rejectionReason"       TEXT,
  "reassignReason"        TEXT,
  "reassignById"          INTEGER,
  "dynamicEventSlugRef"   TEXT,
  "dynamicGroupSlugRef"   TEXT,
  "rescheduled"           BOOLEAN,
  "fromReschedule"        TEXT,
  "recurringEventId"      TEXT,
  "smsReminderNumber"     TEXT,
  "scheduledJobs"         TEXT[],
  "metadata"              JSONB,
  "isRecorded"            BOOLEAN NOT NULL DEFAULT false,
  "iCalUID"               TEXT DEFAULT '',
  "iCalSequence"          INTEGER NOT NULL DEFAULT 0,
  "rating"                INTEGER,
  "ratingFeedback"        TEXT,
  "noShowHost"            BOOLEAN DEFAULT false,
  "oneTimePassword"       TEXT,
  "cancelledBy"           TEXT,
  "rescheduledBy"         TEXT,
  "creationSource"        "CreationSource",
  CONSTRAINT "Booking_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Booking_uid_key" ON "Booking"("uid");
CREATE UNIQUE INDEX "Booking_idempotencyKey_key" ON "Booking"("idempotencyKey");
CREATE UNIQUE INDEX "Booking_oneTimePassword_key" ON "Booking"("oneTimePassword");
CREATE INDEX "Booking_eventTypeId_idx" ON "Booking"("eventTypeId");
CREATE INDEX "Booking_userId_idx" ON "Booking"("userId");
CREATE INDEX "Booking_status_idx" ON "Booking"("status");
CREATE INDEX "Booking_startTime_endTime_status_idx" ON "Booking"("startTime","endTime","status");"#;

const COLUMNS: &[&str] = &[
    "id",
    "uid",
    "idempotencyKey",
    "userId",
    "userPrimaryEmail",
    "eventTypeId",
    "title",
    "description",
    "responses",
    "startTime",
    "endTime",
    "location",
    "createdAt",
    "updatedAt",
    "status",
    "paid",
    "metadata",
    "iCalUID",
    "iCalSequence",
    "oneTimePassword",
    "creationSource",
    "scheduledJobs",
];

#[derive(Clone)]
struct Booking {
    at: i64,
    host: i64,
    event: i64,
    booker: (String, String),
    notes: Option<String>,
    start: i64,
    minutes: i64,
    video: bool,
    status: &'static str,
    source: &'static str,
    retry: bool,
}

fn base58(r: &mut Rng, n: usize) -> String {
    const CHARS: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    (0..n).map(|_| CHARS[r.below(CHARS.len() as u64) as usize] as char).collect()
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(83);
    let names = ["Ana", "Ben", "Chloé", "Dmitri", "Eva", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena"];
    let mut bookings: Vec<Booking> = Vec::new();
    let mut t = T0;
    while bookings.len() < 1_980 {
        t += r.range(20, 2_400) * SECOND;
        let host = 1 + r.below(60) as i64;
        let event = host * 3 + r.below(3) as i64;
        // Some event types need the host's confirmation: bookings start pending.
        let confirm = event % 11 == 0;
        let name =
            format!("{} {}", r.pick(&names), r.pick(&["Silva", "Meyer", "Okafor", "Nguyen", "Rossi", "Kowalski"]));
        let email = format!("{}.{}@example.com", name.split(' ').next().unwrap().to_lowercase(), r.range(1, 999));
        let day = t + r.range(1, 30) * DAY;
        let start = day - day.rem_euclid(15 * MINUTE);
        let booking = Booking {
            at: t,
            host,
            event,
            booker: (name, email),
            notes: r.chance(0.3).then(|| "Looking forward to it".to_string()),
            start,
            minutes: *r.pick(&[15, 30, 30, 45, 60]),
            video: r.chance(0.5),
            status: if confirm {
                "pending"
            } else if r.chance(0.12) {
                "cancelled"
            } else {
                "accepted"
            },
            source: r.one(&["webapp", "webapp", "webapp", "webapp", "api_v2"]),
            retry: false,
        };
        bookings.push(booking.clone());
        // Two concurrent submits of a booking that waits for confirmation:
        // both pass the lookup for an existing one, both insert.
        if booking.status == "pending" && r.chance(0.2) {
            bookings.push(Booking { at: t + super::client_retry_delay(&mut r), retry: true, ..booking });
        }
        if r.chance(0.01) {
            t += 8 * HOUR;
        }
    }
    bookings.sort_by_key(|b| b.at);
    let mut f = Fixture::new("Booking", COLUMNS);
    for (i, b) in bookings.iter().enumerate() {
        let id = 1 + i as i64;
        let uid = base58(&mut r, 22);
        let end = b.start + b.minutes * MINUTE;
        let key = (b.status == "accepted").then(|| r.uuid());
        let responses = format!(
            r#"{{"name": "{}", "email": "{}", "notes": {}, "guests": [], "location": {{"value": "integrations:daily", "optionValue": ""}}}}"#,
            b.booker.0,
            b.booker.1,
            b.notes.as_ref().map_or("null".to_string(), |n| format!("\"{n}\""))
        );
        let metadata = if b.video {
            format!(r#"{{"videoCallUrl": "https://app.cal.com/video/{uid}"}}"#)
        } else {
            "{}".to_string()
        };
        f.push(&[
            ("id", V::I(id)),
            ("uid", V::t(&uid)),
            ("idempotencyKey", V::opt_t(key.as_deref())),
            ("userId", V::I(b.host)),
            ("userPrimaryEmail", V::t(format!("host{}@acme.example", b.host))),
            ("eventTypeId", V::I(b.event)),
            ("title", V::t(format!("{} min meeting between Host {} and {}", b.minutes, b.host, b.booker.0))),
            ("description", V::opt_t(b.notes.as_deref())),
            ("responses", V::t(responses)),
            ("startTime", V::At(b.start)),
            ("endTime", V::At(end)),
            ("location", V::t(if b.video { "integrations:daily" } else { "In person (Main St 1)" })),
            ("createdAt", V::At(b.at - b.at.rem_euclid(1_000))),
            ("updatedAt", V::At(b.at - b.at.rem_euclid(1_000) + r.range(500, 5_000) * 1_000)),
            ("status", V::t(b.status)),
            ("paid", V::B(false)),
            ("metadata", V::t(metadata)),
            ("iCalUID", V::t(format!("{uid}@Cal.com"))),
            ("iCalSequence", V::I(0)),
            ("oneTimePassword", V::t(r.uuid())),
            ("creationSource", V::t(b.source)),
            ("scheduledJobs", V::Raw("'{}'".into())),
        ]);
        if b.retry {
            f.extras.insert(id.to_string());
        }
    }
    f
}
