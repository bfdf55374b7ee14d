//! `cargo xtask test`: every test of the workspace in one command. The Rust tests, optimised
//! (the `testing` profile: release without link-time optimisation; `--lib --bins --tests`, then
//! `--doc`, every crate but cube-benches), which builds the cube-cli that the Python tests run
//! beside xtask itself (they are told both paths); then the Python package: a virtual environment
//! under the target directory (`py-venv`, kept between runs), maturin and pytest installed in it
//! (and `dask[distributed]` when it can be, else the Dask test skips), the abi3 wheel built by
//! maturin in the same profile, installed, and `pytest crates/cube-py/tests` (told the wheel's
//! path in `CUBE_TOOLKIT_WHEEL`, for the test that installs it into a fresh environment).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::flags::TestFlags;
use crate::{Error, project_root};

/// The profile the tests are built in (the workspace's `Cargo.toml` says why).
const PROFILE: &str = "testing";

pub fn run(flags: TestFlags) -> Result<(), Error> {
    let root = project_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map_or_else(|| root.join("target"), |dir| root.join(dir));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    if !flags.python_only {
        // cube-benches holds criterion benchmarks and no test: its build (criterion and its
        // dependencies) is clippy's to check, as are the examples (each its own binary).
        let rust_tests = ["test", "--workspace", "--exclude", "cube-benches"];
        step("the Rust tests", || {
            run_checked(
                Command::new(&cargo)
                    .args(rust_tests)
                    .args(["--profile", PROFILE, "--lib", "--bins", "--tests"])
                    .current_dir(&root),
            )
        })?;
        step("the documentation tests", || {
            run_checked(
                Command::new(&cargo)
                    .args(rust_tests)
                    .args(["--profile", PROFILE, "--doc"])
                    .current_dir(&root),
            )
        })?;
    }
    let python = flags.python.unwrap_or_else(|| "python3".into());
    let version = Command::new(&python).arg("--version").output();
    if !version.as_ref().is_ok_and(|out| out.status.success()) {
        return Err(format!(
            "{} not found: the Python tests need Python 3.9 or later with its venv module (Debian: apt-get install python3 python3-venv); --python PATH names another interpreter, and cargo test --workspace --release runs the Rust tests alone",
            python.display()
        )
        .into());
    }
    let venv = target.join("py-venv");
    let bin = venv.join(if cfg!(windows) { "Scripts" } else { "bin" });
    let venv_python = bin.join(if cfg!(windows) {
        "python.exe"
    } else {
        "python"
    });
    step("the virtual environment", || {
        if !venv_python.exists() {
            run_checked(Command::new(&python).args(["-m", "venv"]).arg(&venv))?;
        }
        run_checked(
            Command::new(&venv_python)
                .args(["-m", "pip", "install", "--quiet", "maturin", "pytest"])
                .current_dir(&root),
        )?;
        let dask = Command::new(&venv_python)
            .args(["-m", "pip", "install", "--quiet", "dask[distributed]"])
            .status();
        if !dask.is_ok_and(|status| status.success()) {
            eprintln!(
                "xtask test: dask[distributed] could not be installed: the Dask test will be skipped"
            );
        }
        Ok(())
    })?;
    let wheels = target.join("wheels");
    let wheel = step("the wheel (maturin build)", || {
        remove_old_wheels(&wheels)?;
        run_checked(
            Command::new(bin.join("maturin"))
                .args(["build", "--profile", PROFILE, "--quiet", "--interpreter"])
                .arg(&venv_python)
                .arg("--out")
                .arg(&wheels)
                .current_dir(root.join("crates/cube-py")),
        )?;
        find_wheel(&wheels)
    })?;
    step("installing the wheel", || {
        run_checked(
            Command::new(&venv_python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--force-reinstall",
                    "--no-deps",
                ])
                .arg(&wheel),
        )
    })?;
    // The binaries the Python tests run beside the package (cube-cli's answers, and the
    // one bake rule of cube-cli, xtask and Python): xtask is this program, and `cargo test` has
    // built cube-cli for its own tests. Building them again apart would compile the workspace a
    // further time (its crates' features differ without the tests' dev-dependencies), so only
    // --python-only builds cube-cli.
    let cube_cli = target
        .join(PROFILE)
        .join(format!("cube-cli{}", std::env::consts::EXE_SUFFIX));
    if flags.python_only {
        step("the binary of cube-cli", || {
            run_checked(
                Command::new(&cargo)
                    .args(["build", "--profile", PROFILE, "-p", "cube-cli"])
                    .current_dir(&root),
            )
        })?;
    }
    let xtask = std::env::current_exe().map_err(|e| format!("finding xtask's own binary: {e}"))?;
    // The directory the CLI's tests cache their tables in: the 6edge and two-phase tables are
    // built once per checkout for both suites.
    let tables = target.join("tmp").join("cli-tables");
    step("the Python tests (pytest)", || {
        // pytest's exit code 5 (no test collected) is a failure too.
        run_checked(
            Command::new(&venv_python)
                .args(["-m", "pytest", "-q", "crates/cube-py/tests"])
                .env("CUBE_TABLES_DIR", &tables)
                .env("CUBE_CLI_BIN", &cube_cli)
                .env("CUBE_XTASK_BIN", &xtask)
                // test_wheel.py installs it into a fresh environment and runs README's snippet.
                .env("CUBE_TOOLKIT_WHEEL", &wheel)
                .current_dir(&root),
        )
    })?;
    Ok(())
}

/// Runs `task`, then says how long it took.
fn step<T>(name: &str, task: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    eprintln!("xtask test: {name}");
    let start = Instant::now();
    let result = task()?;
    eprintln!(
        "xtask test: {name}: done in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(result)
}

/// Runs `command`; a failure to start it or a non-zero exit is an error naming it.
fn run_checked(command: &mut Command) -> Result<(), Error> {
    let shown = format!("{command:?}");
    let status = command
        .status()
        .map_err(|e| format!("running {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed: {status}").into())
    }
}

/// The wheels of earlier builds, so that the one installed is the one just built.
fn remove_old_wheels(dir: &Path) -> Result<(), Error> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let path = entry?.path();
        if is_our_wheel(&path) {
            std::fs::remove_file(&path).map_err(|e| format!("removing {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn is_our_wheel(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| name.starts_with("cube_toolkit-") && name.ends_with(".whl"))
}

fn find_wheel(dir: &Path) -> Result<PathBuf, Error> {
    std::fs::read_dir(dir)
        .map_err(|e| format!("reading {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .find(|path| is_our_wheel(path))
        .ok_or_else(|| format!("maturin wrote no cube_toolkit wheel into {}", dir.display()).into())
}
