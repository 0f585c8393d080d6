use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match idemctl::cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    idemctl::exit::report(idemctl::run(cli))
}
