//! Baby Buddy (Python, Django 5.2 and Django REST framework; SQLite by default, PostgreSQL): `core_feeding`, as
//! the feeding form ("Stop timer" on a timer's page opens it with `?timer=`), the bottle feeding form, the REST API
//! (`POST /api/feedings/`: the Home Assistant integration, the Android app) and the admin's CSV import write it, and
//! as parents edit and delete feedings afterwards: one household with newborn twins (children 1 and 2, born three
//! weeks before the window), 70 days from October 2026, the history of the first three weeks imported from the
//! tracker they used before.
//! Read: babybuddy/babybuddy (fa8bf4c, v2.10.0) core/models.py (`Feeding`, `Feeding.save`, `Feeding.clean`,
//! `validate_unique_period`, `validate_duration`, `validate_time`, `Timer.stop`, `Tagged`), core/utils.py
//! (`timezone_aware_duration`), core/migrations/ 0001_initial, 0005, 0006, 0008, 0011, 0013, 0020, 0023, 0026,
//! 0035; core/forms.py (`set_initial_values`, `CoreModelForm.save`, `BottleFeedingForm`, `FeedingForm`),
//! core/views.py (`CoreAddView`, `FeedingAdd`, `BottleFeedingAdd`, `FeedingUpdate`, `FeedingDelete`),
//! babybuddy/widgets.py (`DateTimeInput`, step 1), babybuddy/templates/babybuddy/form.html,
//! babybuddy/static_src/js/babybuddy.js (`handleFormSubmit`, the double-submit guard of #1051),
//! api/serializers.py (`CoreModelSerializer.validate` runs `clean()`, `CoreModelWithDurationSerializer`, the
//! `timer` field), api/views.py, core/admin.py (import resources, `clean_model_instances`), docs/import-export.md,
//! core/tests/import/feeding.csv, babybuddy/settings/base.py (`USE_TZ`, `TIME_ZONE` UTC, `DEFAULT_AUTO_FIELD`
//! AutoField, SQLite unless `DB_ENGINE`), etc/gunicorn.py (one sync worker), Pipfile and requirements.txt (Django
//! 5.2.15). jcgoette/baby_buddy_homeassistant (df7fe66) custom_components/babybuddy/client.py (`async_post`: a
//! 10 s timeout, the error logged, no retry), services.py (`__set_common_fields`: `start` and `end` from two calls
//! of `dt_util.now()`, or the child's timer id), const.py. babybuddy/babybuddy-for-android (e1aa79d)
//! timers/TimerControllersV2.kt (`FeedingLoggingController.createEntry`: `start` = the timer's, `end` =
//! `maxDate(start, nowServer())`; `runSave` in `exponentialBackoff` with `forceRetry400 = 5`),
//! networking/babybuddy/RetryLogic.kt, DateHandling.kt (whole seconds), models/TimeEntries.kt (`notes` sent as ""
//! when empty). Issues babybuddy #192, #508, #633, #1013 (top-up bottles after a breastfeed, twins and triplets),
//! babybuddy-for-android #11. The DDL is what Django 5.2.15 makes of those migrations on a fresh install (run in a
//! scratch project): on SQLite 0026's default change rebuilds the table twice, moving `end`, then `start`, last;
//! PostgreSQL gets an identity column. The foreign key to `core_child` is left out (another table).
//! On a create: `id` the next AutoField value; `child_id`, `start`, `end`, `type`, `method`, `amount`, `notes` as
//! posted; `duration` = `end - start` (`Feeding.save`). Before that, `Feeding.clean()` (forms, the API and the
//! import alike) refuses a start in the future, an end before the start, more than 24 h, and any feeding of the same
//! child whose period intersects (`start < other.end and end > other.start`): a zero-length feeding (a bottle) never
//! intersects an equal one. Per path: the timer form: `start` = the timer's start, `end` = the page's render time,
//! both cut to whole seconds by the widget, `notes` NULL when blank; the bottle form: `end` = `start` = the render
//! time (or the time typed: the minute changed, the shown seconds kept), `method` "bottle"; the feeding form with its
//! defaults untouched: `start` = `end`; the Android app: the timer's start and the stop time in whole seconds,
//! `notes` ""; Home Assistant's timer: the timer's start and the server's `now()` in microseconds; its bottle button
//! (no times given): `start` and `end` from two `now()` calls, microseconds apart, `notes` NULL; the import: whole
//! minutes from the CSV, the rows newest first (the other tracker's export order), blank notes "".
//! Later: a feeding is edited in the web form (a timer stopped late gets its end put right; notes added, an amount
//! or a side corrected): the form shows and posts whole seconds, so any edit also cuts a Home Assistant row's
//! microseconds, and `duration` is recomputed. Deletes are hard (the list, or Home Assistant's `delete_last_entry`).
//! No column records when a row was written or changed.
//! Retries: a hung bottle-form POST reloaded and resubmitted ("Confirm Form Resubmission") 10 s to 4 min later, on
//! the home Wi-Fi or when gunicorn's one sync worker is stuck: an exact copy (the double-click was stopped by 2.10's
//! guard, and a retried timed feeding is refused as intersecting, so copies exist only of zero-length entries); the
//! Home Assistant bottle button pressed again after the integration's 10 s timeout left the sensors unchanged: a
//! copy whose `start`/`end` are the new press's `now()`, 15-90 s later (hidden: nothing in the row tells the times
//! were minted per attempt); the Android app's retries (fresh `end`, same `start`) and the integration's timer
//! retries (the timer is gone) are refused, so they leave no row. Two parents logging the same bottle (the second on
//! the bottle form minutes later, the time typed): counted as duplicates, not legitimate, because Baby Buddy refuses
//! a second entry for any feeding with a duration as intersecting ("Another entry intersects the specified time
//! period") and only misses zero-length ones; hidden, the typed time differing. About 2% of creates, a few in the
//! last day; a copy is deleted when noticed on the timeline, or the original instead, or both are left; some
//! originals are edited afterwards.
//! Legitimate repeats: twins fed together: Home Assistant's "feed both" script (the second call milliseconds after
//! the first, other child), the bottle form filled again for the other twin, the import's pairs; cluster feeding in
//! the evenings (short breastfeeds 20-40 minutes apart, same side and app). Plain near-repeats: tandem breastfeeds
//! (one twin on each side), top-up bottles after a breastfeed, a bottle logged for the wrong twin, deleted, and
//! logged again for the other.
//! Guessed: the household, its rhythms, the shares of each path, amounts, notes, durations, how often pages hang and
//! buttons are pressed again; Europe/Berlin (CEST to CET on 25 October); blank CSV notes imported as "" (what
//! django-import-export 4's text widget is said to do). `duration` is given as seconds text: exact
//! as `interval` on PostgreSQL; SQLite stores it as seconds (REAL), where Django writes integer microseconds.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, secs};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::Postgres];

