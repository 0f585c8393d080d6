//! Uptime Kuma 2.x (Node.js, socket.io, redbean-node over knex; SQLite by default, MariaDB): `monitor`, as the `add`
//! socket handler writes it for the web form (`EditMonitor.vue`) and for a Python onboarding script using
//! uptime-kuma-api: a web agency's instance, fresh at T0, 300 customers imported from the CRM export the first evening,
//! then 56 days of a nightly CRM sync adding new customers and four people adding monitors by hand.
//! Read: louislam/uptime-kuma (6398a95, 2.5.3) server/server.js (`socket.on("add")`, `editMonitor`,
//! `updateMonitorNotification`, `startMonitor`, `checkOwner`), server/model/monitor.js (`start`, `validate`, `toJSON`),
//! server/monitor-types/dns.js (`dns_last_result`), server/database.js (`connect`: `R.freeze(true)`, the template
//! `db/kuma.db`, `patchSqlite`, `patchSqlite2`'s list, `importSQLFile`, `knex.migrate.latest`, one SQLite connection,
//! `acquireConnectionTimeout` 120 s, `initMariaDB`), db/knex_init_db.js, db/old_migrations/*.sql, db/knex_migrations/
//! (every file touching `monitor`: 2023-10-08 to 2026-05-25), src/pages/EditMonitor.vue (`monitorDefaults`,
//! `defaultValueList`, `init`, the `monitor.type` and `monitor.interval` watchers, `defaultFriendlyName`, `submit`, the
//! clone path), package.json (knex 3.1, redbean-node 0.3.3, socket.io 4.8); redbean-node 0.3.3 dist/bean.js (`import`,
//! `dbFieldName`: camelCase to snake_case) and dist/redbean-node.js (`storeCore`: one knex insert of every imported
//! property, frozen); lucasheld/uptime-kuma-api (22ca181) uptime_kuma_api/api.py (`_build_monitor_data`,
//! `_convert_monitor_input`: a 10-character push token per call, `add_monitor` waiting for the monitor list, `_call`
//! with the 10 s `timeout`); BigBoot/AutoKuma#113 (a monitor stored although `add` answered an error, re-created on
//! every sync).
//! DDL: what the code leaves on a new install, got by running it: SQLite, `db/kuma.db` copied, patch1-10 and the patch
//! list applied as `importSQLFile` does, then the knex migrations (knex 3.1.0, sqlite3); MariaDB 10.11, `createTables`
//! of knex_init_db.js then the migrations (mysql2). The foreign keys (to `user`, `docker_host`, `proxy`,
//! `remote_browser` and `parent` to `monitor`) are left out, their indexes kept. No unique index: nothing in the table
//! refuses a second identical monitor.
//! On a create: the handler takes the client's object, JSON-encodes `accepted_statuscodes` (into
//! `accepted_statuscodes_json`), `kafkaProducerBrokers`, `kafkaProducerSaslOptions`, `conditions`, `rabbitmqNodes`
//! (`JSON.stringify(undefined)` leaves a key out, so the column default holds), drops three form-only keys,
//! `bean.import`s the rest (camelCase keys become snake_case columns), sets `user_id` (the one account: 1), validates
//! and `R.store`s it: one INSERT, autocommitted; `id` AUTOINCREMENT, `created_date` the column default
//! (`DATETIME('now')` / `current_timestamp()`, whole seconds), every column the client did not send its default. Then,
//! outside any transaction, `updateMonitorNotification` writes `monitor_notification` rows, the list is sent,
//! `startMonitor` sets `active = 1` and starts checks; only then the callback. A failure in any of these answers `ok`
//! false over a row already committed. There is no lookup for an existing monitor.
//! The web form sends `monitorDefaults` plus `ping_count` 3, `ping_numeric`, `packetSize` 56,
//! `ping_per_request_timeout` 2, and what the type watcher sets on a new monitor (timeout 48, 10 for ping;
//! `snmpVersion` "2c", `jsonPath` "$", `jsonPathOperator` "==", port 53 for DNS, `dns_resolve_server` 1.1.1.1 for DNS,
//! a 32-character push token when the type becomes push, kept in the form); `url` stays "https://" on types without
//! one; `submit` nulls `httpBodyEncoding` for types other than http/keyword/json-query and names an unnamed monitor
//! after its hostname or URL host. The form is locked (`processing`, the button disabled) from Save to the answer: no
//! double submit reaches the server. Tags are written after an `ok` answer only. The script (uptime-kuma-api's
//! `add_monitor`) sends its own set: maxretries 1, `httpBodyEncoding` "json" on every type, `authMethod` "",
//! `dns_resolve_server` 1.1.1.1, empty MQTT strings, timeout 48, `packetSize` 56, `description` and `url` null where
//! not given; the columns it does not send keep their defaults (`location` NULL, `ping_count` 1,
//! `domain_expiry_notification` 0, `json_path` NULL...).
//! Later: `dns_last_result` is written by the DNS check ("Records: ip"); people edit monitors (interval, description,
//! name, through `editMonitor`), pause them (`active` 0) and delete them, and delete a churned customer's monitors.
//! Retries (about 3% of the creates; none sub-second, the form being locked): (1) the web form: the row is stored, then
//! `updateMonitorNotification` or `startMonitor` fails (the single SQLite connection held past knex's pool wait by a
//! long write), the error toast shows, the form still filled, Save is pressed again 4-40 s later; twice, a default
//! notification deleted in another browser makes every save fail at `monitor_notification`'s foreign key after the
//! insert: two or three saves 3-15 s apart, then a reload and the form typed again. Each copy is the same object (same
//! push token, the form's); (2) the script: `add` unanswered after 10 s (the server stalled), the call retried 2 s
//! later, sometimes a third time; the stalled first insert lands before the retry, or both wait in the same queue and
//! land ms apart; each attempt has a fresh 10-character push token; a retried group keeps no children (they go to the
//! id the last, answered attempt returned). Three in the last day, not yet noticed. Afterwards people find the pairs in
//! the list: one deleted (the form's original, which has no tags; the script's copy, or its original group, which has
//! no children), one paused, one edited (then hidden), or both left.
//! Legitimate repeats: customers listed twice in the CRM export (two contracts): their group is created twice, seconds
//! apart, alike (their monitors differ by `parent`); the same outside check (www.google.com, 1.1.1.1, 9.9.9.9) added by
//! two people days apart in the form.
//! Guessed: the agency, customers, domains, plans, monitor mix, staff and rates; that the script (written for 1.23)
//! works against 2.x on SQLite (on MariaDB its create would fail: `conditions` is TEXT NOT NULL without a default
//! there); the stall and failure rates; the type watcher firing on a new form; the form's `domainExpiryNotification`
//! left on for every type; the four people sharing the one account; what people do later.
use std::collections::{BTreeMap, HashMap, HashSet};

