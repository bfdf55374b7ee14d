//! Insertions for fewest-moves solving (WIP).

mod algs;
mod cancel;
mod cycles;
mod generate;

pub use self::algs::{AlgSet, Case, Kind};
pub use self::cycles::{Cycle, Leftover, Orbit};

#[cfg(test)]
mod explore {
    use super::*;

    #[test]
    #[ignore]
    fn counts() {
        let t = std::time::Instant::now();
        let max: Vec<(Kind, usize)> = std::env::var("GEN")
            .unwrap()
            .split(',')
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                (*Kind::GENERATED.iter().find(|x| x.name() == k).unwrap(), v.parse().unwrap())
            })
            .collect();
        let found = generate::generate(|k| max.iter().find(|x| x.0 == k).map(|x| x.1));
        eprintln!("generated {} in {:?}", found.len(), t.elapsed());
        let set = AlgSet::from_sequences(found);
        eprintln!("set {} algs, {} cases in {:?}", set.len(), set.cases().len(), t.elapsed());
        for k in Kind::GENERATED {
            let cases = set.cases().iter().filter(|c| c.kind() == k).count();
            eprintln!("{k}: cases {cases} counts {:?}", set.counts(k));
            for case in set.cases().iter().filter(|c| c.kind() == k).take(2) {
                for a in set.algorithms(case).take(3) {
                    eprintln!("   {}", cube_core::Alg::from_moves(a));
                }
            }
        }
    }
}
