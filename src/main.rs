use std::process::ExitCode;

fn main() -> ExitCode {
    idemctl::install_early();
    let cli = match idemctl::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    idemctl::report(idemctl::run(cli))
}
