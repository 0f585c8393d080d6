//! NetBox (Python, Django 6 and Django REST framework; PostgreSQL only): `ipam_ipaddress`, as the web UI's "Add IP
//! address" form (`IPAddressEditView`, an `ObjectEditView` with `IPAddressForm`, "Create & Add Another"), its bulk
//! create by pattern (`IPAddressBulkCreateView`) and CSV import (`IPAddressBulkImportView`), the REST API
//! (`POST /api/ipam/ip-addresses/` and `POST /api/ipam/prefixes/<id>/available-ips/`: Ansible's netbox modules,
//! Terraform's netbox provider, pynetbox scripts, an n8n workflow), a custom script run as a job, and the change
//! logging and custom fields around it write it, and as people and automation work on it later: one company's NetBox
//! 4.6.8 (two data centres, offices, branches, a lab, a small managed-services business), 60 days.
//! Read: netbox-community/netbox (43fe81f, v4.6.8) netbox/ipam/models/ip.py (`IPAddress`: fields, `Meta.indexes`,
//! `clean` with the unique-space check and its non-unique roles, `save` lowercasing `dns_name`, `clone` and
//! `get_next_available_ip`; `Prefix.iter_available_ips`, `usable_ip_bounds`), ipam/models/vrfs.py (`enforce_unique`
//! defaults to true), ipam/constants.py (`IPADDRESS_ROLES_NONUNIQUE`), ipam/choices.py, ipam/migrations/
//! 0073_charfield_null_choices.py (`role` NULL, not ''), 0084_owner.py, 0089_default_ordering_indexes.py,
//! 0094_ipaddress_host_index.py; netbox/models/__init__.py (`PrimaryModel`), netbox/models/features.py
//! (`ChangeLoggingMixin`: `created` auto_now_add and `last_updated` auto_now, each its own `timezone.now()`;
//! `CustomFieldsMixin.save` adding only non-null defaults; `CloningMixin`), netbox/models/mixins.py (`OwnerMixin`);
//! extras/api/customfields.py (`CustomFieldDefaultValues`: every field, null when no default, only when the request
//! has no `custom_fields`; `CustomFieldsDataField.to_internal_value`), netbox/api/serializers/features.py,
//! extras/models/customfields.py (`populate_initial_data` writes only non-null defaults, with a queryset update that
//! leaves `last_updated` alone), netbox/forms/model_forms.py (a form writes every custom field, empty ones null),
//! netbox/forms/bulk_import.py, netbox/views/generic/bulk_views.py (`_process_import_records`: defaults for the
//! custom fields a CSV leaves out, all rows in one transaction; `BulkCreateView._create_objects`; bulk edit writes only
//! the custom fields changed), netbox/views/generic/object_views.py (`ObjectEditView.post`, `_addanother` with
//! `prepare_cloned_fields`), utilities/querydict.py, ipam/views.py, ipam/forms/model_forms.py (`IPAddressForm`,
//! `IPAddressBulkAddForm`), ipam/forms/bulk_import.py (`IPAddressImportForm`), ipam/api/views.py
//! (`AvailableObjectsView.post`: the advisory lock, `prep_object_data` giving the lowest free host and the prefix's
//! VRF), ipam/api/serializers_/ip.py, netbox/api/viewsets/__init__.py, project-static/src/forms/elements.ts (no guard
//! against a second submit), contrib/gunicorn.py (120 s worker timeout), contrib/nginx.conf,
//! docs/configuration/miscellaneous.md and docs/release-notes/version-3.7.md (`ENFORCE_GLOBAL_UNIQUE` true by
//! default). e-breuninger/terraform-provider-netbox (5b56c64) netbox/resource_netbox_available_ip_address.go (a bare
//! `POST .../available-ips/` with only the VRF, then a `PUT` with status, description, role and interface),
//! resource_netbox_ip_address.go, client.go and provider.go (`request_timeout` 10 s, no retry).
//! netbox-community/ansible_modules plugins/module_utils/netbox_ipam.py (`state: present` looks the address up first;
//! with a prefix and an interface it looks for an address on the interface, else takes the next available one),
//! netbox_utils.py. Column order, types, index and constraint names as `manage.py migrate` of 4.6.8 leaves them on
//! PostgreSQL (the foreign keys to VRFs, tenants, owners and content types left out with their tables; the one to
//! the table itself, `nat_inside`, kept).
//! On a create: `id` from the identity (a rolled back import still uses its numbers); `address` as sent, or the
//! lowest free host of the prefix (holes left by deletes first) with the prefix's mask and VRF for available-ips;
//! `status` as sent, else "active"; `role` NULL unless set; `dns_name` lowercased; `description`, `comments` '' unless
//! set; `custom_field_data` every field (null when empty) from the form, the import and an API create without
//! `custom_fields`, but only the fields sent plus the non-null defaults when a client sends some, and only the
//! non-null defaults from a script's ORM save; `created` then `last_updated` microseconds apart. Custom fields:
//! `monitored` (boolean, default false) from before the window, `ticket` (text, no default) added on day 20, so rows
//! from before it have no `ticket` key until a form saves them.
//! Later: edits through the form (description, DNS name, status, assignment; every custom field written again), API
//! PATCHes (the VM pipeline attaching the address to the VM's interface once it is up), Terraform's PUT right after
//! its POST, bulk edits (a tenant for an imported range, `monitored` for a set of servers), and deletes, which are real
//! DELETEs: the row is gone, its address free for the next allocation, and a `nat_inside` pointing at it set NULL.
//! Retries (about 2% of creates): double submits of the form, 20-100 ms apart (both pass the unique-space check
//! before either commits); the VM pipeline's pynetbox session posting to available-ips again after its 30 s read
//! timeout (some twice), each attempt taking the next free address with the same DNS name, the pipeline attaching
//! only the last; the n8n workflow's webhook fired twice, or its HTTP node retrying after a timeout while the first
//! request was still uncommitted; an Ansible task retried after nginx's 504 whose lookup ran before the first create
//! committed; a Terraform apply rerun minutes after a timeout in the lab VRF, where nothing is unique; a CSV import
//! into the out-of-band VRF (overlapping by design, so not unique) resubmitted after a gateway timeout, minutes
//! later; a CI job's allocation retried after a timeout (hidden when both rows live: the next free address, the
//! same payload as the other pipelines' allocations). Each copy has its own fate: deleted from the duplicates panel
//! (or the original deleted instead), swept by the weekly orphan audit, fixed after Ansible's "More than one result
//! returned", edited, or left. Two form retries and one pipeline retry in the last day.
//! Legitimate repeats: "Create & Add Another" (the cloned fields, the next free address), bulk creates by pattern,
//! Terraform's parallel available-ips creates with one payload, CI environments whose teardown failed, DHCP leases of
//! a host that moved before the old row's grace ran out, the branch script's reservations, an entry made twice in the
//! lab VRF, and any later row equal to an earlier one but for its address. Plain near-repeats: the same addresses in
//! two customers' VRFs, the out-of-band gateway 192.168.100.1 at every branch, loopbacks and VIPs with the same
//! descriptions.
//! Guessed: the company, its prefixes, VRFs, tenants, owners, users and rhythms; the content type ids (a fresh 4.x
//! install's); the custom fields; the clients' timeouts, retries and payloads; which requests were slow and why;
//! how often people notice a duplicate; everything in UTC.
use std::collections::{BTreeMap, HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as NetBox's migrations leave it, with its foreign key to itself (`nat_inside`) but not those to VRFs,
/// tenants, owners and content types.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "ipam_ipaddress" (
    "created" timestamp with time zone NULL, "last_updated" timestamp with time zone NULL,
    "custom_field_data" jsonb NOT NULL, "id" bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY,
    "address" inet NOT NULL, "status" varchar(50) NOT NULL, "role" varchar(50) NULL, "assigned_object_id" bigint NULL,
    "dns_name" varchar(255) NOT NULL, "description" varchar(200) NOT NULL, "assigned_object_type_id" integer NULL,
    "nat_inside_id" bigint NULL, "tenant_id" bigint NULL, "vrf_id" bigint NULL, "comments" text NOT NULL,
    "owner_id" bigint NULL,
    CONSTRAINT "ipam_ipaddress_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ipam_ipaddress_assigned_object_id_check" CHECK ("assigned_object_id" >= 0),
    CONSTRAINT "ipam_ipaddress_nat_inside_id_a45fb7c5_fk_ipam_ipaddress_id" FOREIGN KEY ("nat_inside_id")
        REFERENCES "ipam_ipaddress" ("id") DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX "ipam_ipaddr_address_3ddeea_idx" ON "ipam_ipaddress" ("address", "id");
CREATE INDEX "ipam_ipaddr_assigne_890ab8_idx" ON "ipam_ipaddress" ("assigned_object_type_id", "assigned_object_id");
CREATE INDEX "ipam_ipaddress_assigned_object_type_id_02354370" ON "ipam_ipaddress" ("assigned_object_type_id");
CREATE INDEX "ipam_ipaddress_host" ON "ipam_ipaddress" (((HOST("address"))::inet), "id");
CREATE INDEX "ipam_ipaddress_nat_inside_id_a45fb7c5" ON "ipam_ipaddress" ("nat_inside_id");
CREATE INDEX "ipam_ipaddress_owner_id_47736b63" ON "ipam_ipaddress" ("owner_id");
CREATE INDEX "ipam_ipaddress_tenant_id_ac55acfd" ON "ipam_ipaddress" ("tenant_id");
CREATE INDEX "ipam_ipaddress_vrf_id_51fcc59b" ON "ipam_ipaddress" ("vrf_id");"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("NetBox runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "created last_updated custom_field_data id address status role assigned_object_id dns_name \
    description assigned_object_type_id nat_inside_id tenant_id vrf_id comments owner_id";

const NOW: i64 = T0;
const DAYS: i64 = 60;
const START: i64 = T0 - DAYS * DAY;
/// Addresses made before the window.
const ID0: i64 = 41_873;
/// When the `ticket` custom field (text, no default) was added to IP addresses.
const TICKET_FROM: i64 = START + 20 * DAY + 7 * HOUR + 41 * MINUTE;
/// When the VM pipeline began sending a ticket, and an owner.
const PIPE_TICKET: i64 = START + 27 * DAY;
const PIPE_OWNER: i64 = START + 34 * DAY;
/// The first form create after [0] and after [2], and the first pipeline run after [1], are sent twice.
const LATE: [i64; 3] = [NOW - 17 * HOUR, NOW - 13 * HOUR, NOW - 10 * HOUR];
/// Content types: dcim.interface, virtualization.vminterface.
const CT_IF: i64 = 7;
const CT_VMIF: i64 = 10;
/// VRFs: all enforce a unique space but LAB and OOB (every site's out-of-band network is 192.168.100.0/24).
const PROD: i64 = 1;
const MGMT: i64 = 2;
const DMZ: i64 = 3;
const LAB: i64 = 4;
const OOB: i64 = 5;
const CONTOSO: i64 = 7;
const FABRIKAM: i64 = 8;
/// Tenants: the business units, the CI tenant, the two managed-services customers.
const TENANTS: [i64; 9] = [2, 3, 4, 5, 6, 9, 10, 11, 12];
const T_CI: i64 = 14;
const T_K8S: i64 = 9;
const T_CONTOSO: i64 = 15;
const T_FABRIKAM: i64 = 16;
/// Owners: the network team, the platform team.
const NETWORK: i64 = 1;
const PLATFORM: i64 = 2;
const DOMAIN: &str = "corp.example.com";

/// Pools addresses are taken from: the network, its prefix length, the mask the addresses get, the host offsets
/// 1..=n taken before the window (a few holes), the share of the others taken, where available-ips goes on when
/// the prefix is full.
type Spec = ([u8; 4], u32, u8, u32, f64, Option<usize>);
#[rustfmt::skip]
const POOLS: [Spec; 14] = [
    ([10, 10, 20, 0], 24, 24, 150, 0.0, Some(VM1)), ([10, 10, 21, 0], 24, 24, 12, 0.0, None),
    ([172, 20, 4, 0], 24, 24, 60, 0.0, None), ([10, 250, 0, 0], 22, 22, 3, 0.0, None),
    ([10, 60, 0, 0], 22, 22, 0, 0.35, None), ([10, 60, 8, 0], 22, 22, 0, 0.3, None),
    ([10, 0, 12, 0], 23, 23, 190, 0.05, None), ([10, 255, 0, 0], 24, 32, 70, 0.0, None),
    ([10, 10, 40, 0], 23, 23, 0, 0.35, None), ([10, 10, 42, 0], 23, 23, 0, 0.2, None),
    ([10, 99, 12, 0], 24, 24, 0, 0.2, None), ([172, 20, 1, 0], 24, 24, 0, 0.35, None),
    ([198, 51, 100, 0], 24, 24, 0, 0.4, None), ([10, 10, 60, 0], 24, 24, 20, 0.0, None),
];
/// The VM pipeline's prefixes (PROD, spilling into the next, and DMZ), the CI prefix, the DHCP scopes, device
/// management, loopbacks, server networks, the lab, the DMZ, public addresses, the Kubernetes nodes.
const VM0: usize = 0;
const VM1: usize = 1;
const DMZVM: usize = 2;
const CI: usize = 3;
const DHCP1: usize = 4;
const DHCP2: usize = 5;
const MGMTP: usize = 6;
const LO: usize = 7;
const SRV1: usize = 8;
const SRV2: usize = 9;
const LABP: usize = 10;
const DMZP: usize = 11;
const PUB: usize = 12;
const K8S: usize = 13;

const APPS: &[&str] = &[
    "billing", "crm", "erp", "intranet", "kafka", "grafana", "jenkins", "vault", "keycloak", "minio", "nexus", "sonar",
    "elastic", "redis", "postgres", "rabbitmq", "apigw", "payments", "search", "reports",
];
const VM_ROLES: &[&str] = &["app", "api", "db", "web", "worker", "cache"];
const SITES: &[&str] = &["fra1", "fra2", "ams1", "muc1"];
const DEVICES: &[&str] = &["leaf", "sw", "rtr", "fw", "spine"];
const SERVER_DESC: &[&str] = &[
    "web frontend",
    "app server",
    "database primary",
    "database replica",
    "backup proxy",
    "NFS filer",
    "jump host",
    "syslog collector",
    "NTP server",
    "DNS resolver",
    "monitoring probe",
    "license server",
    "build agent",
    "file server",
    "SFTP gateway",
];
const DMZ_DESC: &[&str] = &["reverse proxy", "mail relay", "WAF node", "public web", "VPN concentrator", "SFTP"];
const LAB_DESC: &[&str] =
    &["lab gateway", "test VM", "lab switch", "eve-ng host", "PoC appliance", "vendor demo box", "lab router"];
const RESERVED: &[&str] = &[
    "reserved for the new SAN",
    "reserved: firewall cluster",
    "reserved for F5 pair",
    "reserved",
    "reserved for migration",
    "reserved for DR test",
];
const LEGACY: &[&str] = &[
    "DB cluster node",
    "Oracle RAC VIP",
    "app server (old)",
    "batch server",
    "Citrix worker",
    "SQL Server",
    "print server",
    "Exchange DAG",
    "SAP app",
    "tape library",
];
const COMMENTS: &[&str] = &[
    "Requested by the app team, see the change ticket.",
    "Temporary until the migration is done.",
    "Do not reuse: still referenced in firewall rules.",
    "Moved from the old DMZ.",
    "Check with the storage team before changing.",
];
/// A managed-services customer's office network: (third octet, host, what).
#[rustfmt::skip]
const CUSTOMER_LAN: [(u8, u8, &str); 24] = [
    (0, 1, "LAN gateway"), (0, 2, "firewall inside"), (0, 5, "core switch"), (0, 10, "file server"),
    (0, 11, "domain controller"), (0, 12, "domain controller"), (0, 13, "backup server"), (0, 20, "printer"),
    (0, 21, "printer"), (0, 30, "NAS"), (0, 40, "wifi controller"), (0, 41, "access point"), (0, 42, "access point"),
    (0, 50, "NVR"), (0, 60, "UPS"), (1, 1, "voice gateway"), (1, 10, "phone system"), (1, 20, "door access"),
    (1, 30, "building management"), (1, 40, "time clock"), (1, 50, "digital signage"), (1, 60, "meeting room display"),
    (1, 70, "alarm panel"), (1, 80, "HVAC controller"),
];
/// Bulk creates from the UI: day, pool, VRF, how many, status, description.
type Bulk = (i64, usize, i64, u32, &'static str, &'static str);
#[rustfmt::skip]
const BULK: [Bulk; 5] = [
    (6, SRV2, PROD, 12, "reserved", "reserved for the new SAN"), (14, LABP, LAB, 20, "dhcp", "lab DHCP pool"),
    (29, MGMTP, MGMT, 8, "reserved", "reserved for rack 14 PDUs"), (44, SRV1, PROD, 16, "reserved", "k8s ingress"),
    (52, DMZP, DMZ, 6, "reserved", "reserved for WAF"),
];
/// Lab entries made twice: the first and the second time (from the start), the address, the description.
#[rustfmt::skip]
const TWICE: [(i64, i64, &str, &str); 3] = [
    (22 * DAY + 9 * HOUR, 41 * DAY + 14 * HOUR, "10.99.40.1/24", "lab gateway"),
    (24 * DAY + 13 * HOUR, 52 * DAY + 10 * HOUR, "10.99.40.10/24", "eve-ng host"),
    (33 * DAY + 10 * HOUR, 33 * DAY + 10 * HOUR + 41 * MINUTE, "10.99.41.5/24", "vendor demo box"),
];

/// Where a row's address comes from, resolved in time order.
#[derive(Clone)]
enum Addr {
    /// available-ips: the lowest free host (the next prefix when full).
    Next(usize),
    /// Chosen by a person or a device's configuration: free, more often low in the prefix than not.
    Pick(usize),
    /// Any free host (a DHCP lease).
    Any(usize),
    /// "Create & Add Another": the next free host after the row's.
    After(usize),
    /// The row's address again (a retried request).
    Same(usize),
    /// A bulk create's i-th of n consecutive free hosts.
    Run(usize, u32, u32),
    Fixed(String),
}

#[derive(Clone, PartialEq)]
enum Ticket {
    Absent,
    Null,
    Set(String),
}

#[derive(Clone)]
struct Cf {
    ticket: Ticket,
    monitored: bool,
}

impl Cf {
    /// As jsonb prints it (shorter keys first).
    fn json(&self) -> String {
        let m = self.monitored;
        match &self.ticket {
            Ticket::Absent => format!("{{\"monitored\": {m}}}"),
            Ticket::Null => format!("{{\"ticket\": null, \"monitored\": {m}}}"),
            Ticket::Set(s) => format!("{{\"ticket\": \"{s}\", \"monitored\": {m}}}"),
        }
    }
}

/// What a form, an import and an API create without `custom_fields` write: every field there is, empty ones null.
fn cf_full(at: i64, monitored: bool, ticket: Option<String>) -> Cf {
    let ticket = if at < TICKET_FROM { Ticket::Absent } else { ticket.map_or(Ticket::Null, Ticket::Set) };
    Cf { ticket, monitored }
}

/// A create as the server handled it, then what happened to the row.
#[derive(Clone)]
struct Row {
    at: i64,
    upd: i64,
    addr: Addr,
    text: String,
    pos: Option<(usize, u32)>,
    vrf: Option<i64>,
    tenant: Option<i64>,
    status: &'static str,
    role: Option<&'static str>,
    obj: Option<(i64, i64)>,
    nat: Option<usize>,
    dns: String,
    desc: String,
    comments: String,
    owner: Option<i64>,
    cf: Cf,
    gone: Option<i64>,
    /// For a retry's row: the first row of the request it repeats.
    group: Option<usize>,
    retry: bool,
    /// A CI allocation's retry: nothing but the payload every pipeline sends and the next free address.
    hidden: bool,
    /// Identity values used by rolled back inserts just before this row.
    burn: i64,
}

impl Row {
    /// Whether a save at `t` reaches the row (it exists, nothing later was saved); stamps `last_updated`.
    fn touch(&mut self, t: i64, stamp: i64) -> bool {
        if t >= NOW || t <= self.upd || self.gone.is_some_and(|g| g <= t) {
            return false;
        }
        self.upd = stamp.min(NOW - 1);
        true
    }

    /// A save through the edit form writes every custom field.
    fn form(&mut self) {
        if self.upd >= TICKET_FROM && self.cf.ticket == Ticket::Absent {
            self.cf.ticket = Ticket::Null;
        }
    }

    /// Deleted at `t` (the earliest delete wins; none before the last save).
    fn kill(&mut self, t: i64) {
        if t < NOW && t > self.upd && self.gone.is_none_or(|g| t < g) {
            self.gone = Some(t);
        }
    }
}

enum Ed {
    Desc(String),
    Dns(String),
    Status(&'static str),
    Assign(i64, i64),
    Delete,
}

struct Pool {
    base: u32,
    size: u32,
    mask: u8,
    /// Host offsets taken, by how many rows.
    used: BTreeMap<u32, u32>,
    spill: Option<usize>,
    run: u32,
}

impl Pool {
    fn free(&self, o: u32) -> bool {
        !self.used.contains_key(&o)
    }

    fn first_free(&self, from: u32) -> Option<u32> {
        (from.max(1)..self.size - 1).find(|&o| self.free(o))
    }

    fn any_free(&self, r: &mut Rng) -> Option<u32> {
        let n = self.size - 2;
        let start = r.below(u64::from(n)) as u32;
        (0..n).map(|i| 1 + (start + i) % n).find(|&o| self.free(o))
    }

    fn put(&mut self, o: u32) {
        *self.used.entry(o).or_insert(0) += 1;
    }

    fn take(&mut self, o: u32) {
        if let Some(c) = self.used.get_mut(&o) {
            *c -= 1;
            if *c == 0 {
                self.used.remove(&o);
            }
        }
    }

    fn text(&self, o: u32) -> String {
        v4(self.base + o, self.mask)
    }
}

struct World {
    r: Rng,
    v: Vec<Row>,
    chg: i64,
    /// Interface and VM interface ids handed out per day, so that they grow with time.
    dev_if: HashMap<i64, i64>,
    vm_if: HashMap<i64, i64>,
    asset: i64,
    v6: HashSet<String>,
}

impl World {
    fn row(&mut self, at: i64, addr: Addr, vrf: Option<i64>) -> Row {
        Row {
            at,
            upd: at + self.r.range(3, 40),
            addr,
            text: String::new(),
            pos: None,
            vrf,
            tenant: None,
            status: "active",
            role: None,
            obj: None,
            nat: None,
            dns: String::new(),
            desc: String::new(),
            comments: String::new(),
            owner: None,
            cf: cf_full(at, false, None),
            gone: None,
            group: None,
            retry: false,
            hidden: false,
            burn: 0,
        }
    }

    fn push(&mut self, x: Row) -> usize {
        self.v.push(x);
        self.v.len() - 1
    }

    /// The row a retried request made: the same payload, its own id and times (and address, from available-ips).
    fn again(&mut self, k: usize, at: i64) -> usize {
        let o = &self.v[k];
        let addr = match &o.addr {
            Addr::Next(p) => Addr::Next(*p),
            Addr::Fixed(s) => Addr::Fixed(s.clone()),
            _ => Addr::Same(k),
        };
        let mut x = o.clone();
        let upd = at + self.r.range(3, 40);
        (x.at, x.upd, x.addr, x.gone, x.group, x.retry) = (at, upd, addr, None, Some(o.group.unwrap_or(k)), true);
        self.push(x)
    }

    fn chg(&mut self) -> String {
        self.chg += 1 + self.r.range(0, 5);
        format!("CHG00{}", self.chg)
    }

    /// A ServiceNow request item opened just before `t` (numbered across the whole instance).
    fn ritm(&mut self, t: i64) -> String {
        format!("RITM00{}", 18_840 + (t - START) / (2 * MINUTE) - self.r.range(0, 6))
    }

    /// An interface of a device already in NetBox.
    fn iface(&mut self) -> (i64, i64) {
        (CT_IF, self.r.range(20_000, 61_000))
    }

    /// A device added on the day of `t`: its interfaces' first id.
    fn device(&mut self, t: i64) -> i64 {
        let d = (t - START).div_euclid(DAY);
        let n = self.r.range(24, 60);
        let used = self.dev_if.entry(d).or_insert(0);
        *used += n;
        61_420 + d * 1_200 + *used - n
    }

    /// A VM interface made on the day of `t`.
    fn vm_iface(&mut self, t: i64) -> (i64, i64) {
        let d = (t - START).div_euclid(DAY);
        let n = 1 + self.r.range(0, 2);
        let used = self.vm_if.entry(d).or_insert(0);
        *used += n;
        (CT_VMIF, 8_310 + d * 40 + *used)
    }

    fn v6(&mut self) -> String {
        loop {
            let s = format!("2001:db8:4a0:{:x}::{:x}/64", self.r.range(0x10, 0x2f), self.r.range(0x10, 0x3ff));
            if self.v6.insert(s.clone()) {
                return s;
            }
        }
    }

    fn host(&mut self) -> String {
        let app = self.r.one(APPS);
        format!("{app}-{}{:02}", self.r.one(VM_ROLES), self.r.range(1, 12))
    }

    fn device_name(&mut self) -> String {
        format!("{}-{}-r{:02}", self.r.one(DEVICES), self.r.one(SITES), self.r.range(1, 40))
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// A time on the day `d0` between the hours (UTC).
fn within(r: &mut Rng, d0: i64, from: i64, to: i64) -> i64 {
    d0 + r.range(from * 3_600, to * 3_600 - 1) * SECOND + micros(r)
}

fn v4(ip: u32, mask: u8) -> String {
    let b = ip.to_be_bytes();
    format!("{}.{}.{}.{}/{mask}", b[0], b[1], b[2], b[3])
}

/// Changes to a row, applied in time order; `form` for saves through the edit form.
fn apply(w: &mut World, k: usize, mut evs: Vec<(i64, Ed)>, form: bool) {
    evs.sort_by_key(|e| e.0);
    for (t, ed) in evs {
        if let Ed::Delete = ed {
            w.v[k].kill(t);
            continue;
        }
        let stamp = t + w.r.range(20_000, 400_000);
        let x = &mut w.v[k];
        if !x.touch(t, stamp) {
            continue;
        }
        match ed {
            Ed::Desc(s) => x.desc = s,
            Ed::Dns(s) => x.dns = s,
            Ed::Status(s) => x.status = s,
            Ed::Assign(ct, id) => x.obj = Some((ct, id)),
            Ed::Delete => {}
        }
        if form {
            x.form();
        }
    }
}

/// The web form, by the network engineers.
fn ui(w: &mut World) {
    let mut late = 0;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let n = if weekday(d0) >= 5 { w.r.below(2) } else { 4 + w.r.below(5) };
        let mut starts: Vec<i64> = (0..n).map(|_| within(&mut w.r, d0, 6, 16)).collect();
        starts.sort_unstable();
        for s in starts {
            let mut t = s;
            for _ in 0..1 + w.r.skewed(3) {
                let forced = late < 2 && t > LATE[2 * late];
                late += usize::from(forced);
                ui_create(w, t, forced);
                t += w.r.range(90, 1_200) * SECOND + micros(&mut w.r);
            }
        }
    }
}

fn ui_create(w: &mut World, t: i64, forced: bool) {
    let kind = w.r.weighted(&[34, 10, 6, 12, 5, 10, 6, 6, 11]);
    let (addr, vrf) = match kind {
        0 => (Addr::Pick(if w.r.chance(0.6) { SRV1 } else { SRV2 }), Some(PROD)),
        1 => (Addr::Pick(DMZP), Some(DMZ)),
        2 => (Addr::Pick(PUB), None),
        3 => (Addr::Pick(MGMTP), Some(MGMT)),
        4 => (Addr::Pick(LO), None),
        5 => (Addr::Pick(LABP), Some(LAB)),
        6 => (Addr::Fixed(w.v6()), None),
        7 => (Addr::Pick(SRV1), Some(PROD)),
        _ => (Addr::Pick(if w.r.chance(0.6) { SRV2 } else { SRV1 }), Some(PROD)),
    };
    let mut x = w.row(t, addr, vrf);
    let host = w.host();
    match kind {
        0 | 6 => {
            if w.r.chance(0.7) {
                x.desc = w.r.one(SERVER_DESC).to_string();
            }
            if w.r.chance(0.45) {
                x.dns = format!("{host}.{DOMAIN}");
            }
            if w.r.chance(0.5) {
                x.obj = Some(w.iface());
            }
        }
        1 => {
            if w.r.chance(0.8) {
                x.desc = w.r.one(DMZ_DESC).to_string();
            }
            if w.r.chance(0.5) {
                x.dns = format!("{host}.dmz.{DOMAIN}");
            }
            if w.r.chance(0.4) {
                x.obj = Some(w.iface());
            }
        }
        2 => {
            let inside: Vec<usize> = (0..w.v.len())
                .filter(|&j| {
                    let o = &w.v[j];
                    o.vrf == Some(DMZ) && !o.retry && o.at < t - 5 * MINUTE && o.at > t - 20 * DAY
                })
                .collect();
            if !inside.is_empty() && w.r.chance(0.7) {
                let j = inside[w.r.below(inside.len() as u64) as usize];
                x.nat = Some(j);
                x.desc = if w.v[j].desc.is_empty() { "NAT".to_string() } else { format!("NAT {}", w.v[j].desc) };
            }
        }
        3 => {
            let srv = format!("{}-esx{:02}", w.r.one(SITES), w.r.range(1, 48));
            x.desc = format!("{} {srv}", w.r.one(&["iLO", "iLO", "iDRAC", "IPMI"]));
            if w.r.chance(0.6) {
                x.dns = format!("ilo-{srv}.mgmt.{DOMAIN}");
            }
            if w.r.chance(0.55) {
                x.obj = Some(w.iface());
            }
        }
        4 => {
            let dev = w.device_name();
            (x.role, x.desc) = (Some("loopback"), "Loopback0".to_string());
            if w.r.chance(0.7) {
                x.dns = format!("lo0.{dev}.net.{DOMAIN}");
            }
            if w.r.chance(0.85) {
                x.obj = Some(w.iface());
            }
        }
        5 => {
            if w.r.chance(0.75) {
                x.desc = w.r.one(LAB_DESC).to_string();
            }
            if w.r.chance(0.15) {
                x.dns = format!("{host}.lab.{DOMAIN}");
            }
        }
        7 => {
            let app = w.r.one(APPS);
            (x.role, x.desc) = (Some("vip"), format!("VIP {app}"));
            if w.r.chance(0.7) {
                x.dns = format!("{app}.{DOMAIN}");
            }
        }
        _ => {
            x.status = "reserved";
            if w.r.chance(0.8) {
                x.desc = w.r.one(RESERVED).to_string();
            }
        }
    }
    if kind != 4 && w.r.chance(0.4) {
        x.tenant = Some(w.r.one(&TENANTS));
    }
    let monitored = w.r.chance(0.22);
    let ticket = if w.r.chance(0.35) { Some(w.chg()) } else { None };
    x.cf = cf_full(t, monitored, ticket);
    if w.r.chance(0.06) {
        x.comments = w.r.one(COMMENTS).to_string();
    }
    if w.r.chance(0.1) {
        x.owner = Some(NETWORK);
    }
    let from_if = x.obj.is_some() && w.r.chance(0.7);
    let k = w.push(x);
    ui_send(w, k, forced);
    if matches!(kind, 0 | 3 | 5 | 8) && w.r.chance(0.14) {
        add_another(w, k, from_if);
    }
    life_ui(w, k);
}

/// A second submit of the form 20-100 ms on, and what the person does when they see two.
fn ui_send(w: &mut World, k: usize, forced: bool) {
    if !(forced || w.r.chance(0.015)) {
        return;
    }
    let at = w.v[k].at + w.r.range(20_000, 100_000);
    let c = w.again(k, at);
    let t = at + w.r.range(60, 900) * SECOND + micros(&mut w.r);
    match w.r.below(100) {
        // The duplicates panel of the page they landed on: the other one deleted, or this one.
        0..25 => w.v[k].kill(t),
        25..45 => w.v[c].kill(t),
        // They go on with the page they landed on.
        45..60 => {
            let desc = w.r.one(SERVER_DESC).to_string();
            apply(w, c, vec![(t, Ed::Desc(desc))], true);
        }
        _ => {}
    }
}

/// "Create & Add Another": the cloned fields (VRF, tenant, status, role, DNS name, description) and the next free
/// address; custom fields, comments and owner back to their defaults; the interface kept when opened from one.
fn add_another(w: &mut World, first: usize, from_if: bool) {
    let mut prev = first;
    for _ in 0..w.r.range(1, 5) {
        let at = w.v[prev].at + w.r.range(8, 70) * SECOND + micros(&mut w.r);
        let o = w.v[first].clone();
        let mut x = w.row(at, Addr::After(prev), o.vrf);
        (x.tenant, x.status, x.role, x.dns, x.desc) = (o.tenant, o.status, o.role, o.dns, o.desc);
        if from_if {
            x.obj = o.obj;
        }
        if w.r.chance(0.55) {
            if !x.desc.is_empty() {
                x.desc = w.r.one(SERVER_DESC).to_string();
            }
            if !x.dns.is_empty() {
                x.dns = format!("{}.{DOMAIN}", w.host());
            }
        }
        let k = w.push(x);
        ui_send(w, k, false);
        life_ui(w, k);
        prev = k;
    }
}

fn life_ui(w: &mut World, k: usize) {
    let at = w.v[k].at;
    let mut evs = Vec::new();
    if w.r.chance(0.1) {
        let t = at + w.r.range(3_600, 20 * 86_400) * SECOND;
        evs.push((t, Ed::Desc(w.r.one(SERVER_DESC).to_string())));
    }
    if w.r.chance(0.04) {
        let t = at + w.r.range(3_600, 20 * 86_400) * SECOND;
        evs.push((t, Ed::Dns(format!("{}.{DOMAIN}", w.host()))));
    }
    if w.r.chance(0.06) {
        evs.push((at + w.r.range(2 * 86_400, 30 * 86_400) * SECOND, Ed::Status("deprecated")));
    }
    if w.v[k].obj.is_none() && w.r.chance(0.08) {
        let (ct, id) = w.iface();
        evs.push((at + w.r.range(600, 5 * 86_400) * SECOND, Ed::Assign(ct, id)));
    }
    if w.r.chance(0.03) {
        evs.push((at + w.r.range(300, 20 * 86_400) * SECOND, Ed::Delete));
    }
    apply(w, k, evs, true);
}

/// The VM pipeline (GitLab CI, pynetbox): available-ips in the VM prefixes, then the address attached to the VM's
/// interface once the clone is up. Its session retries a read timeout (30 s) with urllib3's backoff.
fn pipeline(w: &mut World) {
    let mut forced = false;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        if weekday(d0) >= 5 {
            continue;
        }
        let mut ts: Vec<i64> = (0..3 + w.r.below(5)).map(|_| within(&mut w.r, d0, 7, 18)).collect();
        ts.sort_unstable();
        for t in ts {
            let force = !forced && t > LATE[1];
            forced |= force;
            vm(w, t, force);
        }
    }
}

fn vm(w: &mut World, t: i64, force: bool) {
    let dmz = w.r.chance(0.25);
    let (pool, vrf, env) = if dmz { (DMZVM, DMZ, "dmz") } else { (VM0, PROD, "prod") };
    let a = w.r.below(APPS.len() as u64) as usize;
    let name = format!("{}-{}{:02}", APPS[a], w.r.one(VM_ROLES), w.r.range(1, 30));
    let mut x = w.row(t, Addr::Next(pool), Some(vrf));
    (x.dns, x.desc, x.tenant) = (format!("{name}.{env}.{DOMAIN}"), name, Some(TENANTS[a % TENANTS.len()]));
    let ticket = if t >= PIPE_TICKET { Ticket::Set(w.ritm(t)) } else { Ticket::Absent };
    x.cf = Cf { ticket, monitored: true };
    x.owner = (t >= PIPE_OWNER).then_some(PLATFORM);
    let k = w.push(x);
    let mut used = k;
    if force || w.r.chance(0.035) {
        let a1 = t + 30 * SECOND + w.r.range(0, 8) * SECOND + micros(&mut w.r);
        used = w.again(k, a1);
        if w.r.chance(0.3) {
            let a2 = a1 + 30 * SECOND + w.r.range(4, 16) * SECOND + micros(&mut w.r);
            used = w.again(k, a2);
        }
        // The weekly audit (Mondays) of addresses with a DNS name and no interface.
        for o in k..used {
            let mut m = t + DAY - (t + DAY).rem_euclid(DAY);
            while weekday(m) != 0 {
                m += DAY;
            }
            if w.r.chance(0.4) {
                let at = within(&mut w.r, m, 8, 11);
                w.v[o].kill(at);
            }
        }
    }
    let (ct, id) = w.vm_iface(t);
    let mut evs = vec![(w.v[used].at + w.r.range(6 * 60, 40 * 60) * SECOND, Ed::Assign(ct, id))];
    if w.r.chance(0.06) {
        evs.push((t + w.r.range(86_400, 30 * 86_400) * SECOND, Ed::Delete));
    }
    apply(w, used, evs, false);
}

/// Merge-request environments: an allocation from the CI prefix, deleted by the teardown job (which knows only the
/// address it got back); failed teardowns leave rows, purged once by hand.
fn ci(w: &mut World) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let n = if weekday(d0) >= 5 { w.r.below(3) } else { 8 + w.r.below(9) };
        let mut ts: Vec<i64> = (0..n).map(|_| within(&mut w.r, d0, 6, 19)).collect();
        ts.sort_unstable();
        for t in ts {
            ci_run(w, t, false);
        }
    }
    let t = NOW - 50 * MINUTE + micros(&mut w.r);
    ci_run(w, t, true);
    let purge = START + 33 * DAY + 10 * HOUR + 20 * MINUTE;
    let mut at = purge;
    for k in 0..w.v.len() {
        let x = &w.v[k];
        if x.tenant == Some(T_CI) && x.at < purge - DAY && x.gone.is_none() {
            w.v[k].kill(at);
            at += w.r.range(3_000, 9_000);
        }
    }
}

