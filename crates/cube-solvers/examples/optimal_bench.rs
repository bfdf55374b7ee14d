//! Benchmark of the optimal solvers on positions of known optimal length: Korf's over a Korf tier
//! (6edge, 7edge, 8edge), sym48 over an H48 tier (h0, h4..h7).
//!
//! ```text
//! cargo run --release -p cube-solvers --example optimal_bench -- \
//!     --tables /work/targets/tables-7edge --tier 7edge --threads 2 [--limit N] [--verbose] \
//!     [--no-inverse] [--no-symmetric] [--symmetries RUm,FDm,..] [--no-upper-bound] [--no-concurrent-upper-bound] \
//!     [--upper-bound-ms MS] [--helper-delay-ms MS] [--max-length N] FILE...
//! cargo run --release -p cube-solvers --example optimal_bench -- \
//!     --tables DIR --tier 6edge --heuristic-stats 20000
//! cargo run --release -p cube-solvers --example optimal_bench -- \
//!     --tables DIR --tier h0 --threads 2 --max-length 14 [--verbose] FILE...
//! ```
//!
//! Each line of a FILE is a move sequence that is an optimal solution of length `n` of the position
//! it makes from the solved cube (the layout of `positions/nissy-core-optimal-NN.txt`). Every
//! position is solved to optimality, its length checked against `n`, and per position the nodes,
//! seconds and nodes per second are printed, then the medians. The tables are loaded into anonymous
//! huge-page memory, each payload hashed, and searched as every front end does
//! ([`OptimalTables`], with the options' configuration); the two-phase tables of the upper bound
//! are read from (or built into) the same directory. An H48 tier needs its table and `korf-corners`
//! (`cargo xtask bake-tables --tier h0`); the Korf lookup options do not apply to it, and
//! `--verbose` adds sym48's counters per position (probes per node, corner and face prunes, BPMX
//! returns), and `--ordered-from N` / `--ordered-prefix-depth D` set its ordered bounds
//! (`sym48::Config::ordered_from`, default 15 and 3; for an nx tier `nx::Config::ordered_from`,
//! default 15 and 4; `--lanes N` the prefixes an nx thread searches at once, default 4).
//! `--prefix-depth`, the upper-bound options
//! and `--max-length` apply to both.
//!
//! `--heuristic-stats N` prints instead the mean heuristic of N seeded random states for each
//! lookup configuration, and picks conjugating symmetries greedily (how
//! [`cube_solvers::korf::DEFAULT_SYMMETRIES`] was chosen).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use cube_core::{Alg, Cube, Symmetry};
use cube_solvers::korf::{Config, Korf};
use cube_solvers::optimal::{Configs, OptimalSearch, OptimalTables, Progress};
use cube_solvers::two_phase::{TwoPhase, TwoPhaseTables};
use cube_solvers::{Limits, Stop};
use cube_tables::Tier;
use cube_tables::pdb::PdbSet;
use rand::SeedableRng;

struct Args {
    tables: PathBuf,
    tier: Tier,
    threads: usize,
    limit: usize,
    max_length: Option<usize>,
    verbose: bool,
    /// The searches' settings, of which the tier's family's apply.
    configs: Configs,
    heuristic_stats: Option<usize>,
    files: Vec<PathBuf>,
}

