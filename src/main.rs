use std::process::ExitCode;

fn main() -> ExitCode {
    idemctl::interrupt::install_early();
    let cli = match idemctl::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    idemctl::exit::report(idemctl::run(cli))
}