fn ci_run(w: &mut World, t: i64, force: bool) {
    let mut x = w.row(t, Addr::Next(CI), None);
    (x.desc, x.tenant) = ("ci ephemeral env".to_string(), Some(T_CI));
    let k = w.push(x);
    let mut used = k;
    if force || w.r.chance(0.015) {
        let at = t + w.r.range(10, 60) * SECOND + micros(&mut w.r);
        used = w.again(k, at);
        w.v[used].hidden = true;
    }
    if !force && w.r.chance(0.93) {
        let at = w.v[used].at + w.r.range(15 * 60, 120 * 60) * SECOND;
        w.v[used].kill(at);
    }
}

/// The hourly Kea lease sync (pynetbox): new leases posted as a list with explicit addresses, status DHCP and only
/// `monitored` in `custom_fields`; a lease gone for seven days is deleted. A host that moved to the other scope gets a
/// new row while the old one waits out its grace.
fn dhcp(w: &mut World) {
    let hosts: Vec<String> = (0..520)
        .map(|i| match w.r.below(20) {
            0..12 => format!("lt-{:04}", 1_000 + i),
            12..17 => format!("pc-{:04}", 3_000 + i),
            17..19 => format!("sep{}", w.r.hex(12)),
            _ => format!("prn-{:03}", 100 + i),
        })
        .collect();
    let mut cur: Vec<Option<usize>> = vec![None; hosts.len()];
    for h in 0..DAYS * 24 {
        let t = START + h * HOUR + 5 * MINUTE + w.r.range(0, 40) * SECOND + micros(&mut w.r);
        let work = weekday(t) < 5 && (6..17).contains(&(h % 24));
        let n = if work { w.r.below(4) } else { u64::from(w.r.chance(0.1)) };
        let mut at = t + w.r.range(1, 3) * SECOND;
        for _ in 0..n {
            let hi = w.r.below(hosts.len() as u64) as usize;
            let moved = cur[hi].is_some_and(|o| w.v[o].gone.is_none());
            if moved && w.r.chance(0.8) {
                // Renewed where it was: nothing to write.
                continue;
            }
            let pool = match cur[hi].map(|o| &w.v[o].addr) {
                Some(Addr::Any(p)) if moved => DHCP1 + DHCP2 - *p,
                _ if hi.is_multiple_of(2) => DHCP1,
                _ => DHCP2,
            };
            let mut x = w.row(at, Addr::Any(pool), None);
            (x.status, x.dns, x.desc) = ("dhcp", format!("{}.{DOMAIN}", hosts[hi]), "Kea lease".to_string());
            x.cf = Cf { ticket: Ticket::Absent, monitored: false };
            let k = w.push(x);
            if let Some(o) = cur[hi] {
                let g = at + 7 * DAY + w.r.range(1, 24) * HOUR;
                w.v[o].kill(g);
            }
            cur[hi] = Some(k);
            if w.r.chance(0.2) {
                let g = at + w.r.range(8, 25) * DAY + w.r.range(0, 23) * HOUR;
                w.v[k].kill(g);
            }
            at += w.r.range(5_000, 15_000);
        }
    }
}