/// Django 5.2 on SQLite: 0001's table, 0011's column, then 0026's two rebuilds (`end`, then `start`, moved last).
const SQLITE: &str = "CREATE TABLE \"core_feeding\" (\"id\" integer NOT NULL PRIMARY KEY AUTOINCREMENT, \
\"end\" datetime NOT NULL, \"duration\" bigint NULL, \"type\" varchar(255) NOT NULL, \"method\" varchar(255) NOT NULL, \
\"amount\" real NULL, \"child_id\" integer NOT NULL, \"notes\" text NULL, \"start\" datetime NOT NULL);
CREATE INDEX \"core_feeding_child_id_3d6de167\" ON \"core_feeding\" (\"child_id\")";

/// Django 5.2 on PostgreSQL (0026 is a no-op there).
const POSTGRES: &str = "CREATE TABLE \"core_feeding\" (\"id\" integer NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS \
IDENTITY, \"start\" timestamp with time zone NOT NULL, \"end\" timestamp with time zone NOT NULL, \
\"duration\" interval NULL, \"type\" varchar(255) NOT NULL, \"method\" varchar(255) NOT NULL, \
\"amount\" double precision NULL, \"child_id\" integer NOT NULL, \"notes\" text NULL);
CREATE INDEX \"core_feeding_child_id_3d6de167\" ON \"core_feeding\" (\"child_id\")";

