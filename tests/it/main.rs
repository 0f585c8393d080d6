//! The integration tests, in one binary: each module tests a command or a
//! concern against PostgreSQL, MariaDB and SQLite (`common` starts and
//! reaches them). One binary links the crate once, and a private server a
//! module starts (a replica, TLS, a server to kill) is started once for all.

#[macro_use]
mod common;

mod applications;
mod compare;
mod demo;
mod designs;
mod doctor;
mod expire;
mod faults;
mod fleet;
mod guards;
mod guide;
mod libraries;
mod man;
mod nothing_done;
mod output;
mod pacing;
mod partitions;
mod promises;
mod reap;
mod scan;
mod size;
mod stuck;