/// The nightly AWX sync (Ansible, `state: present`): the management address (and sometimes the loopback) of each
/// device racked the day before, looked up first, created with its interface.
fn ansible(w: &mut World) {
    for d in 1..DAYS {
        let d0 = START + d * DAY;
        if weekday(d0 - DAY) >= 5 {
            continue;
        }
        let mut t = d0 + 2 * HOUR + 15 * MINUTE + w.r.range(30, 400) * SECOND;
        for _ in 0..w.r.below(4) {
            let dev = w.device_name();
            let first = w.device(d0 - 12 * HOUR);
            t += w.r.range(5, 40) * SECOND + micros(&mut w.r);
            let mut x = w.row(t, Addr::Pick(MGMTP), Some(MGMT));
            (x.dns, x.obj) = (format!("mgmt0.{dev}.net.{DOMAIN}"), Some((CT_IF, first + w.r.range(0, 2))));
            let k = w.push(x);
            ansible_send(w, k);
            if w.r.chance(0.35) {
                t += w.r.range(1, 6) * SECOND + micros(&mut w.r);
                let mut x = w.row(t, Addr::Pick(LO), None);
                (x.role, x.dns) = (Some("loopback"), format!("lo0.{dev}.net.{DOMAIN}"));
                x.obj = Some((CT_IF, first + w.r.range(3, 8)));
                let k = w.push(x);
                ansible_send(w, k);
            }
        }
    }
}