/// The table as Baby Buddy's migrations leave it on a fresh install.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => SQLITE,
        _ => POSTGRES,
    }
    .to_string()
}

const COLUMNS: &str = "id start end duration type method amount child_id notes";

const DAYS: i64 = 70;
const NOW: i64 = T0 + DAYS * DAY;
/// The twins' birth.
const BIRTH: i64 = T0 - 21 * DAY;
/// 2026-10-25 01:00 UTC: summer time ends in Berlin.
const CET: i64 = T0 + 24 * DAY + HOUR;
/// The admin's CSV import of the first three weeks: 20:42 CEST on the second evening.
const IMPORT_AT: i64 = T0 + DAY + 18 * HOUR + 42 * MINUTE + 17 * SECOND;
/// The first resubmitted bottle form after each of these is left as it is.
const LATE: [i64; 2] = [NOW - 20 * HOUR, NOW - 9 * HOUR];
/// The first Home Assistant bottle after this one times out and is pressed again.
const LATE_HA: [i64; 1] = [NOW - 14 * HOUR];

const NOTES: &[&str] = &[
    "spit up a little",
    "very sleepy, kept dozing off",
    "fussy at the end",
    "hiccups afterwards",
    "good latch",
    "took it slowly",
    "vitamin D drops before",
    "refused the last bit",
    "burped twice",
    "gassy",
    "fell asleep on the breast",
    "pumped milk from the freezer",
    "new teats (size 2)",
    "after the bath",
    "woke up crying",
    "dad fed",
    "grandma fed",
    "a bit of reflux",
    "drank well",
    "pulled off a lot",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Chan {
    /// The Android app's timer.
    Android,
    /// "Stop timer" to the feeding form.
    WebTimer,
    /// Home Assistant: `add_feeding` with `timer: true`.
    HaTimer,
    /// Home Assistant: a button's `add_feeding`, no times given.
    HaButton,
    /// The bottle feeding form.
    Bottle,
    /// The feeding form without a timer.
    Form,
    /// The admin's CSV import.
    Import,
}

#[derive(Clone)]
struct Row {
    uid: usize,
    /// When the create request was handled.
    at: i64,
    child: usize,
    start: i64,
    end: i64,
    typ: &'static str,
    method: &'static str,
    amount: Option<f64>,
    notes: Option<String>,
    chan: Chan,
    /// The create a retry repeats (its own uid for a first attempt).
    grp: usize,
    hidden: bool,
    /// The row this one legitimately repeats: the other twin's, the previous feed of a cluster.
    like: Option<usize>,
    /// A hard delete.
    del: Option<i64>,
    /// Edited after its copy landed.
    edit: bool,
    /// The timer was stopped late and the end put right afterwards.
    late: bool,
}

fn row(
    chan: Chan,
    child: usize,
    (start, end, at): (i64, i64, i64),
    (typ, method): (&'static str, &'static str),
    amount: Option<f64>,
    notes: Option<String>,
) -> Row {
    Row {
        uid: 0,
        at,
        child,
        start,
        end,
        typ,
        method,
        amount,
        notes,
        chan,
        grp: usize::MAX,
        hidden: false,
        like: None,
        del: None,
        edit: false,
        late: false,
    }
}

struct Gen {
    r: Rng,
    v: Vec<Row>,
    late: usize,
    late_ha: usize,
}

impl Gen {
    fn sub(&mut self) -> i64 {
        self.r.below(1_000_000) as i64
    }

    fn add(&mut self, mut x: Row) -> usize {
        let k = self.v.len();
        x.uid = k;
        if x.grp == usize::MAX {
            x.grp = k;
        }
        self.v.push(x);
        k
    }
}

/// Berlin's offset from UTC.
fn offset(t: i64) -> i64 {
    if t < CET { 2 * HOUR } else { HOUR }
}

/// The local hour.
fn hour(t: i64) -> i64 {
    (t + offset(t)).rem_euclid(DAY) / HOUR
}

/// `t` cut to the minute (the same in UTC and in Berlin).
fn minute(t: i64) -> i64 {
    t - t.rem_euclid(MINUTE)
}

/// `duration` as PostgreSQL reads an interval given in seconds.
fn interval(us: i64) -> String {
    if us % SECOND == 0 { format!("{}", us / SECOND) } else { format!("{}.{:06}", us / SECOND, us % SECOND) }
}

fn note(g: &mut Gen, chan: Chan) -> Option<String> {
    let (p, blank) = match chan {
        Chan::Android => (0.08, Some(String::new())),
        Chan::Import => (0.05, Some(String::new())),
        Chan::HaButton | Chan::HaTimer => (0.0, None),
        Chan::Form => (0.15, None),
        _ => (0.07, None),
    };
    if p > 0.0 && g.r.chance(p) { Some(g.r.pick(NOTES).to_string()) } else { blank }
}

/// A bottle's millilitres for the twins' age.
fn amount(g: &mut Gen, age: i64) -> f64 {
    let base = 60 + (age - 21) * 9 / 10;
    let steps = (base + 5) / 10 + g.r.range(-1, 1);
    (steps * 10 + if g.r.chance(0.15) { 5 } else { 0 }) as f64
}

fn bottle_type(g: &mut Gen) -> &'static str {
    ["formula", "breast milk", "fortified breast milk"][g.r.weighted(&[55, 35, 10])]
}

