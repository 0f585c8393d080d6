//! Mastodon (Rails, PostgreSQL): `statuses`, as `PostStatusService` writes
//! them. The id is `timestamp_id('statuses')` (the attempt's milliseconds,
//! shifted, and a sequence); `uri` embeds it; a top-level status builds a new
//! `conversations` row each attempt, a reply inherits its parent's; media
//! ids are `'{}'` on text-only posts. Retries that get through (no
//! Idempotency-Key) are text-only.

use super::{Fixture, Rng, SECOND, T0, V, sentence};

pub const DDL: &str = "
CREATE SEQUENCE statuses_id_seq;
CREATE FUNCTION timestamp_id(table_name text) RETURNS bigint LANGUAGE sql AS
  $$ SELECT (floor(extract(epoch FROM now()) * 1000)::bigint << 16) | (nextval('statuses_id_seq') & 65535) $$;
CREATE TABLE statuses (
  id                           bigint  NOT NULL DEFAULT timestamp_id('statuses'::text) PRIMARY KEY,
  uri                          character varying,
  text                         text    NOT NULL DEFAULT '',
  created_at                   timestamp without time zone NOT NULL,
  updated_at                   timestamp without time zone NOT NULL,
  in_reply_to_id               bigint,
  reblog_of_id                 bigint,
  url                          character varying,
  sensitive                    boolean NOT NULL DEFAULT false,
  visibility                   integer NOT NULL DEFAULT 0,
  spoiler_text                 text    NOT NULL DEFAULT '',
  reply                        boolean NOT NULL DEFAULT false,
  language                     character varying,
  conversation_id              bigint,
  local                        boolean,
  account_id                   bigint  NOT NULL,
  application_id               bigint,
  in_reply_to_account_id       bigint,
  poll_id                      bigint,
  deleted_at                   timestamp without time zone,
  edited_at                    timestamp without time zone,
  trendable                    boolean,
  ordered_media_attachment_ids bigint[],
  fetched_replies_at           timestamp(6) without time zone,
  quote_approval_policy        integer NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX index_statuses_on_uri ON statuses (uri text_pattern_ops) WHERE uri IS NOT NULL;
CREATE INDEX index_statuses_on_account_id ON statuses (account_id);
CREATE INDEX index_statuses_on_conversation_id ON statuses (conversation_id);
CREATE INDEX index_statuses_on_in_reply_to_id ON statuses (in_reply_to_id) WHERE in_reply_to_id IS NOT NULL;";

const COLUMNS: &[&str] = &[
    "id",
    "uri",
    "text",
    "created_at",
    "updated_at",
    "in_reply_to_id",
    "sensitive",
    "visibility",
    "spoiler_text",
    "reply",
    "language",
    "conversation_id",
    "local",
    "account_id",
    "application_id",
    "in_reply_to_account_id",
    "poll_id",
    "ordered_media_attachment_ids",
    "quote_approval_policy",
];

#[derive(Clone)]
struct Status {
    at: i64,
    text: String,
    account: i64,
    app: i64,
    reply_to: Option<(usize, i64)>,
    visibility: i64,
    spoiler: &'static str,
    language: &'static str,
    media: Vec<i64>,
    poll: bool,
    retry: bool,
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(23);
    let mut f = Fixture::new("statuses", COLUMNS);
    let mut statuses: Vec<Status> = Vec::new();
    let mut t = T0;
    let mut media_id = 500_000;
    while statuses.len() < 1_980 {
        t += r.range(30, 1_800) * SECOND;
        let account = 1 + r.skewed(60) as i64;
        let reply_to = (!statuses.is_empty() && r.chance(0.3)).then(|| {
            let i = statuses.len() - 1 - r.below(statuses.len().min(40) as u64) as usize;
            (i, statuses[i].account)
        });
        let visibility = *r.pick(&[0, 0, 0, 0, 0, 0, 0, 1, 1, 2]);
        let n = 5 + r.below(20) as usize;
        let mut text = sentence(&mut r, n);
        if let Some((_, to)) = reply_to {
            text = format!("@user{to} {text}");
        }
        let media: Vec<i64> = if r.chance(0.25) {
            (0..r.range(1, 3))
                .map(|_| {
                    media_id += 1;
                    media_id
                })
                .collect()
        } else {
            Vec::new()
        };
        let status = Status {
            at: t,
            text,
            account,
            app: if r.chance(0.6) { 1 } else { r.range(2, 5) },
            reply_to,
            visibility,
            spoiler: if r.chance(0.08) { r.one(&["CW: politics", "food", "eye contact"]) } else { "" },
            language: r.one(&["en", "en", "en", "en", "en", "en", "en", "en", "de", "fr"]),
            media,
            poll: r.chance(0.05),
            retry: false,
        };
        statuses.push(status.clone());
        // A thread of self-replies, seconds apart: near the post, not a copy.
        if reply_to.is_none() && r.chance(0.02) {
            let parent = statuses.len() - 1;
            let text = sentence(&mut r, 12);
            statuses.push(Status {
                at: t + r.range(3, 4) * SECOND,
                text,
                reply_to: Some((parent, account)),
                media: Vec::new(),
                poll: false,
                ..status.clone()
            });
        }
        // A retry from a client that sends no Idempotency-Key: text only.
        if status.app > 1 && status.media.is_empty() && !status.poll && r.chance(0.025) {
            let at = t + super::client_retry_delay(&mut r);
            statuses.push(Status { at, retry: true, ..status });
        }
    }
    statuses.sort_by_key(|s| s.at);
    let mut conversations = 9_000;
    let mut conversation_of: Vec<i64> = Vec::new();
    let mut ids: Vec<i64> = Vec::new();
    for (seq, s) in statuses.iter().enumerate() {
        let id = ((s.at / 1_000) << 16) | ((seq as i64 * 7 + 13) & 0xFFFF);
        let conversation = match s.reply_to {
            // A reply's parent came before it (its index refers to the order before sorting, kept by time).
            Some((parent, _)) => {
                conversation_of.get(parent.min(conversation_of.len().saturating_sub(1))).copied().unwrap_or(0)
            }
            None => {
                conversations += 1;
                conversations
            }
        };
        conversation_of.push(conversation);
        ids.push(id);
        let in_reply_to = s.reply_to.map(|(parent, _)| ids.get(parent).copied().unwrap_or(id - 1));
        let quote = if s.visibility >= 2 { 0 } else { 131_072 };
        let media = format!("'{{{}}}'", s.media.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
        f.push(&[
            ("id", V::I(id)),
            ("uri", V::t(format!("https://social.example/ap/users/{}/statuses/{id}", s.account))),
            ("text", V::t(&s.text)),
            ("created_at", V::At(s.at)),
            ("updated_at", V::At(s.at)),
            ("in_reply_to_id", V::opt_i(in_reply_to)),
            ("sensitive", V::B(!s.spoiler.is_empty())),
            ("visibility", V::I(s.visibility)),
            ("spoiler_text", V::t(s.spoiler)),
            ("reply", V::B(s.reply_to.is_some())),
            ("language", V::t(s.language)),
            ("conversation_id", V::I(conversation)),
            ("local", V::B(true)),
            ("account_id", V::I(s.account)),
            ("application_id", V::I(s.app)),
            ("in_reply_to_account_id", V::opt_i(s.reply_to.map(|(_, a)| a))),
            ("poll_id", if s.poll { V::I(70_000 + seq as i64) } else { V::Null }),
            ("ordered_media_attachment_ids", V::Raw(media)),
            ("quote_approval_policy", V::I(quote)),
        ]);
        if s.retry {
            f.extras.insert(id.to_string());
        }
    }
    f
}