/// A task retried after nginx's 504 whose lookup ran before the first create committed: two rows. The next night's
/// run stops at "More than one result returned", and someone usually deletes one of them the morning after.
fn ansible_send(w: &mut World, k: usize) {
    let at = w.v[k].at;
    if w.r.chance(0.025) {
        let a1 = at + w.r.range(8, 25) * SECOND + micros(&mut w.r);
        let c = w.again(k, a1);
        if w.r.chance(0.75) {
            let d0 = at - at.rem_euclid(DAY) + w.r.range(1, 3) * DAY;
            let t = within(&mut w.r, d0, 7, 10);
            let victim = if w.r.chance(0.5) { k } else { c };
            w.v[victim].kill(t);
        }
    }
    let mut evs = Vec::new();
    if w.r.chance(0.03) {
        evs.push((at + w.r.range(2, 40) * DAY, Ed::Status("deprecated")));
    }
    if w.r.chance(0.02) {
        evs.push((at + w.r.range(2, 40) * DAY, Ed::Delete));
    }
    apply(w, k, evs, false);
}

/// The n8n workflow behind ServiceNow: a new server asset's iLO address, with the request's ticket once the field
/// exists. Its webhook sometimes fires twice; its HTTP node retries after a 10 s timeout.
fn cmdb(w: &mut World) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        if weekday(d0) >= 5 {
            continue;
        }
        for _ in 0..w.r.below(4) {
            let t = within(&mut w.r, d0, 8, 17);
            w.asset += 1 + w.r.range(0, 20);
            let tag = format!("AST{:06}", w.asset);
            let mut x = w.row(t, Addr::Pick(MGMTP), Some(MGMT));
            (x.dns, x.desc) = (format!("ilo-{}.mgmt.{DOMAIN}", tag.to_lowercase()), format!("iLO {tag}"));
            if w.r.chance(0.5) {
                x.tenant = Some(w.r.one(&TENANTS));
            }
            let ticket = if t >= TICKET_FROM { Ticket::Set(w.ritm(t)) } else { Ticket::Absent };
            x.cf = Cf { ticket, monitored: false };
            let k = w.push(x);
            let delay = client_retry_delay(&mut w.r);
            // A timeout's retry makes a row only when it passes the unique check before the first commits.
            if w.r.chance(0.04) && (delay < SECOND || w.r.chance(0.5)) {
                let c = w.again(k, t + delay);
                if w.r.chance(0.35) {
                    let g = t + w.r.range(86_400, 5 * 86_400) * SECOND;
                    let victim = if w.r.chance(0.5) { k } else { c };
                    w.v[victim].kill(g);
                }
            }
            if w.r.chance(0.4) {
                let (ct, id) = w.iface();
                let at = t + w.r.range(86_400, 10 * 86_400) * SECOND;
                apply(w, k, vec![(at, Ed::Assign(ct, id))], false);
            }
        }
    }
}