fn p_breast(age: i64) -> f64 {
    0.6 - 0.25 * age as f64 / 91.0
}

/// Start to start, longer at night as the twins grow.
fn gap(g: &mut Gen, t: i64, age: i64) -> i64 {
    let grown = (age - 21).max(0) as f64;
    let mut m = if age < 21 { 120.0 + age as f64 } else { 140.0 + 1.3 * grown };
    let h = hour(t);
    if !(6..23).contains(&h) {
        m *= 1.0 + 0.4 * grown / 70.0;
    }
    (m * (0.75 + 0.5 * g.r.unit()) * 60.0) as i64 * SECOND
}

/// A feeding timed with a timer.
#[allow(clippy::too_many_arguments)]
fn timed(
    g: &mut Gen,
    chan: Chan,
    c: usize,
    t: i64,
    dur: i64,
    typ: &'static str,
    method: &'static str,
    amount: Option<f64>,
    like: Option<usize>,
) -> usize {
    let end_true = t + dur;
    // A timer left running: stopped late, the end put right in the web form later.
    let late = if chan != Chan::Import && like.is_none() && g.r.chance(0.05) {
        g.r.range(8, 50) * MINUTE + g.sub()
    } else {
        0
    };
    let stop = end_true + late;
    let (mut start, mut end, at) = match chan {
        Chan::Android => (secs(t), secs(stop), stop + g.r.range(80_000, 900_000)),
        Chan::WebTimer => (secs(t), secs(stop), stop + g.r.range(5, 40) * SECOND + g.sub()),
        Chan::HaTimer => (t, stop, stop + g.r.range(4_000, 45_000)),
        _ => (minute(t), minute(end_true), IMPORT_AT),
    };
    if late > 0 {
        // The edit form posts whole seconds; the end typed to the minute keeps the seconds it showed.
        start = secs(start);
        end = minute(end_true) + secs(end).rem_euclid(MINUTE);
        if end <= start {
            end = secs(end_true);
        }
    }
    let notes = note(g, chan);
    let mut x = row(chan, c, (start, end, at), (typ, method), amount, notes);
    (x.like, x.late) = (like, late > 0);
    g.add(x)
}

