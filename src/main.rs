fn main() -> std::process::ExitCode {
    ordo::cli::main()
}