/// The platform team's Terraform: Kubernetes nodes from available-ips (a bare POST, then a PUT with the rest, several
/// resources in parallel), lab addresses with `netbox_ip_address`. A timed out apply is run again by hand.
fn terraform(w: &mut World) {
    let mut labs = 0;
    let mut node = 40;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        if weekday(d0) >= 5 || !w.r.chance(0.5) {
            continue;
        }
        let t = within(&mut w.r, d0, 8, 17);
        if w.r.chance(0.7) {
            let same = w.r.chance(0.5);
            let n = w.r.range(1, 4);
            let mut at = t;
            for _ in 0..n {
                let mut x = w.row(at, Addr::Next(K8S), Some(PROD));
                node += 1;
                x.desc = if same { "k8s worker".to_string() } else { format!("k8s-worker-{node}") };
                x.tenant = Some(T_K8S);
                if w.r.chance(0.5) {
                    x.obj = Some(w.vm_iface(at));
                }
                x.upd = at + w.r.range(60_000, 300_000);
                let k = w.push(x);
                if w.r.chance(0.12) {
                    let g = at + w.r.range(86_400, 25 * 86_400) * SECOND;
                    w.v[k].kill(g);
                }
                at += w.r.range(30_000, 250_000);
            }
        } else {
            labs += 1;
            let name = format!("tf-lab-{}", w.r.one(APPS));
            let mut x = w.row(t, Addr::Pick(LABP), Some(LAB));
            (x.desc, x.dns) = (name.clone(), format!("{name}.lab.{DOMAIN}"));
            let k = w.push(x);
            if labs % 3 == 2 {
                let at = t + w.r.range(3 * 60, 12 * 60) * SECOND + micros(&mut w.r);
                w.again(k, at);
            }
        }
    }
}