/// A bottle: zero-length from the bottle form and Home Assistant's button, timed from the Android app.
fn bottle(g: &mut Gen, chan: Chan, c: usize, t: i64, typ: &'static str, ml: f64, like: Option<usize>) -> usize {
    let times = match chan {
        Chan::Bottle => {
            if g.r.chance(0.72) {
                // Logged when done: the form's time is when it was opened.
                let open = t + g.r.range(2, 25) * MINUTE + g.sub();
                (secs(open), secs(open), open + g.r.range(10, 70) * SECOND + g.sub())
            } else {
                // Logged later, the time changed to the minute (or typed whole on a laptop).
                let open = t + g.r.range(20, 180) * MINUTE + g.sub();
                let s = minute(t) + if g.r.chance(0.3) { 0 } else { secs(open).rem_euclid(MINUTE) };
                (s, s, open + g.r.range(15, 90) * SECOND + g.sub())
            }
        }
        Chan::HaButton => {
            let s = t + g.r.range(0, 8) * MINUTE + g.r.below(60_000_000) as i64;
            (s, s + g.r.range(6, 70), s + g.r.range(20_000, 300_000))
        }
        Chan::Form => {
            if g.r.chance(0.4) {
                // Both times left at the page's: a zero-length feeding.
                let open = t + g.r.range(3, 30) * MINUTE + g.sub();
                (secs(open), secs(open), open + g.r.range(20, 90) * SECOND + g.sub())
            } else {
                let open = t + g.r.range(25, 240) * MINUTE + g.sub();
                let s = minute(t) + secs(open).rem_euclid(MINUTE);
                let e = s + g.r.range(10, 25) * MINUTE;
                (s, e, open.max(e) + g.r.range(30, 120) * SECOND + g.sub())
            }
        }
        Chan::Android | Chan::WebTimer | Chan::HaTimer => {
            let dur = g.r.range(8 * 60, 25 * 60) * SECOND + g.sub();
            return timed(g, chan, c, t, dur, typ, "bottle", Some(ml), like);
        }
        Chan::Import => (minute(t), minute(t), IMPORT_AT),
    };
    let notes = note(g, chan);
    let mut x = row(chan, c, times, (typ, "bottle"), Some(ml), notes);
    x.like = like;
    let k = g.add(x);
    if chan == Chan::Bottle && g.r.chance(0.008) {
        // Logged for the wrong twin: deleted from the list and logged again for the other.
        let gone = g.v[k].at + g.r.range(60, 1_200) * SECOND + g.sub();
        g.v[k].del = Some(gone);
        let open = gone + g.r.range(20, 90) * SECOND + g.sub();
        let s = minute(g.v[k].start) + secs(open).rem_euclid(MINUTE);
        let again = Row {
            child: 1 - c,
            start: s,
            end: s,
            at: open + g.r.range(10, 40) * SECOND + g.sub(),
            del: None,
            grp: usize::MAX,
            like: None,
            ..g.v[k].clone()
        };
        g.add(again);
        return k;
    }
    retries(g, k);
    k
}

/// What becomes of a retry's copy and its original.
fn fate(g: &mut Gen, orig: usize, copy: usize, forced: bool) {
    if forced {
        return;
    }
    let when = g.v[copy].at + g.r.range(4 * 60, 30 * 3_600) * SECOND + g.sub();
    let x = g.r.below(100);
    if x < 35 {
        g.v[copy].del = Some(when);
    } else if x < 47 {
        g.v[orig].del = Some(g.v[orig].del.map_or(when, |d| d.min(when)));
    } else if g.r.chance(0.15) {
        g.v[orig].edit = true;
    }
}