use super::{DAY, Fixture, HOUR, Mark, Rng, SECOND, T0, V, weekday};
use crate::common::Engine;

const SQLITE: &str = r#"CREATE TABLE IF NOT EXISTS "monitor" (
    `id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` VARCHAR(150), `active` BOOLEAN NOT NULL DEFAULT 1,
    `user_id` INTEGER, `interval` INTEGER NOT NULL DEFAULT 20, `url` TEXT, `type` VARCHAR(20),
    `weight` INTEGER DEFAULT 2000, `hostname` VARCHAR(255), `port` INTEGER,
    `created_date` DATETIME NOT NULL DEFAULT (DATETIME('now')), `keyword` VARCHAR(255),
    `maxretries` INTEGER NOT NULL DEFAULT 0, `ignore_tls` BOOLEAN NOT NULL DEFAULT 0,
    `upside_down` BOOLEAN NOT NULL DEFAULT 0, `maxredirects` INTEGER NOT NULL DEFAULT 10,
    `accepted_statuscodes_json` TEXT NOT NULL DEFAULT '["200-299"]', `dns_resolve_type` VARCHAR(5),
    `dns_resolve_server` VARCHAR(255), `dns_last_result` text, `retry_interval` INTEGER NOT NULL DEFAULT 0,
    `push_token` varchar(32), `method` TEXT NOT NULL DEFAULT 'GET', `body` TEXT DEFAULT null,
    `headers` TEXT DEFAULT null, `basic_auth_user` TEXT DEFAULT null, `basic_auth_pass` TEXT DEFAULT null,
    `docker_host` INTEGER, `docker_container` VARCHAR(255), `proxy_id` INTEGER,
    `expiry_notification` BOOLEAN DEFAULT 1, `mqtt_topic` TEXT, `mqtt_success_message` VARCHAR(255),
    `mqtt_username` VARCHAR(255), `mqtt_password` VARCHAR(255), `database_connection_string` VARCHAR(2000),
    `database_query` TEXT, `auth_method` VARCHAR(250), `auth_domain` TEXT, `auth_workstation` TEXT,
    `grpc_url` VARCHAR(255) DEFAULT null, `grpc_protobuf` TEXT DEFAULT null, `grpc_body` TEXT DEFAULT null,
    `grpc_metadata` TEXT DEFAULT null, `grpc_method` VARCHAR(255) DEFAULT null,
    `grpc_service_name` VARCHAR(255) DEFAULT null, `grpc_enable_tls` BOOLEAN NOT NULL DEFAULT 0,
    `radius_username` VARCHAR(255), `radius_password` VARCHAR(255), `radius_calling_station_id` VARCHAR(50),
    `radius_called_station_id` VARCHAR(50), `radius_secret` VARCHAR(255),
    `resend_interval` INTEGER NOT NULL DEFAULT 0, `packet_size` INTEGER NOT NULL DEFAULT 56,
    `game` VARCHAR(255), `http_body_encoding` VARCHAR(25), `description` TEXT DEFAULT null,
    `tls_ca` TEXT DEFAULT null, `tls_cert` TEXT DEFAULT null, `tls_key` TEXT DEFAULT null, `parent` INTEGER,
    `invert_keyword` BOOLEAN NOT NULL DEFAULT 0, `json_path` TEXT, `expected_value` VARCHAR(255),
    `kafka_producer_topic` VARCHAR(255), `kafka_producer_brokers` TEXT, `kafka_producer_sasl_options` TEXT,
    `kafka_producer_message` TEXT, `oauth_client_id` TEXT DEFAULT null,
    `oauth_client_secret` TEXT DEFAULT null, `oauth_token_url` TEXT DEFAULT null,
    `oauth_scopes` TEXT DEFAULT null, `oauth_auth_method` TEXT DEFAULT null,
    `timeout` DOUBLE NOT NULL DEFAULT 0, `gamedig_given_port_only` BOOLEAN NOT NULL DEFAULT 1,
    `kafka_producer_ssl` BOOLEAN NOT NULL DEFAULT 0,
    `kafka_producer_allow_auto_topic_creation` BOOLEAN NOT NULL DEFAULT 0,
    `mqtt_check_type` varchar(255) NOT NULL DEFAULT 'keyword', `remote_browser` integer NULL DEFAULT null,
    `snmp_oid` varchar(255) DEFAULT null,
    `snmp_version` text CHECK (`snmp_version` in('1' , '2c' , '3')) DEFAULT '2c',
    `json_path_operator` varchar(255) DEFAULT null, `cache_bust` boolean NOT NULL DEFAULT '0',
    `conditions` text NOT NULL DEFAULT '[]', `rabbitmq_nodes` text, `rabbitmq_username` varchar(255),
    `rabbitmq_password` varchar(255), `smtp_security` varchar(255) DEFAULT null,
    `ws_ignore_sec_websocket_accept_header` boolean NOT NULL DEFAULT '0',
    `ws_subprotocol` varchar(255) NOT NULL DEFAULT '', `ping_count` integer NOT NULL DEFAULT '1',
    `ping_numeric` boolean NOT NULL DEFAULT '1', `ping_per_request_timeout` integer NOT NULL DEFAULT '2',
    `ip_family` varchar(4) DEFAULT null, `manual_status` integer,
    `oauth_audience` varchar(255) NULL DEFAULT null, `mqtt_websocket_path` varchar(255) NULL,
    `domain_expiry_notification` boolean DEFAULT '0', `save_response` boolean NOT NULL DEFAULT '0',
    `save_error_response` boolean NOT NULL DEFAULT '1', `response_max_length` integer NOT NULL DEFAULT '1024',
    `system_service_name` varchar(255), `subtype` varchar(10) NULL, `location` varchar(255) NULL,
    `protocol` varchar(20) NULL, `snmp_v3_username` varchar(255),
    `expected_tls_alert` varchar(50) DEFAULT null,
    `retry_only_on_status_code_failure` boolean NOT NULL DEFAULT '0',
    `screenshot_delay` integer NOT NULL DEFAULT '0', `ntp_stratum_threshold` integer default '5',
    `ntp_time_offset_threshold` integer default '1000', `ntp_root_dispersion_threshold` integer default '500',
    `bearer_token` text default null, `gamedig_token` text default null
);
CREATE INDEX user_id on monitor (user_id);
CREATE INDEX proxy_id ON monitor (proxy_id);
CREATE INDEX `monitor_remote_browser_index` on `monitor` (`remote_browser`)"#;