/// The "New branch" custom script, run as a job: one transaction of ORM saves (custom fields as the script sets them,
/// only non-null defaults added).
fn branches(w: &mut World) {
    for b in 0..10 {
        let n = 21 + b;
        let d0 = START + (3 + b * 5 + w.r.range(0, 2)) * DAY;
        let t = within(&mut w.r, d0, 8, 16);
        let first = w.device(t);
        let rtr = format!("rtr1-br{n:02}");
        #[rustfmt::skip]
        let rows = [
            (format!("10.255.1.{n}/32"), None, "active", "Loopback0", Some(0), true),
            (format!("10.254.0.{}/30", 4 * n + 2), None, "active", "WAN to hub", Some(1), true),
            (format!("10.64.{n}.1/24"), Some(PROD), "active", "LAN gateway", Some(2), false),
            ("192.168.100.1/24".to_string(), Some(OOB), "active", "OOB gateway", Some(3), false),
            (format!("10.64.{n}.2/24"), Some(PROD), "reserved", "sw1 mgmt", None, false),
            (format!("10.64.{n}.3/24"), Some(PROD), "reserved", "wireless controller", None, false),
        ];
        let mut at = t;
        for (i, (addr, vrf, status, desc, port, monitored)) in rows.into_iter().enumerate() {
            let mut x = w.row(at, Addr::Fixed(addr), vrf);
            (x.status, x.desc) = (status, desc.to_string());
            x.obj = port.map(|p| (CT_IF, first + p));
            if i == 0 {
                (x.role, x.dns) = (Some("loopback"), format!("lo0.{rtr}.net.{DOMAIN}"));
            }
            x.cf = Cf { ticket: Ticket::Absent, monitored };
            w.push(x);
            at += w.r.range(3_000, 12_000);
        }
    }
}