/// The copies a create may get: a resubmitted form, a button pressed again, the other parent's entry.
fn retries(g: &mut Gen, k: usize) {
    let x = g.v[k].clone();
    let zero = x.start == x.end;
    match x.chan {
        Chan::Bottle | Chan::Form if zero => {
            let forced = g.late < LATE.len() && x.at > LATE[g.late];
            g.late += usize::from(forced);
            if forced || g.r.chance(0.055) {
                // The POST hung; the page reloaded and the form data sent again.
                let wait = if g.r.chance(0.75) { g.r.range(10, 60) } else { g.r.range(60, 240) };
                let at = x.at + wait * SECOND + g.sub();
                let j = g.add(Row { at, grp: x.grp, like: None, del: None, edit: false, ..x.clone() });
                fate(g, k, j, forced);
            }
        }
        Chan::HaButton => {
            let forced = g.late_ha < LATE_HA.len() && x.at > LATE_HA[g.late_ha];
            g.late_ha += usize::from(forced);
            if forced || g.r.chance(0.045) {
                // The integration gave up after 10 s, the sensor did not change: pressed again.
                let s = x.start + 10 * SECOND + g.r.range(5, 80) * SECOND + g.sub();
                let (e, at) = (s + g.r.range(6, 70), s + g.r.range(20_000, 300_000));
                let copy =
                    Row { start: s, end: e, at, grp: x.grp, hidden: true, like: None, del: None, edit: false, ..x };
                let j = g.add(copy);
                fate(g, k, j, forced);
            }
        }
        _ => {}
    }
    let x = g.v[k].clone();
    if matches!(x.chan, Chan::Bottle | Chan::HaButton) && x.end - x.start < SECOND && g.r.chance(0.016) {
        // The other parent logs the same bottle on the bottle form, the time typed from memory.
        let open = x.at + g.r.range(2, 25) * MINUTE + g.sub();
        let s = (minute(x.start + g.r.range(-3, 3) * MINUTE) + secs(open).rem_euclid(MINUTE)).min(secs(open));
        let ml = if g.r.chance(0.8) { x.amount } else { x.amount.map(|a| a + g.r.one(&[-10.0, 10.0])) };
        let at = open + g.r.range(10, 60) * SECOND + g.sub();
        let copy = Row {
            chan: Chan::Bottle,
            start: s,
            end: s,
            at,
            amount: ml,
            notes: None,
            grp: x.grp,
            hidden: true,
            like: None,
            del: None,
            edit: false,
            ..x
        };
        let j = g.add(copy);
        fate(g, k, j, false);
    }
}

/// One twin fed; the start of its last feed.
fn one(g: &mut Gen, c: usize, t: i64, breast: bool, import: bool) -> i64 {
    let age = (t - BIRTH) / DAY;
    if !breast {
        let (typ, ml) = (bottle_type(g), amount(g, age));
        let chan = if import {
            Chan::Import
        } else {
            [Chan::Bottle, Chan::HaButton, Chan::Form, Chan::Android][g.r.weighted(&[45, 30, 10, 15])]
        };
        bottle(g, chan, c, t, typ, ml, None);
        return t;
    }
    let method = ["left breast", "right breast", "both breasts"][g.r.weighted(&[30, 30, 40])];
    let chan =
        if import { Chan::Import } else { [Chan::Android, Chan::WebTimer, Chan::HaTimer][g.r.weighted(&[55, 25, 20])] };
    let dur = g.r.range(8 * 60, 35 * 60) * SECOND + g.sub();
    let k = timed(g, chan, c, t, dur, "breast milk", method, None, None);
    if g.v[k].late {
        return t;
    }
    if !import && (18..23).contains(&hour(t)) && g.r.chance(0.22) {
        // Cluster feeding: short feeds every 20-40 minutes, logged the same way.
        let (mut prev, mut s, mut e) = (k, t, t + dur);
        for _ in 0..g.r.range(1, 3) {
            s = (s + g.r.range(20, 40) * MINUTE).max(e + 3 * MINUTE) + g.sub();
            let d = g.r.range(6 * 60, 15 * 60) * SECOND + g.sub();
            prev = timed(g, chan, c, s, d, "breast milk", method, None, Some(prev));
            e = s + d;
        }
        return s;
    }
    if g.r.chance(0.35) {
        // A top-up bottle after the breast.
        let t2 = t + dur + g.r.range(2, 15) * MINUTE + g.sub();
        let chan2 = if import {
            Chan::Import
        } else if g.r.chance(0.6) {
            Chan::Bottle
        } else {
            Chan::HaButton
        };
        let typ = if g.r.chance(0.7) { "formula" } else { "breast milk" };
        let ml = (g.r.range(2, 6) * 10) as f64;
        bottle(g, chan2, c, t2, typ, ml, None);
    }
    t
}

