//! Measures loading the pattern databases of a tier into anonymous memory: with the payload hash
//! (`PdbSet::load_anonymous`, what `cube-cli optimal` does), without it
//! (`PdbSet::load_anonymous_unchecked`, `--trust-header`), and the load before the hash was added
//! (one `read_exact` of each payload into anonymous memory on the calling thread), interleaved
//! round by round so that all three see the same page cache and load.
//!
//! Run with `cargo run --release -p cube-tables --example load_tier -- DIR TIER [ROUNDS]` after
//! baking TIER into DIR. Warm the page cache first (one round is enough: the first is printed too).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, Instant};

use cube_tables::pdb::PdbSet;
use cube_tables::{HEADER_LEN, Scratch, Tier};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: load_tier DIR TIER [ROUNDS]")?;
    let tier: Tier = args
        .next()
        .ok_or("usage: load_tier DIR TIER [ROUNDS]")?
        .parse()?;
    let rounds: usize = args.next().map_or(Ok(3), |a| a.parse())?;
    let dir = Path::new(&dir);
    println!(
        "tier {tier} in {}, {} rayon threads",
        dir.display(),
        rayon::current_num_threads()
    );
    // The order rotates from round to round, so that none of the three always comes first (the
    // first to map gigabytes of huge pages after a free may pay for the kernel's compaction).
    let names = ["with hash", "trusting the header", "previous load"];
    let mut all: [Vec<Duration>; 3] = Default::default();
    let mut cpu: [Vec<Duration>; 3] = Default::default();
    for round in 0..=rounds {
        let mut times = [Duration::ZERO; 3];
        for k in 0..3 {
            let which = (round + k) % 3;
            let cpu_before = cpu_time();
            times[which] = time(|| match which {
                0 => drop(PdbSet::load_anonymous(dir, tier).expect("the tier loads")),
                1 => drop(PdbSet::load_anonymous_unchecked(dir, tier).expect("the tier loads")),
                _ => previous_load(dir, tier).expect("the tier reads"),
            });
            if round > 0 {
                cpu[which].push(cpu_time().saturating_sub(cpu_before));
            }
        }
        let label = if round == 0 {
            "warm-up".to_string()
        } else {
            for (list, t) in all.iter_mut().zip(times) {
                list.push(t);
            }
            format!("round {round}")
        };
        let line: Vec<String> = names
            .iter()
            .zip(times)
            .map(|(name, t)| format!("{name} {:.0} ms", ms(t)))
            .collect();
        println!("{label}: {}", line.join(", "));
    }
    let line: Vec<String> = names
        .iter()
        .zip(all.iter_mut())
        .map(|(name, list)| {
            list.sort();
            let median = list.get(list.len() / 2).copied().unwrap_or_default();
            let fastest = list.first().copied().unwrap_or_default();
            format!("{name} {:.0} ms ({:.0} fastest)", ms(median), ms(fastest))
        })
        .collect();
    println!("median wall time: {}", line.join(", "));
    let line: Vec<String> = names
        .iter()
        .zip(cpu.iter_mut())
        .map(|(name, list)| {
            list.sort();
            let median = list.get(list.len() / 2).copied().unwrap_or_default();
            format!("{name} {:.0} ms", ms(median))
        })
        .collect();
    println!(
        "median CPU time (user + system, all threads): {}",
        line.join(", ")
    );
    Ok(())
}

/// The load before the payload check: each payload read with one `read_exact` into anonymous
/// memory (the header checks, constant time, are left out).
fn previous_load(dir: &Path, tier: Tier) -> std::io::Result<()> {
    for spec in cube_tables::tier::specs(tier) {
        let mut file = std::fs::File::open(spec.path_in(dir))?;
        let len = spec.payload_len() as usize;
        let mut memory = Scratch::anonymous(len).map_err(std::io::Error::other)?;
        file.seek(SeekFrom::Start(HEADER_LEN as u64))?;
        file.read_exact(&mut memory)?;
        std::hint::black_box(&memory);
    }
    Ok(())
}

/// The CPU time of this process so far (user + system, all threads), from `/proc/self/stat` in
/// clock ticks of 10 ms; zero off Linux.
fn cpu_time() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // The fields after the command name, which is in parentheses: utime and stime are the 12th
    // and 13th of them.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