/// A CSV line.
struct Line {
    addr: String,
    vrf: Option<i64>,
    tenant: Option<i64>,
    status: &'static str,
    dns: String,
    desc: String,
    comments: String,
}

/// A CSV import: one transaction, the rows saved one after another `gap` µs apart.
fn import(w: &mut World, t: i64, lines: &[Line], gap: (i64, i64)) -> Vec<usize> {
    let mut at = t;
    let mut out = Vec::new();
    for l in lines {
        let mut x = w.row(at, Addr::Fixed(l.addr.clone()), l.vrf);
        (x.tenant, x.status, x.dns) = (l.tenant, l.status, l.dns.clone());
        (x.desc, x.comments) = (l.desc.clone(), l.comments.clone());
        out.push(w.push(x));
        at += w.r.range(gap.0, gap.1);
    }
    out
}

fn customer(w: &mut World, vrf: i64, tenant: i64, name: &str, skip: usize) -> Vec<Line> {
    let mut dcs = 0;
    let mut lines = Vec::new();
    for &(net, host, what) in &CUSTOMER_LAN[..CUSTOMER_LAN.len() - 2] {
        if skip > 0 && w.r.below(CUSTOMER_LAN.len() as u64) < skip as u64 {
            continue;
        }
        let dns = if what == "domain controller" {
            dcs += 1;
            format!("dc{dcs:02}.{name}.local")
        } else {
            String::new()
        };
        let addr = format!("10.0.{net}.{host}/24");
        let (status, comments) = ("active", String::new());
        lines.push(Line { addr, vrf: Some(vrf), tenant: Some(tenant), status, dns, desc: what.to_string(), comments });
    }
    lines
}

fn imports(w: &mut World) {
    // The legacy spreadsheet (ipplan export) for two server networks.
    let mut lines = Vec::new();
    let mut off = 9;
    for i in 0..85 {
        let net = if i < 48 { 50 } else { 51 };
        if i == 48 {
            off = 9;
        }
        off += 1 + w.r.below(3);
        let host = w.host();
        let tenant = if w.r.chance(0.55) { Some(w.r.one(&TENANTS)) } else { None };
        let dns = if w.r.chance(0.7) { format!("{host}.{DOMAIN}") } else { String::new() };
        let comments = if w.r.chance(0.08) { "imported from ipplan".to_string() } else { String::new() };
        let status = if w.r.chance(0.88) { "active" } else { "reserved" };
        let (addr, desc) = (format!("10.10.{net}.{off}/24"), w.r.one(LEGACY).to_string());
        lines.push(Line { addr, vrf: Some(PROD), tenant, status, dns, desc, comments });
    }
    let t = START + 9 * DAY + 8 * HOUR + 14 * MINUTE + micros(&mut w.r);
    for k in import(w, t, &lines, (6_000, 18_000)) {
        life_import(w, k);
    }
    // A third network: the first upload fails on a duplicate at its 27th line and rolls back; fixed, it goes in.
    let mut lines = Vec::new();
    for i in 0..30 {
        let host = w.host();
        let desc = w.r.one(LEGACY).to_string();
        let dns = format!("{host}.{DOMAIN}");
        let (tenant, status, comments) = (Some(w.r.one(&TENANTS)), "active", String::new());
        let addr = format!("10.10.52.{}/24", 10 + i);
        lines.push(Line { addr, vrf: Some(PROD), tenant, status, dns, desc, comments });
    }
    let t = START + 16 * DAY + 13 * HOUR + 2 * MINUTE + micros(&mut w.r);
    let ks = import(w, t, &lines, (6_000, 18_000));
    w.v[ks[0]].burn = 26;
    for k in ks {
        life_import(w, k);
    }
    // The managed-services customers, overlapping by design.
    let lines = customer(w, CONTOSO, T_CONTOSO, "contoso", 0);
    let t = START + 23 * DAY + 9 * HOUR + 47 * MINUTE + micros(&mut w.r);
    import(w, t, &lines, (6_000, 16_000));
    let lines = customer(w, FABRIKAM, T_FABRIKAM, "fabrikam", 4);
    let t = START + 41 * DAY + 14 * HOUR + 5 * MINUTE + micros(&mut w.r);
    import(w, t, &lines, (6_000, 16_000));
    // The new hall's PDUs and console servers in the out-of-band VRF, while the server is slow: past nginx's 60 s,
    // a 504, the file uploaded again minutes later; the next morning most of the copies are deleted.
    let mut lines = Vec::new();
    for i in 0..20 {
        let rack = 21 + i / 2;
        let what = if i % 2 == 0 { "a" } else { "b" };
        let desc = format!("PDU {} r{rack}", what.to_uppercase());
        let dns = format!("pdu-{what}-r{rack}.fra2.oob.{DOMAIN}");
        let (addr, status, comments) = (format!("192.168.100.{}/24", 10 + i), "active", String::new());
        lines.push(Line { addr, vrf: Some(OOB), tenant: None, status, dns, desc, comments });
    }
    let t = START + 30 * DAY + 13 * HOUR + 2 * MINUTE + micros(&mut w.r);
    let first = import(w, t, &lines, (3_000_000, 3_800_000));
    let t2 = t + w.r.range(180, 300) * SECOND + micros(&mut w.r);
    let again = import(w, t2, &lines, (8_000, 15_000));
    let mut at = START + 31 * DAY + 9 * HOUR + 26 * MINUTE + micros(&mut w.r);
    for (i, (&o, &c)) in first.iter().zip(&again).enumerate() {
        (w.v[c].group, w.v[c].retry) = (Some(o), true);
        if i < 13 {
            w.v[c].kill(at);
            at += w.r.range(4_000, 9_000);
        }
    }
}

fn life_import(w: &mut World, k: usize) {
    let at = w.v[k].at;
    let mut evs = Vec::new();
    if w.r.chance(0.04) {
        evs.push((at + w.r.range(86_400, 40 * 86_400) * SECOND, Ed::Desc(w.r.one(SERVER_DESC).to_string())));
    }
    if w.r.chance(0.03) {
        evs.push((at + w.r.range(86_400, 40 * 86_400) * SECOND, Ed::Status("deprecated")));
    }
    if w.r.chance(0.02) {
        evs.push((at + w.r.range(86_400, 40 * 86_400) * SECOND, Ed::Delete));
    }
    apply(w, k, evs, true);
}

/// Bulk creates by pattern (e.g. `10.10.43.[120-131]/23`): one transaction, one form per address.
fn bulk_creates(w: &mut World) {
    for (d, pool, vrf, n, status, desc) in BULK {
        let t = within(&mut w.r, START + d * DAY, 7, 15);
        let tenant = if w.r.chance(0.4) { Some(w.r.one(&TENANTS)) } else { None };
        let mut at = t;
        for i in 0..n {
            let mut x = w.row(at, Addr::Run(pool, n, i), Some(vrf));
            (x.status, x.desc, x.tenant) = (status, desc.to_string(), tenant);
            let k = w.push(x);
            if status == "reserved" && w.r.chance(0.1) {
                let t = at + w.r.range(2 * 86_400, 30 * 86_400) * SECOND;
                let dns = format!("{}.{DOMAIN}", w.host());
                apply(w, k, vec![(t, Ed::Status("active")), (t, Ed::Dns(dns))], true);
            }
            at += w.r.range(4_000, 9_000);
        }
    }
}