/// Both twins fed together.
fn pair(g: &mut Gen, t: i64, breast: bool, import: bool) {
    let first = g.r.below(2) as usize;
    let second = 1 - first;
    let age = (t - BIRTH) / DAY;
    if breast {
        // Tandem: one twin on each side, a timer each.
        let (m0, m1) = if g.r.chance(0.5) { ("left breast", "right breast") } else { ("right breast", "left breast") };
        let chan = if import {
            Chan::Import
        } else {
            [Chan::Android, Chan::WebTimer, Chan::HaTimer][g.r.weighted(&[60, 25, 15])]
        };
        let d0 = g.r.range(10 * 60, 35 * 60) * SECOND + g.sub();
        let t1 = t + g.r.range(5, 60) * SECOND + g.sub();
        let d1 = g.r.range(10 * 60, 35 * 60) * SECOND + g.sub();
        timed(g, chan, first, t, d0, "breast milk", m0, None, None);
        timed(g, chan, second, t1, d1, "breast milk", m1, None, None);
        return;
    }
    let typ = bottle_type(g);
    let a = amount(g, age);
    let b = if g.r.chance(0.7) { a } else { a + g.r.one(&[-10.0, 10.0]) };
    let chan =
        if import { Chan::Import } else { [Chan::HaButton, Chan::Bottle, Chan::Android][g.r.weighted(&[40, 45, 15])] };
    let k = bottle(g, chan, first, t, typ, a, None);
    let x = g.v[k].clone();
    let base = Row { child: second, amount: Some(b), like: Some(k), grp: usize::MAX, del: None, edit: false, ..x };
    match chan {
        Chan::HaButton => {
            // The "feed both" script: the second call as soon as the first returned.
            let s = base.at + g.r.range(5_000, 60_000);
            let (e, at) = (s + g.r.range(6, 70), s + g.r.range(20_000, 300_000));
            let j = g.add(Row { start: s, end: e, at, ..base });
            retries(g, j);
        }
        Chan::Bottle => {
            // The bottle form opened again for the other twin: its own time, or the first one's typed again.
            let open = base.at + g.r.range(3, 30) * SECOND + g.sub();
            let s = if base.at - base.start > 20 * MINUTE {
                minute(base.start) + base.start.rem_euclid(MINUTE).min(secs(open).rem_euclid(MINUTE))
            } else {
                secs(open)
            };
            let at = open + g.r.range(10, 50) * SECOND + g.sub();
            let notes = note(g, chan);
            let j = g.add(Row { start: s, end: s, at, notes, ..base });
            retries(g, j);
        }
        Chan::Import => {
            let s = if g.r.chance(0.6) { base.start } else { base.start + g.r.range(1, 12) * MINUTE };
            let notes = note(g, chan);
            g.add(Row { start: s, end: s, notes, ..base });
        }
        _ => {
            let t1 = t + g.r.range(5, 90) * SECOND + g.sub();
            bottle(g, chan, second, t1, typ, b, None);
        }
    }
}

/// Both twins' feeds from `from` to `to`.
fn feeds(g: &mut Gen, from: i64, to: i64, import: bool) {
    let mut due = [from + g.r.range(10, 80) * MINUTE, from + g.r.range(30, 150) * MINUTE];
    loop {
        let c = usize::from(due[1] < due[0]);
        let t = due[c] + g.r.below(60_000_000) as i64;
        if t >= to {
            break;
        }
        let o = 1 - c;
        let age = (t - BIRTH) / DAY;
        let breast = g.r.chance(p_breast(age));
        if due[o] - t < 40 * MINUTE && g.r.chance(0.65) {
            pair(g, t, breast, import);
            due[c] = t + gap(g, t, age);
            due[o] = due[c] + g.r.range(0, 20) * MINUTE;
        } else {
            let last = one(g, c, t, breast, import);
            due[c] = last + gap(g, t, age);
        }
    }
}