const MARIADB: &str = r#"CREATE TABLE `monitor` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `name` varchar(150) DEFAULT NULL,
  `active` tinyint(1) NOT NULL DEFAULT 1,
  `user_id` int(10) unsigned DEFAULT NULL,
  `interval` int(11) NOT NULL DEFAULT 20,
  `url` text DEFAULT NULL,
  `type` varchar(20) DEFAULT NULL,
  `weight` int(11) DEFAULT 2000,
  `hostname` varchar(255) DEFAULT NULL,
  `port` int(11) DEFAULT NULL,
  `created_date` datetime NOT NULL DEFAULT current_timestamp(),
  `keyword` varchar(255) DEFAULT NULL,
  `maxretries` int(11) NOT NULL DEFAULT 0,
  `ignore_tls` tinyint(1) NOT NULL DEFAULT 0,
  `upside_down` tinyint(1) NOT NULL DEFAULT 0,
  `maxredirects` int(11) NOT NULL DEFAULT 10,
  `accepted_statuscodes_json` text NOT NULL,
  `dns_resolve_type` varchar(5) DEFAULT NULL,
  `dns_resolve_server` varchar(255) DEFAULT NULL,
  `dns_last_result` text DEFAULT NULL,
  `retry_interval` int(11) NOT NULL DEFAULT 0,
  `push_token` varchar(32) DEFAULT NULL,
  `method` text NOT NULL,
  `body` text DEFAULT NULL,
  `headers` text DEFAULT NULL,
  `basic_auth_user` text DEFAULT NULL,
  `basic_auth_pass` text DEFAULT NULL,
  `docker_host` int(10) unsigned DEFAULT NULL,
  `docker_container` varchar(255) DEFAULT NULL,
  `proxy_id` int(10) unsigned DEFAULT NULL,
  `expiry_notification` tinyint(1) DEFAULT 1,
  `mqtt_topic` text DEFAULT NULL,
  `mqtt_success_message` varchar(255) DEFAULT NULL,
  `mqtt_username` varchar(255) DEFAULT NULL,
  `mqtt_password` varchar(255) DEFAULT NULL,
  `database_connection_string` varchar(2000) DEFAULT NULL,
  `database_query` text DEFAULT NULL,
  `auth_method` varchar(250) DEFAULT NULL,
  `auth_domain` text DEFAULT NULL,
  `auth_workstation` text DEFAULT NULL,
  `grpc_url` varchar(255) DEFAULT NULL,
  `grpc_protobuf` text DEFAULT NULL,
  `grpc_body` text DEFAULT NULL,
  `grpc_metadata` text DEFAULT NULL,
  `grpc_method` text DEFAULT NULL,
  `grpc_service_name` text DEFAULT NULL,
  `grpc_enable_tls` tinyint(1) NOT NULL DEFAULT 0,
  `radius_username` varchar(255) DEFAULT NULL,
  `radius_password` varchar(255) DEFAULT NULL,
  `radius_calling_station_id` varchar(50) DEFAULT NULL,
  `radius_called_station_id` varchar(50) DEFAULT NULL,
  `radius_secret` varchar(255) DEFAULT NULL,
  `resend_interval` int(11) NOT NULL DEFAULT 0,
  `packet_size` int(11) NOT NULL DEFAULT 56,
  `game` varchar(255) DEFAULT NULL,
  `http_body_encoding` varchar(25) DEFAULT NULL,
  `description` text DEFAULT NULL,
  `tls_ca` text DEFAULT NULL,
  `tls_cert` text DEFAULT NULL,
  `tls_key` text DEFAULT NULL,
  `parent` int(10) unsigned DEFAULT NULL,
  `invert_keyword` tinyint(1) NOT NULL DEFAULT 0,
  `json_path` text DEFAULT NULL,
  `expected_value` varchar(255) DEFAULT NULL,
  `kafka_producer_topic` varchar(255) DEFAULT NULL,
  `kafka_producer_brokers` text DEFAULT NULL,
  `kafka_producer_ssl` tinyint(1) NOT NULL DEFAULT 0,
  `kafka_producer_allow_auto_topic_creation` tinyint(1) NOT NULL DEFAULT 0,
  `kafka_producer_sasl_options` text DEFAULT NULL,
  `kafka_producer_message` text DEFAULT NULL,
  `oauth_client_id` text DEFAULT NULL,
  `oauth_client_secret` text DEFAULT NULL,
  `oauth_token_url` text DEFAULT NULL,
  `oauth_scopes` text DEFAULT NULL,
  `oauth_auth_method` text DEFAULT NULL,
  `timeout` double NOT NULL DEFAULT 0,
  `gamedig_given_port_only` tinyint(1) NOT NULL DEFAULT 1,
  `mqtt_check_type` varchar(255) NOT NULL DEFAULT 'keyword',
  `remote_browser` int(10) unsigned DEFAULT NULL,
  `snmp_oid` varchar(255) DEFAULT NULL,
  `snmp_version` enum('1','2c','3') DEFAULT '2c',
  `json_path_operator` varchar(255) DEFAULT NULL,
  `cache_bust` tinyint(1) NOT NULL DEFAULT 0,
  `conditions` text NOT NULL,
  `rabbitmq_nodes` text DEFAULT NULL,
  `rabbitmq_username` varchar(255) DEFAULT NULL,
  `rabbitmq_password` varchar(255) DEFAULT NULL,
  `smtp_security` varchar(255) DEFAULT NULL,
  `ws_ignore_sec_websocket_accept_header` tinyint(1) NOT NULL DEFAULT 0,
  `ws_subprotocol` varchar(255) NOT NULL DEFAULT '',
  `ping_count` int(11) NOT NULL DEFAULT 1,
  `ping_numeric` tinyint(1) NOT NULL DEFAULT 1,
  `ping_per_request_timeout` int(11) NOT NULL DEFAULT 2,
  `ip_family` varchar(4) DEFAULT NULL,
  `manual_status` smallint(6) DEFAULT NULL,
  `oauth_audience` varchar(255) DEFAULT NULL,
  `mqtt_websocket_path` varchar(255) DEFAULT NULL,
  `domain_expiry_notification` tinyint(1) DEFAULT 0,
  `save_response` tinyint(1) NOT NULL DEFAULT 0,
  `save_error_response` tinyint(1) NOT NULL DEFAULT 1,
  `response_max_length` int(11) NOT NULL DEFAULT 1024,
  `system_service_name` varchar(255) DEFAULT NULL,
  `subtype` varchar(10) DEFAULT NULL,
  `location` varchar(255) DEFAULT NULL,
  `protocol` varchar(20) DEFAULT NULL,
  `snmp_v3_username` varchar(255) DEFAULT NULL,
  `expected_tls_alert` varchar(50) DEFAULT NULL,
  `retry_only_on_status_code_failure` tinyint(1) NOT NULL DEFAULT 0,
  `screenshot_delay` int(10) unsigned NOT NULL DEFAULT 0,
  `ntp_stratum_threshold` int(11) DEFAULT 5,
  `ntp_time_offset_threshold` int(11) DEFAULT 1000,
  `ntp_root_dispersion_threshold` int(11) DEFAULT 500,
  `bearer_token` text DEFAULT NULL,
  `gamedig_token` text DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `monitor_user_id_foreign` (`user_id`),
  KEY `monitor_docker_host_foreign` (`docker_host`),
  KEY `monitor_proxy_id_foreign` (`proxy_id`),
  KEY `monitor_parent_foreign` (`parent`),
  KEY `monitor_remote_browser_index` (`remote_browser`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"#;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => SQLITE,
        Engine::MySql => MARIADB,
        Engine::Postgres => unreachable!("Uptime Kuma supports SQLite and MariaDB only"),
    }
    .to_string()
}