/// The same lab entry made again by someone who did not look (nothing is unique in the lab VRF).
fn lab_twice(w: &mut World) {
    for (a, b, addr, desc) in TWICE {
        for off in [a, b] {
            let t = START + off + w.r.range(0, 3_000) * SECOND + micros(&mut w.r);
            let mut x = w.row(t, Addr::Fixed(addr.to_string()), Some(LAB));
            x.desc = desc.to_string();
            w.push(x);
        }
    }
}

/// Bulk edits: a tenant for the imported 10.10.51.0/24 rows without one; `monitored` for a set of servers.
fn bulk_edits(w: &mut World) {
    let t = START + 38 * DAY + 12 * HOUR + 10 * MINUTE + micros(&mut w.r);
    let mut at = t;
    for k in 0..w.v.len() {
        let ours = matches!(&w.v[k].addr, Addr::Fixed(s) if s.starts_with("10.10.51."));
        if ours && w.v[k].tenant.is_none() && w.v[k].at < t {
            let stamp = at + w.r.range(2_000, 6_000);
            if w.v[k].touch(at, stamp) {
                w.v[k].tenant = Some(11);
            }
            at += w.r.range(5_000, 12_000);
        }
    }
    let t = START + 50 * DAY + 9 * HOUR + 30 * MINUTE + micros(&mut w.r);
    let mut at = t;
    for k in 0..w.v.len() {
        let x = &w.v[k];
        let ours = matches!(x.addr, Addr::Pick(SRV1)) && x.status == "active" && !x.cf.monitored && x.at < t - DAY;
        if ours && w.r.chance(0.25) {
            let stamp = at + w.r.range(2_000, 6_000);
            if w.v[k].touch(at, stamp) {
                w.v[k].cf.monitored = true;
            }
            at += w.r.range(5_000, 12_000);
        }
    }
}

fn pools(r: &mut Rng) -> Vec<Pool> {
    POOLS
        .iter()
        .map(|&(net, len, mask, seq, frac, spill)| {
            let size = 1_u32 << (32 - len);
            let mut used = BTreeMap::new();
            for o in 1..size - 1 {
                let taken = if o <= seq { !r.chance(0.04) } else { r.chance(frac) };
                if taken {
                    used.insert(o, 1);
                }
            }
            Pool { base: u32::from_be_bytes(net), size, mask, used, spill, run: 0 }
        })
        .collect()
}

/// The lowest free host, as available-ips gives it, going on to the next prefix when one is full.
fn lowest(pools: &[Pool], mut p: usize) -> Option<(usize, u32)> {
    loop {
        if let Some(o) = pools[p].first_free(1) {
            return Some((p, o));
        }
        p = pools[p].spill?;
    }
}

/// Addresses in time order: creates take them, deletes give them back.
fn replay(v: &mut [Row], pools: &mut [Pool], r: &mut Rng) {
    let mut evs: Vec<(i64, u8, usize)> = Vec::new();
    for (k, x) in v.iter().enumerate() {
        evs.push((x.at, 0, k));
        if let Some(g) = x.gone {
            evs.push((g, 1, k));
        }
    }
    evs.sort_unstable();
    for (_, kind, k) in evs {
        if kind == 1 {
            if let Some((p, o)) = v[k].pos {
                pools[p].take(o);
            }
            continue;
        }
        let pos = match &v[k].addr {
            Addr::Next(p) => lowest(pools, *p),
            Addr::Pick(p) => {
                let pool = &pools[*p];
                let o = if r.chance(0.55) { pool.first_free(r.range(2, 24) as u32) } else { None };
                o.or_else(|| pool.any_free(r)).map(|o| (*p, o))
            }
            Addr::Any(p) => pools[*p].any_free(r).map(|o| (*p, o)),
            Addr::After(u) => v[*u]
                .pos
                .and_then(|(p, o)| pools[p].first_free(o + 1).or_else(|| pools[p].first_free(1)).map(|o| (p, o))),
            Addr::Same(u) => v[*u].pos,
            Addr::Run(p, n, i) => {
                let pool = &mut pools[*p];
                if *i == 0 {
                    let top = pool.size.saturating_sub(n + 1);
                    let fits = |s: u32| (s..s + n).all(|o| pool.free(o));
                    pool.run = (20..top).find(|&s| fits(s)).unwrap_or(20);
                }
                Some((*p, pool.run + i))
            }
            Addr::Fixed(_) => None,
        };
        let text = match (&v[k].addr, pos) {
            (Addr::Fixed(s), _) => s.clone(),
            (Addr::Same(u), _) => v[*u].text.clone(),
            (_, Some((p, o))) => pools[p].text(o),
            (_, None) => String::new(),
        };
        if let Some((p, o)) = pos {
            pools[p].put(o);
        }
        (v[k].text, v[k].pos) = (text, pos);
    }
}

pub fn fixture() -> Fixture {
    let mut w = World {
        r: Rng::new(4_608),
        v: Vec::new(),
        chg: 40_917,
        dev_if: HashMap::new(),
        vm_if: HashMap::new(),
        asset: 4_480,
        v6: HashSet::new(),
    };
    pipeline(&mut w);
    ci(&mut w);
    dhcp(&mut w);
    ansible(&mut w);
    cmdb(&mut w);
    terraform(&mut w);
    branches(&mut w);
    imports(&mut w);
    bulk_creates(&mut w);
    lab_twice(&mut w);
    ui(&mut w);
    bulk_edits(&mut w);
    let mut pools = pools(&mut w.r);
    replay(&mut w.v, &mut pools, &mut w.r);
    let v = w.v;

    let mut order: Vec<usize> = (0..v.len()).filter(|&k| v[k].at < NOW - SECOND).collect();
    order.sort_by_key(|&k| (v[k].at, k));
    let mut ids = vec![0_i64; v.len()];
    let mut id = ID0;
    for &k in &order {
        id += 1 + v[k].burn;
        ids[k] = id;
    }
    let alive = |k: usize| ids[k] != 0 && v[k].gone.is_none_or(|g| g >= NOW);
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for (k, x) in v.iter().enumerate() {
        if let Some(g) = x.group {
            groups.entry(g).or_insert_with(|| vec![g]).push(k);
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("ipam_ipaddress", &columns);
    let mut seen: HashSet<String> = HashSet::new();
    for &k in order.iter().filter(|&&k| alive(k)) {
        let x = &v[k];
        // A retry's row is an extra while a row of the same request made before it is still there.
        let twin = x.retry
            && x.group
                .and_then(|g| groups.get(&g))
                .is_some_and(|members| members.iter().any(|&m| m != k && alive(m) && (v[m].at, m) < (x.at, k)));
        let nat = x.nat.filter(|&n| alive(n)).map(|n| ids[n]);
        let cf = x.cf.json();
        let key = format!(
            "{:?}|{:?}|{}|{:?}|{:?}|{:?}|{}|{}|{}|{:?}|{cf}",
            x.vrf, x.tenant, x.status, x.role, x.obj, nat, x.dns, x.desc, x.comments, x.owner
        );
        let fresh = seen.insert(key);
        let mark = if twin {
            Mark::Retry
        } else if fresh {
            Mark::Plain
        } else {
            Mark::Legit
        };
        f.push(&[
            ("created", V::AtZ(x.at)),
            ("last_updated", V::AtZ(x.upd)),
            ("custom_field_data", V::t(cf)),
            ("id", V::I(ids[k])),
            ("address", V::t(&x.text)),
            ("status", V::t(x.status)),
            ("role", V::opt_t(x.role)),
            ("assigned_object_id", V::opt_i(x.obj.map(|o| o.1))),
            ("dns_name", V::t(&x.dns)),
            ("description", V::t(&x.desc)),
            ("assigned_object_type_id", V::opt_i(x.obj.map(|o| o.0))),
            ("nat_inside_id", V::opt_i(nat)),
            ("tenant_id", V::opt_i(x.tenant)),
            ("vrf_id", V::opt_i(x.vrf)),
            ("comments", V::t(&x.comments)),
            ("owner_id", V::opt_i(x.owner)),
        ]);
        f.mark(ids[k], mark);
        // The next free address and the payload every merge request's allocation sends.
        if twin && x.hidden {
            f.hidden.insert(ids[k].to_string());
        }
    }
    f
}