pub fn fixture() -> Fixture {
    let mut g = Gen { r: Rng::new(0xBABB_1DD7), v: Vec::new(), late: 0, late_ha: 0 };
    feeds(&mut g, T0 + 20 * MINUTE, NOW - 40 * MINUTE, false);
    let live = g.v.len();
    feeds(&mut g, BIRTH + 5 * HOUR, T0 - 45 * MINUTE, true);
    // The CSV as the old tracker exported it, newest first, imported in one transaction.
    let mut csv: Vec<usize> = (live..g.v.len()).collect();
    csv.sort_by_key(|&k| std::cmp::Reverse((g.v[k].start, g.v[k].child)));
    let mut at = IMPORT_AT;
    for k in csv {
        at += g.r.range(900, 2_500);
        g.v[k].at = at;
    }

    // Later: mistakes deleted, feedings edited in the web form.
    for k in 0..live {
        let x = &g.v[k];
        if x.del.is_none() && g.r.chance(0.006) {
            let when = x.at + g.r.range(60, 600) * SECOND;
            g.v[k].del = Some(when);
        }
        if !(g.v[k].edit || g.r.chance(0.04)) {
            continue;
        }
        let what = g.r.below(3);
        let text = g.r.pick(NOTES).to_string();
        let delta = g.r.one(&[-10.0, -5.0, 5.0, 10.0]);
        let x = &mut g.v[k];
        (x.start, x.end) = (secs(x.start), secs(x.end));
        match what {
            0 if x.amount.is_some() => x.amount = x.amount.map(|a| (a + delta).max(5.0)),
            1 if x.method == "left breast" || x.method == "right breast" => x.method = "both breasts",
            _ => x.notes = Some(text),
        }
    }

    // The server's view, create by create: `clean()` refuses a future start and intersecting periods.
    let n = g.v.len();
    let mut order: Vec<usize> = (0..n).filter(|&k| g.v[k].at < NOW - SECOND).collect();
    order.sort_by_key(|&k| (g.v[k].at, k));
    let mut kept: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut ids = vec![0_i64; n];
    let mut id = 0;
    for &k in &order {
        let x = &g.v[k];
        let clash = kept[x.child].iter().any(|&j| {
            let y = &g.v[j];
            y.del.is_none_or(|d| d > x.at) && y.start < x.end && y.end > x.start
        });
        if clash || x.start > x.at || x.end < x.start {
            continue;
        }
        kept[x.child].push(k);
        id += 1;
        ids[k] = id;
    }
    let present: Vec<bool> = (0..n).map(|k| ids[k] > 0 && g.v[k].del.is_none_or(|d| d >= NOW)).collect();
    let mut liked: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, x) in g.v.iter().enumerate() {
        if let Some(u) = x.like {
            liked[u].push(k);
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("core_feeding", &columns);
    let mut seen: HashSet<usize> = HashSet::new();
    for &k in order.iter().filter(|&&k| present[k]) {
        let x = &g.v[k];
        let same = |u: usize| {
            let y = &g.v[u];
            present[u]
                && ids[u] < ids[k]
                && (y.typ, y.method, y.amount, &y.notes) == (x.typ, x.method, x.amount, &x.notes)
        };
        let first = seen.insert(x.grp);
        let mark = if !first {
            Mark::Retry
        } else if x.like.is_some_and(same) || liked[k].iter().any(|&u| same(u)) {
            Mark::Legit
        } else {
            Mark::Plain
        };
        f.push(&[
            ("id", V::I(ids[k])),
            ("start", V::AtZ(x.start)),
            ("end", V::AtZ(x.end)),
            ("duration", V::t(interval(x.end - x.start))),
            ("type", V::t(x.typ)),
            ("method", V::t(x.method)),
            ("amount", x.amount.map_or(V::Null, V::F)),
            ("child_id", V::I(x.child as i64 + 1)),
            ("notes", V::opt_t(x.notes.as_deref())),
        ]);
        f.mark(ids[k], mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(ids[k].to_string());
        }
    }
    f
}