const COLUMNS: &str = "id name active user_id interval url type weight hostname port created_date keyword maxretries \
    ignore_tls upside_down maxredirects accepted_statuscodes_json dns_resolve_type dns_resolve_server dns_last_result \
    retry_interval push_token method body headers basic_auth_user basic_auth_pass docker_host docker_container \
    proxy_id expiry_notification mqtt_topic mqtt_success_message mqtt_username mqtt_password \
    database_connection_string database_query auth_method auth_domain auth_workstation grpc_url grpc_protobuf \
    grpc_body grpc_metadata grpc_method grpc_service_name grpc_enable_tls radius_username radius_password \
    radius_calling_station_id radius_called_station_id radius_secret resend_interval packet_size game \
    http_body_encoding description tls_ca tls_cert tls_key parent invert_keyword json_path expected_value \
    kafka_producer_topic kafka_producer_brokers kafka_producer_sasl_options kafka_producer_message oauth_client_id \
    oauth_client_secret oauth_token_url oauth_scopes oauth_auth_method timeout gamedig_given_port_only \
    kafka_producer_ssl kafka_producer_allow_auto_topic_creation mqtt_check_type remote_browser snmp_oid snmp_version \
    json_path_operator cache_bust conditions rabbitmq_nodes rabbitmq_username rabbitmq_password smtp_security \
    ws_ignore_sec_websocket_accept_header ws_subprotocol ping_count ping_numeric ping_per_request_timeout ip_family \
    manual_status oauth_audience mqtt_websocket_path domain_expiry_notification save_response save_error_response \
    response_max_length system_service_name subtype location protocol snmp_v3_username expected_tls_alert \
    retry_only_on_status_code_failure screenshot_delay ntp_stratum_threshold ntp_time_offset_threshold \
    ntp_root_dispersion_threshold bearer_token gamedig_token";