/// A prefix depth option's value: 1 to 4 moves, as both solvers take.
fn prefix_depth(name: &str, text: &str) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|d| (1..=4).contains(d))
        .ok_or_else(|| format!("{name}: 1 to 4"))
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        tables: PathBuf::from("tables"),
        tier: Tier::Edge7,
        threads: 2,
        limit: usize::MAX,
        max_length: None,
        verbose: false,
        configs: Configs::default(),
        heuristic_stats: None,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--tables" => args.tables = PathBuf::from(value("--tables")?),
            "--tier" => {
                args.tier = value("--tier")?
                    .parse()
                    .map_err(|e| format!("--tier: {e}"))?
            }
            "--threads" => {
                args.threads = value("--threads")?
                    .parse()
                    .map_err(|e| format!("--threads: {e}"))?
            }
            "--limit" => {
                args.limit = value("--limit")?
                    .parse()
                    .map_err(|e| format!("--limit: {e}"))?
            }
            "--max-length" => {
                args.max_length = Some(
                    value("--max-length")?
                        .parse()
                        .map_err(|e| format!("--max-length: {e}"))?,
                )
            }
            "--prefix-depth" => {
                let depth = prefix_depth("--prefix-depth", &value("--prefix-depth")?)?;
                for search in args.configs.searches_mut() {
                    search.prefix_depth = depth;
                }
            }
            "--ordered-from" => {
                let from = value("--ordered-from")?
                    .parse()
                    .map_err(|e| format!("--ordered-from: {e}"))?;
                args.configs.sym48.ordered_from = from;
                args.configs.nx.ordered_from = from;
            }
            "--ordered-prefix-depth" => {
                let depth =
                    prefix_depth("--ordered-prefix-depth", &value("--ordered-prefix-depth")?)?;
                args.configs.sym48.ordered_prefix_depth = depth;
                args.configs.nx.ordered_prefix_depth = depth;
            }
            "--lanes" => {
                let lanes = value("--lanes")?
                    .parse()
                    .ok()
                    .filter(|n| (1..=16).contains(n))
                    .ok_or("--lanes: 1 to 16")?;
                args.configs.nx.lanes = lanes;
            }
            "--heuristic-stats" => {
                args.heuristic_stats = Some(
                    value("--heuristic-stats")?
                        .parse()
                        .map_err(|e| format!("--heuristic-stats: {e}"))?,
                )
            }
            "--symmetries" => {
                args.configs.korf.symmetries = value("--symmetries")?
                    .split(',')
                    .map(|name| {
                        name.parse::<Symmetry>()
                            .map_err(|e| format!("--symmetries: {e}"))
                    })
                    .collect::<Result<_, _>>()?
            }
            "--upper-bound-ms" => {
                let ms: u64 = value("--upper-bound-ms")?
                    .parse()
                    .map_err(|e| format!("--upper-bound-ms: {e}"))?;
                let budget = std::time::Duration::from_millis(ms);
                for search in args.configs.searches_mut() {
                    search.upper_bound_budget = budget;
                }
            }
            "--helper-delay-ms" => {
                let ms: u64 = value("--helper-delay-ms")?
                    .parse()
                    .map_err(|e| format!("--helper-delay-ms: {e}"))?;
                let delay = std::time::Duration::from_millis(ms);
                for search in args.configs.searches_mut() {
                    search.helper_delay = delay;
                }
            }
            "--verbose" => args.verbose = true,
            "--no-inverse" => args.configs.korf.inverse = false,
            "--no-symmetric" => args.configs.korf.symmetric = false,
            "--no-upper-bound" => {
                for search in args.configs.searches_mut() {
                    search.upper_bound = false;
                }
            }
            "--no-concurrent-upper-bound" => {
                for search in args.configs.searches_mut() {
                    search.concurrent_upper_bound = false;
                }
            }
            other if other.starts_with("--") => return Err(format!("unknown option {other}")),
            file => args.files.push(PathBuf::from(file)),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("optimal_bench: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    if let Some(n) = args.heuristic_stats {
        // The Korf lookups' statistics: an H48 tier is refused by the load, naming the tiers.
        return match PdbSet::load_anonymous(&args.tables, args.tier) {
            Ok(tables) => {
                heuristic_stats(&tables, n);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("optimal_bench: --heuristic-stats: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let tables = match OptimalTables::load_anonymous(&args.tables, args.tier, true) {
        Ok(tables) => tables,
        Err(e) => {
            eprintln!(
                "optimal_bench: loading tables after {:.1} s: {e}",
                start.elapsed().as_secs_f64()
            );
            return ExitCode::FAILURE;
        }
    };
    let search = tables.searcher_with(two_phase(&args), &args.configs);
    let korf = &args.configs.korf;
    let sym48 = &args.configs.sym48;
    let settings = format!(
        "tier {} ({}) threads {} upper-bound {} concurrent {}; korf: inverse {} symmetric {} ({}); sym48: ordered from {} over {} moves",
        args.tier,
        args.tier.family().method(),
        args.threads,
        korf.search.upper_bound,
        korf.search.concurrent_upper_bound,
        korf.inverse,
        korf.symmetric,
        korf.symmetries
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(","),
        sym48.ordered_from,
        sym48.ordered_prefix_depth,
    );
    match run(&args, &settings, search.as_ref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("optimal_bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The two-phase solver of the upper bound, its tables cached beside the databases as cube-cli
/// does.
fn two_phase(args: &Args) -> TwoPhase {
    match cube_solvers::load_or_build::<TwoPhaseTables>(&args.tables) {
        Ok(loaded) => {
            if loaded.built > 0 {
                match loaded.not_written {
                    None => println!(
                        "built {} two-phase tables in {}",
                        loaded.built,
                        args.tables.display()
                    ),
                    Some(e) => println!("two-phase tables built in memory ({e})"),
                }
            }
            TwoPhase::new(loaded.tables)
        }
        Err(e) => {
            println!("two-phase tables built in memory ({e})");
            TwoPhase::new(Arc::new(TwoPhaseTables::large()))
        }
    }
}

/// Solves every position of the files with `search`, printing a line per position and the medians.
fn run(args: &Args, settings: &str, search: &dyn OptimalSearch) -> Result<(), String> {
    let limits = Limits {
        threads: args.threads,
        max_length: args.max_length,
        ..Limits::default()
    };
    println!("{settings}");
    let (mut seconds, mut node_counts, mut rates) = (Vec::new(), Vec::new(), Vec::new());
    let mut cpu_total = 0.0;
    for file in &args.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (n, line) in text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(args.limit)
            .enumerate()
        {
            let alg: Alg = line
                .parse()
                .map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
            let expected = alg.moves().len();
            let cube = Cube::SOLVED.apply_alg(&alg);
            // Before the first bound: the lower bound and the two-phase upper bound.
            let mut start = None;
            let mut report = |p: &Progress| {
                start.get_or_insert(p.elapsed.saturating_sub(p.bound_elapsed));
                if args.verbose {
                    eprintln!("  {p}");
                }
            };
            let cpu_before = process_cpu_seconds();
            let outcome = search
                .search(&cube, &limits, &Stop::new(), &mut report)
                .map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
            let cpu = process_cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
            cpu_total += cpu.unwrap_or(0.0);
            if args.verbose {
                if let Some(start) = start {
                    eprintln!(
                        "  {:.2} ms before the first bound (the lower bound, the two-phase upper bound)",
                        start.as_secs_f64() * 1e3
                    );
                }
                eprintln!("  two-phase upper bound: {:?}", outcome.upper_bound);
                if let Some(c) = outcome.counters {
                    eprintln!(
                        "  probes {} ({:.3} per node), corner prunes {}, face prunes {}, bpmx returns {}",
                        c.probes,
                        c.probes as f64 / outcome.nodes.max(1) as f64,
                        c.corner_prunes,
                        c.face_prunes,
                        c.bpmx_returns
                    );
                }
            }
            if args.max_length.is_some_and(|max| max < expected) {
                // Exhausting the bounds up to the maximum: a node count, no solution expected.
                let secs = outcome.elapsed.as_secs_f64();
                println!(
                    "{}:{:<3} {expected:2} moves, proven > {:2}: {:>14} nodes {:9.3} s {:7.2} M nodes/s",
                    file.display(),
                    n + 1,
                    outcome.proven_lower_bound - 1,
                    outcome.nodes,
                    secs,
                    outcome.nodes as f64 / secs / 1e6
                );
                seconds.push(secs);
                node_counts.push(outcome.nodes as f64);
                rates.push(outcome.nodes as f64 / secs / 1e6);
                continue;
            }
            let moves = &outcome.solutions.first().ok_or("no solution")?.moves;
            if !outcome.optimal || moves.len() != expected || !cube.apply_moves(moves).is_solved() {
                return Err(format!(
                    "{}:{}: expected an optimal solution of {expected} moves, got {} (optimal: {})",
                    file.display(),
                    n + 1,
                    Alg::from_moves(moves),
                    outcome.optimal
                ));
            }
            let secs = outcome.elapsed.as_secs_f64();
            let rate = outcome.nodes as f64 / secs / 1e6;
            let cpu_per_node = cpu.map_or_else(String::new, |cpu| {
                format!(
                    "{:6.1} ns cpu/node",
                    cpu * 1e9 / outcome.nodes.max(1) as f64
                )
            });
            println!(
                "{}:{:<3} {expected:2} moves {:>14} nodes {:9.3} s {:7.2} M nodes/s {cpu_per_node}  {}",
                file.file_name().map_or_else(
                    || file.display().to_string(),
                    |f| f.to_string_lossy().into_owned()
                ),
                n + 1,
                outcome.nodes,
                secs,
                rate,
                Alg::from_moves(moves)
            );
            seconds.push(secs);
            node_counts.push(outcome.nodes as f64);
            rates.push(rate);
        }
    }
    println!(
        "median of {}: {:.0} nodes, {:.3} s, {:.2} M nodes/s; total {:.3} s, {:.0} nodes, {:.2} s of CPU",
        seconds.len(),
        median(&mut node_counts.clone()),
        median(&mut seconds.clone()),
        median(&mut rates),
        seconds.iter().sum::<f64>(),
        node_counts.iter().sum::<f64>(),
        cpu_total
    );
    Ok(())
}

/// The CPU time of the process so far (user + system, every thread), from `/proc/self/stat`
/// (Linux; 10 ms resolution): on a shared machine, CPU time per node is steadier than wall time.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // USER_HZ, 100 on every Linux this runs on.
    Some(ticks / 100.0)
}

fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Mean heuristic of `n` seeded random states per lookup configuration, and a greedy choice of
/// conjugating symmetries.
fn heuristic_stats<T: AsRef<[u8]> + Sync>(tables: &PdbSet<T>, n: usize) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let cubes: Vec<Cube> = (0..n).map(|_| Cube::random(&mut rng)).collect();
    let mean = |config: Config| {
        let korf = Korf::with_config(tables, config);
        cubes
            .iter()
            .map(|c| f64::from(korf.heuristic(c)))
            .sum::<f64>()
            / n as f64
    };
    let config = |inverse: bool, symmetries: &[Symmetry]| Config {
        inverse,
        symmetric: !symmetries.is_empty(),
        symmetries: symmetries.to_vec(),
        ..Config::default()
    };
    println!("{n} random states, tier {}", tables.tier());
    println!("plain max of three: {:.4}", mean(config(false, &[])));
    println!("with the inverse:   {:.4}", mean(config(true, &[])));
    println!("default config:     {:.4}", mean(Config::default()));
    for inverse in [false, true] {
        let mut chosen: Vec<Symmetry> = Vec::new();
        for _ in 0..7 {
            let best = Symmetry::all()
                .filter(|s| *s != Symmetry::IDENTITY && !chosen.contains(s))
                .map(|s| {
                    let mut with = chosen.clone();
                    with.push(s);
                    (s, mean(config(inverse, &with)))
                })
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("47 candidates");
            chosen.push(best.0);
            println!(
                "inverse {inverse}: + {} (index {}) -> {:.4}",
                best.0,
                best.0.index(),
                best.1
            );
        }
    }
}