/// The columns' defaults (SQLite's; MariaDB's alike where it has one), which a column the client leaves out keeps.
fn defaults() -> Vec<(&'static str, V)> {
    let mut d: Vec<(&'static str, V)> = vec![
        ("active", V::I(1)),
        ("interval", V::I(20)),
        ("weight", V::I(2000)),
        ("maxretries", V::I(0)),
        ("ignore_tls", V::I(0)),
        ("upside_down", V::I(0)),
        ("maxredirects", V::I(10)),
        ("accepted_statuscodes_json", V::t(r#"["200-299"]"#)),
        ("retry_interval", V::I(0)),
        ("method", V::t("GET")),
        ("expiry_notification", V::I(1)),
        ("grpc_enable_tls", V::I(0)),
        ("resend_interval", V::I(0)),
        ("packet_size", V::I(56)),
        ("invert_keyword", V::I(0)),
        ("timeout", V::F(0.0)),
        ("gamedig_given_port_only", V::I(1)),
        ("kafka_producer_ssl", V::I(0)),
        ("kafka_producer_allow_auto_topic_creation", V::I(0)),
        ("mqtt_check_type", V::t("keyword")),
        ("snmp_version", V::t("2c")),
        ("cache_bust", V::I(0)),
        ("conditions", V::t("[]")),
        ("ws_ignore_sec_websocket_accept_header", V::I(0)),
        ("ws_subprotocol", V::t("")),
        ("ping_count", V::I(1)),
        ("ping_numeric", V::I(1)),
        ("ping_per_request_timeout", V::I(2)),
        ("domain_expiry_notification", V::I(0)),
        ("save_response", V::I(0)),
        ("save_error_response", V::I(1)),
        ("response_max_length", V::I(1024)),
        ("retry_only_on_status_code_failure", V::I(0)),
        ("screenshot_delay", V::I(0)),
        ("ntp_stratum_threshold", V::I(5)),
        ("ntp_time_offset_threshold", V::I(1000)),
        ("ntp_root_dispersion_threshold", V::I(500)),
    ];
    d.push(("user_id", V::I(1)));
    d
}

fn set(row: &mut Vec<(&'static str, V)>, col: &'static str, v: V) {
    match row.iter_mut().find(|(c, _)| *c == col) {
        Some(slot) => slot.1 = v,
        None => row.push((col, v)),
    }
}

fn get<'a>(row: &'a [(&'static str, V)], col: &str) -> Option<&'a V> {
    row.iter().find(|(c, _)| *c == col).map(|(_, v)| v)
}

const START: i64 = T0;
const DAYS: i64 = 56;
const NOW: i64 = START + DAYS * DAY;

/// What a monitor checks, as a person or the script asks for it.
#[derive(Clone)]
struct Want {
    ty: &'static str,
    name: String,
    url: Option<String>,
    hostname: Option<String>,
    port: Option<i64>,
    keyword: Option<String>,
    interval: i64,
    docker: Option<(i64, String)>,
    /// A monitor of `mons` (a group), by index.
    parent: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chan {
    Form,
    Script,
}

#[derive(Clone)]
struct Mon {
    at: i64,
    seq: usize,
    chan: Chan,
    want: Want,
    push: Option<String>,
    /// Retry group: the first attempt's index.
    grp: usize,
    retry: bool,
    alive: bool,
    active: bool,
    /// Later edits through `editMonitor`.
    interval: Option<i64>,
    description: Option<String>,
    rename: Option<String>,
    /// The customer it belongs to (for churn).
    customer: Option<usize>,
}

impl Mon {
    fn new(at: i64, chan: Chan, want: Want, push: Option<String>, customer: Option<usize>) -> Mon {
        Mon {
            at,
            seq: 0,
            chan,
            want,
            push,
            grp: usize::MAX,
            retry: false,
            alive: true,
            active: true,
            interval: None,
            description: None,
            rename: None,
            customer,
        }
    }
}

/// `genSecret`: letters and digits.
fn secret(r: &mut Rng, n: usize) -> String {
    r.alnum(n)
}

/// The row the `add` handler inserts for this request.
fn request_row(m: &Mon) -> Vec<(&'static str, V)> {
    let w = &m.want;
    let mut row = defaults();
    let s = |x: &Option<String>| x.as_deref().map_or(V::Null, V::t);
    set(&mut row, "type", V::t(w.ty));
    set(&mut row, "name", V::t(&w.name));
    set(&mut row, "interval", V::I(w.interval));
    set(&mut row, "retry_interval", V::I(w.interval));
    set(&mut row, "resend_interval", V::I(0));
    set(&mut row, "upside_down", V::I(0));
    set(&mut row, "maxredirects", V::I(10));
    set(&mut row, "accepted_statuscodes_json", V::t(r#"["200-299"]"#));
    set(&mut row, "ignore_tls", V::I(0));
    set(&mut row, "expiry_notification", V::I(0));
    set(&mut row, "method", V::t("GET"));
    set(&mut row, "hostname", s(&w.hostname));
    set(&mut row, "port", w.port.map_or(V::Null, V::I));
    set(&mut row, "dns_resolve_type", V::t("A"));
    set(&mut row, "packet_size", V::I(56));
    if let Some(k) = &w.keyword {
        set(&mut row, "keyword", V::t(k));
        set(&mut row, "invert_keyword", V::I(0));
    }
    if let Some(p) = &m.push {
        set(&mut row, "push_token", V::t(p));
    }
    let http_like = matches!(w.ty, "http" | "keyword" | "json-query");
    match m.chan {
        Chan::Form => {
            let timeout = if w.ty == "ping" { 10.0 } else { 48.0 };
            set(&mut row, "url", V::t(w.url.clone().unwrap_or_else(|| "https://".into())));
            set(&mut row, "ws_subprotocol", V::t(""));
            set(&mut row, "location", V::t("world"));
            set(&mut row, "maxretries", V::I(0));
            set(&mut row, "retry_only_on_status_code_failure", V::I(0));
            set(&mut row, "domain_expiry_notification", V::I(1));
            set(&mut row, "save_response", V::I(0));
            set(&mut row, "save_error_response", V::I(1));
            set(&mut row, "response_max_length", V::I(1024));
            set(&mut row, "dns_resolve_server", V::t(if w.ty == "dns" { "1.1.1.1" } else { "" }));
            let (host, container) = match &w.docker {
                Some((h, c)) => (V::I(*h), V::t(c)),
                None => (V::Null, V::t("")),
            };
            set(&mut row, "docker_container", container);
            set(&mut row, "docker_host", host);
            for col in [
                "basic_auth_user",
                "basic_auth_pass",
                "bearer_token",
                "mqtt_username",
                "mqtt_password",
                "mqtt_topic",
                "mqtt_websocket_path",
                "mqtt_success_message",
                "gamedig_token",
                "rabbitmq_username",
                "rabbitmq_password",
                "system_service_name",
            ] {
                set(&mut row, col, V::t(""));
            }
            set(&mut row, "mqtt_check_type", V::t("keyword"));
            set(&mut row, "oauth_auth_method", V::t("client_secret_basic"));
            set(&mut row, "http_body_encoding", if http_like { V::t("json") } else { V::Null });
            set(&mut row, "kafka_producer_brokers", V::t("[]"));
            set(&mut row, "kafka_producer_sasl_options", V::t(r#"{"mechanism":"None"}"#));
            set(&mut row, "rabbitmq_nodes", V::t("[]"));
            set(&mut row, "conditions", V::t("[]"));
            set(&mut row, "ping_count", V::I(3));
            set(&mut row, "ping_numeric", V::I(1));
            set(&mut row, "ping_per_request_timeout", V::I(2));
            set(&mut row, "timeout", V::F(timeout));
            set(&mut row, "snmp_version", V::t("2c"));
            set(&mut row, "json_path", V::t("$"));
            set(&mut row, "json_path_operator", V::t("=="));
        }
        Chan::Script => {
            set(&mut row, "url", s(&w.url));
            set(&mut row, "maxretries", V::I(1));
            set(&mut row, "http_body_encoding", V::t("json"));
            set(&mut row, "auth_method", V::t(""));
            set(&mut row, "timeout", V::F(48.0));
            set(&mut row, "dns_resolve_server", V::t("1.1.1.1"));
            for col in ["mqtt_username", "mqtt_password", "mqtt_topic", "mqtt_success_message"] {
                set(&mut row, col, V::t(""));
            }
        }
    }
    row
}

const NAMES: &[&str] = &[
    "Schmidt",
    "Weber",
    "Fischer",
    "Wagner",
    "Becker",
    "Hoffmann",
    "Koch",
    "Richter",
    "Klein",
    "Wolf",
    "Neumann",
    "Schwarz",
    "Braun",
    "Zimmermann",
    "Hartmann",
    "Lange",
    "Werner",
    "Krause",
    "Lehmann",
    "Schmitt",
    "Meier",
    "Huber",
    "Kaiser",
    "Fuchs",
    "Peters",
    "Vogel",
    "Jung",
    "Roth",
    "Frank",
    "Berger",
];
const TRADES: &[&str] = &[
    "Dental",
    "Immobilien",
    "Bau",
    "Steuerberatung",
    "Autohaus",
    "Elektro",
    "Physio",
    "Optik",
    "Reisen",
    "Consulting",
    "Gartenbau",
    "Hotel",
    "Tischlerei",
    "Kanzlei",
];
const TLDS: &[&str] = &["de", "de", "de", "de", "com", "at", "ch", "eu"];
const PAGES: &[(&str, &str)] =
    &[("kontakt", "Kontakt"), ("impressum", "Impressum"), ("termine", "Termin"), ("jobs", "Stellenangebote")];
const JOBS: &[&str] = &["backup-db", "backup-files", "certbot-renew", "logrotate", "restic-check", "mysqldump"];
const CONTAINERS: &[&str] =
    &["traefik", "mariadb", "redis", "nextcloud", "gitea", "mailcow-postfix", "matomo", "n8n", "minio", "plausible"];

struct Customer {
    name: String,
    domain: String,
    interval: i64,
    shop: bool,
    dns: bool,
    mail: bool,
    backup: bool,
    /// The group's index in `mons`, once created.
    group: Option<usize>,
}

fn customers(r: &mut Rng, n: usize) -> Vec<Customer> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < n {
        let (a, b) = (*r.pick(NAMES), *r.pick(TRADES));
        if !seen.insert((a, b)) {
            continue;
        }
        let tld = *r.pick(TLDS);
        let domain = format!("{}-{}.{tld}", a.to_lowercase(), b.to_lowercase());
        out.push(Customer {
            name: format!("{a} {b}"),
            domain,
            interval: if r.chance(0.3) { 60 } else { 300 },
            shop: r.chance(0.3),
            dns: r.chance(0.6),
            mail: r.chance(0.4),
            backup: r.chance(0.5),
            group: None,
        });
    }
    out
}

/// The script's requests for one customer, in order: the group first (its children's parent is set when it lands).
fn customer_wants(c: &Customer) -> Vec<(Want, bool)> {
    let base = |ty: &'static str, name: String| Want {
        ty,
        name,
        url: None,
        hostname: None,
        port: None,
        keyword: None,
        interval: c.interval,
        docker: None,
        parent: None,
    };
    let mut v = vec![(base("group", c.name.clone()), false)];
    v.push((
        Want { url: Some(format!("https://www.{}/", c.domain)), ..base("http", format!("{} Website", c.name)) },
        false,
    ));
    if c.shop {
        v.push((
            Want {
                url: Some(format!("https://shop.{}/", c.domain)),
                keyword: Some("Warenkorb".into()),
                ..base("keyword", format!("{} Shop", c.name))
            },
            false,
        ));
    }
    if c.dns {
        v.push((
            Want { hostname: Some(c.domain.clone()), port: Some(53), ..base("dns", format!("{} DNS", c.name)) },
            false,
        ));
    }
    if c.mail {
        v.push((
            Want {
                hostname: Some(format!("mail.{}", c.domain)),
                port: Some(587),
                ..base("port", format!("{} Mail", c.name))
            },
            false,
        ));
    }
    if c.backup {
        v.push((Want { interval: 86_400, ..base("push", format!("{} Backup", c.name)) }, true));
    }
    v
}

/// An IPv4 address for a host name, stable.
fn ip_of(host: &str) -> String {
    let h = host.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!(
        "{}.{}.{}.{}",
        [85, 94, 116, 178, 212][(h % 5) as usize],
        (h >> 8) % 256,
        (h >> 16) % 256,
        1 + (h >> 24) % 254
    )
}

/// Runs the onboarding script over `list` from `at`: each `add_monitor` call, its retries when the server stalls.
fn run_script(
    r: &mut Rng,
    mons: &mut Vec<Mon>,
    cs: &mut [Customer],
    list: &[usize],
    mut at: i64,
    stall: f64,
    force_retry: bool,
) {
    let mut forced = !force_retry;
    for &ci in list {
        let wants = customer_wants(&cs[ci]);
        let mut group: Option<usize> = None;
        for (mut want, push) in wants {
            if want.ty != "group" {
                want.parent = group;
            }
            at += r.range(250, 1_400) * 1_000;
            let first = mons.len();
            let token = |r: &mut Rng| if push { Some(secret(r, 10)) } else { None };
            let p = token(r);
            let stalled = r.chance(stall) || (!forced && want.ty != "group");
            if !stalled {
                let mut m = Mon::new(at, Chan::Script, want, p, Some(ci));
                m.grp = first;
                mons.push(m);
                if mons[first].want.ty == "group" {
                    group = Some(first);
                }
                continue;
            }
            forced = true;
            // The first call times out after 10 s; the retry is sent 2 s later, a third 14 s after that.
            let attempts = if r.chance(0.25) { 3 } else { 2 };
            let queued = r.chance(0.4);
            let mut last = first;
            for k in 0..attempts {
                let sent = at + k * 12 * SECOND + i64::from(k == 2) * 2 * SECOND;
                let landed = if k == 0 {
                    if queued { at + r.range(12_500, 25_000) * 1_000 } else { at + r.range(1_500, 9_800) * 1_000 }
                } else if queued && k == 1 {
                    // Waiting behind the first in the same queue.
                    mons[first].at + r.range(5, 300) * 1_000
                } else {
                    sent + r.range(40, 900) * 1_000
                };
                let tok = if k == 0 { p.clone() } else { token(r) };
                let mut m = Mon::new(landed.max(sent), Chan::Script, want.clone(), tok, Some(ci));
                m.grp = first;
                m.retry = k > 0;
                last = mons.len();
                mons.push(m);
            }
            if want.ty == "group" {
                group = Some(last);
            }
            at = mons[last].at + r.range(200, 900) * 1_000;
        }
        cs[ci].group = group;
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x0b7_1e4a);
    let mut mons: Vec<Mon> = Vec::new();
    let mut cs = customers(&mut r, 420);
    let form = |at: i64, want: Want, push: Option<String>, customer: Option<usize>| {
        let mut m = Mon::new(at, Chan::Form, want, push, customer);
        m.grp = usize::MAX;
        m
    };
    let plain = |ty: &'static str, name: String, interval: i64| Want {
        ty,
        name,
        url: None,
        hostname: None,
        port: None,
        keyword: None,
        interval,
        docker: None,
        parent: None,
    };

    // T0 afternoon: the admin sets up the infrastructure group and its first monitors in the form.
    let mut at = START + 14 * HOUR + r.range(0, 1_800) * SECOND;
    mons.push(form(at, plain("group", "Infrastruktur".into(), 60), None, None));
    let infra = 0;
    let mut servers: Vec<String> = Vec::new();
    for n in 1..=9 {
        let host = format!("web{n:02}.hosting-agentur.de");
        servers.push(host.clone());
        at += r.range(40, 200) * SECOND;
        mons.push(form(
            at,
            Want { hostname: Some(host.clone()), parent: Some(infra), ..plain("ping", host, 60) },
            None,
            None,
        ));
    }
    for (h, c) in [(1, "traefik"), (1, "mariadb"), (2, "traefik"), (2, "redis")] {
        at += r.range(40, 200) * SECOND;
        mons.push(form(
            at,
            Want {
                docker: Some((h, c.into())),
                parent: Some(infra),
                ..plain("docker", format!("{c} (docker{h})"), 60)
            },
            None,
            None,
        ));
    }

    // T0 evening: the CRM export imported; customers with two contracts are listed twice, one after the other.
    let initial = 300;
    let mut list: Vec<usize> = Vec::new();
    for ci in 0..initial {
        list.push(ci);
        if r.chance(0.03) {
            list.push(ci);
        }
    }
    run_script(&mut r, &mut mons, &mut cs, &list, START + 19 * HOUR, 0.025, false);

    // 56 days: the nightly CRM sync, and four people at work (UTC+1, weekdays).
    let mut next_customer = initial;
    let checks: [(&'static str, &str, Option<&str>, Option<&str>); 3] = [
        ("http", "www.google.com", Some("https://www.google.com"), None),
        ("ping", "1.1.1.1", None, Some("1.1.1.1")),
        ("ping", "9.9.9.9", None, Some("9.9.9.9")),
    ];
    let check_days = [3, 11, 17, 30, 38, 47];
    let mut fk_days = vec![21, 43];
    // Names the form has used: nobody adds the same check for the same customer twice.
    let mut taken: HashSet<String> = mons.iter().map(|m| m.want.name.clone()).collect();
    for d in 1..DAYS {
        let day0 = START + d * DAY;
        let last_day = d == DAYS - 1;
        let n = r.poisson(1.8).min(cs.len() - next_customer);
        if n > 0 {
            let list: Vec<usize> = (next_customer..next_customer + n).collect();
            next_customer += n;
            let at = day0 + 2 * HOUR + r.range(0, 300) * SECOND;
            run_script(&mut r, &mut mons, &mut cs, &list, at, 0.04, last_day);
        }
        if let Some(j) = check_days.iter().position(|&x| x == d) {
            let (ty, name, url, host) = checks[j % 3];
            let t = day0 + 8 * HOUR + r.range(0, 9 * 3_600) * SECOND;
            let want = Want {
                url: url.map(str::to_string),
                hostname: host.map(str::to_string),
                parent: None,
                ..plain(ty, name.to_string(), 60)
            };
            let first = mons.len();
            let mut m = form(t, want, None, None);
            m.grp = first;
            mons.push(m);
        }
        if weekday(day0) >= 5 {
            continue;
        }
        let k = r.poisson(8.0);
        let mut times: Vec<i64> =
            (0..k).map(|_| day0 + 7 * HOUR + r.range(0, 10 * 3_600) * SECOND + r.range(0, 999) * 1_000).collect();
        times.sort_unstable();
        for (i, t) in times.into_iter().enumerate() {
            let mut chosen = None;
            for _ in 0..6 {
                let alive: Vec<usize> =
                    cs.iter().enumerate().filter(|(_, c)| c.group.is_some()).map(|(i, _)| i).collect();
                let ci = *r.pick(&alive);
                let c = &cs[ci];
                let (want, push) = match r.weighted(&[30, 18, 16, 12, 10, 8, 6]) {
                    0 => (
                        Want {
                            url: Some(format!("https://www.{}/api/health", c.domain)),
                            parent: c.group,
                            ..plain("http", format!("{} API", c.name), c.interval)
                        },
                        None,
                    ),
                    1 => {
                        let (page, word) = *r.pick(PAGES);
                        (
                            Want {
                                url: Some(format!("https://www.{}/{page}", c.domain)),
                                keyword: Some(word.into()),
                                parent: c.group,
                                ..plain("keyword", format!("{} {}", c.name, word), c.interval)
                            },
                            None,
                        )
                    }
                    2 => {
                        let job = *r.pick(JOBS);
                        let host = r.pick(&servers).split('.').next().unwrap().to_string();
                        let interval = *r.pick(&[3_600, 86_400, 86_400, 43_200]);
                        (
                            Want { parent: Some(infra), ..plain("push", format!("{job} {host}"), interval) },
                            Some(secret(&mut r, 32)),
                        )
                    }
                    3 => {
                        let host = format!("web{:02}.hosting-agentur.de", 10 + mons.len() % 40);
                        (Want { hostname: Some(host.clone()), parent: Some(infra), ..plain("ping", host, 60) }, None)
                    }
                    4 => {
                        let h = r.range(1, 3);
                        let c = *r.pick(CONTAINERS);
                        (
                            Want {
                                docker: Some((h, c.into())),
                                parent: Some(infra),
                                ..plain("docker", format!("{c} (docker{h})"), 60)
                            },
                            None,
                        )
                    }
                    5 => (
                        Want {
                            hostname: Some(format!("db.{}", c.domain)),
                            port: Some(*r.pick(&[3306, 5432, 22])),
                            parent: c.group,
                            ..plain("port", format!("{} Server", c.name), c.interval)
                        },
                        None,
                    ),
                    _ => (
                        Want {
                            hostname: Some(format!("www.{}", c.domain)),
                            port: Some(53),
                            parent: c.group,
                            ..plain("dns", format!("www.{}", c.domain), c.interval)
                        },
                        None,
                    ),
                };
                if taken.insert(want.name.clone()) {
                    chosen = Some((want, push, ci));
                    break;
                }
            }
            let Some((want, push, ci)) = chosen else { continue };
            let first = mons.len();
            let mut m = form(t, want.clone(), push.clone(), Some(ci));
            m.grp = first;
            mons.push(m);
            // A save answered with an error over a stored row: Save again with the same form.
            let fk = i == 0 && fk_days.first() == Some(&d);
            if fk {
                fk_days.remove(0);
                let mut t2 = t;
                for _ in 0..r.range(1, 2) {
                    t2 += r.range(3, 15) * SECOND + r.range(0, 999) * 1_000;
                    let mut c2 = form(t2, want.clone(), push.clone(), Some(ci));
                    (c2.grp, c2.retry) = (first, true);
                    mons.push(c2);
                }
                // Reload, the form typed again (a push monitor gets a new token).
                t2 += r.range(40, 120) * SECOND;
                let p3 = push.as_ref().map(|_| secret(&mut r, 32));
                let mut c3 = form(t2, want.clone(), p3, Some(ci));
                (c3.grp, c3.retry) = (first, true);
                mons.push(c3);
            } else if r.chance(0.04) || (last_day && i < 2) {
                let mut c2 = form(t + r.range(4, 40) * SECOND + r.range(0, 999) * 1_000, want, push, Some(ci));
                (c2.grp, c2.retry) = (first, true);
                mons.push(c2);
            }
        }
    }

    // Insert order.
    for (i, m) in mons.iter_mut().enumerate() {
        m.seq = i;
    }
    let mut order: Vec<usize> = (0..mons.len()).collect();
    order.sort_by_key(|&i| (mons[i].at, mons[i].seq));

    // Later: churn, edits, pauses; what people do with the pairs they find.
    let churned: HashSet<usize> = (0..next_customer).filter(|_| r.chance(0.05)).collect();
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in &order {
        groups.entry(mons[i].grp).or_default().push(i);
    }
    for i in 0..mons.len() {
        let gone = |k: usize| mons[k].chan == Chan::Script && mons[k].customer.is_some_and(|c| churned.contains(&c));
        if gone(i) || mons[i].want.parent.is_some_and(gone) {
            mons[i].alive = false;
            continue;
        }
        let m = &mut mons[i];
        if r.chance(0.03) {
            m.active = false;
        }
        if r.chance(0.04) && m.want.ty != "push" && m.want.ty != "group" {
            m.interval = Some(if m.want.interval == 60 { 120 } else { 600 });
        }
        if r.chance(0.03) {
            m.description = Some(r.one(&["Wartungsvertrag", "Kunde informiert bei Ausfall", "SLA 99,9 %"]).into());
        }
    }
    for (_, members) in groups.iter().filter(|(_, v)| v.len() > 1) {
        let pick = r.unit();
        let (orig, copy) = (members[0], members[1]);
        // Pairs of the last two days are not noticed yet.
        if mons[orig].at > NOW - 2 * DAY {
            continue;
        }
        if mons[orig].want.ty == "group" && mons[orig].chan == Chan::Script {
            // The empty first group is the one deleted, when anyone notices.
            if pick < 0.5 {
                mons[orig].alive = false;
            }
            continue;
        }
        if pick < 0.35 {
            let victim = if mons[orig].chan == Chan::Form { orig } else { copy };
            mons[victim].alive = false;
        } else if pick < 0.45 {
            mons[copy].active = false;
        } else if pick < 0.57 {
            let m = &mut mons[*r.pick(&members[..2])];
            if r.chance(0.5) {
                m.rename = Some(format!("{} (alt)", m.want.name));
            } else {
                m.interval = Some(if m.want.interval == 60 { 30 } else { 120 });
            }
        }
    }

    // Ids: AUTOINCREMENT in insert order.
    let mut id_of: HashMap<usize, i64> = HashMap::new();
    for (n, &i) in order.iter().enumerate() {
        id_of.insert(i, n as i64 + 1);
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("monitor", &columns);
    let mut first_alive: HashMap<usize, Vec<(&'static str, V)>> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    let skip = ["id", "created_date", "active", "dns_last_result", "push_token"];
    for &i in &order {
        let m = &mons[i];
        if !m.alive {
            continue;
        }
        let id = id_of[&i];
        let mut row = request_row(m);
        set(&mut row, "parent", m.want.parent.map_or(V::Null, |p| V::I(id_of[&p])));
        if let Some(n) = &m.rename {
            set(&mut row, "name", V::t(n));
        }
        if let Some(iv) = m.interval {
            set(&mut row, "interval", V::I(iv));
            set(&mut row, "retry_interval", V::I(iv));
        }
        if let Some(d) = &m.description {
            set(&mut row, "description", V::t(d));
        }
        // A group is started with its monitor; a paused one stays 0.
        set(&mut row, "active", V::I(i64::from(m.active)));
        if m.want.ty == "dns" {
            let host = m.want.hostname.clone().unwrap_or_default();
            set(&mut row, "dns_last_result", V::t(format!("Records: {}", ip_of(&host))));
        }
        let key: String = row
            .iter()
            .filter(|(c, _)| !skip.contains(c))
            .map(|(c, v)| format!("{c}={v:?}"))
            .collect::<Vec<_>>()
            .join("|");
        let mut hidden = false;
        let mark = match first_alive.get(&m.grp) {
            Some(orig) if m.retry => {
                // Edited since: no longer what the request set.
                hidden = ["name", "interval", "description", "parent"].iter().any(|c| get(orig, c) != get(&row, c));
                Mark::Retry
            }
            _ => {
                if seen.contains(&key) {
                    Mark::Legit
                } else {
                    Mark::Plain
                }
            }
        };
        first_alive.entry(m.grp).or_insert_with(|| row.clone());
        seen.insert(key);
        set(&mut row, "id", V::I(id));
        set(&mut row, "created_date", V::AtSecs(m.at));
        f.push(&row);
        f.mark(id, mark);
        if hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
