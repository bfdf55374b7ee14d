//! The small tables of the methods (two-phase, Thistlethwaite, the cross tables of beginner and
//! CFOP), cached in the table directory and installed once per run.

use std::sync::OnceLock;

use crate::args::Global;
use crate::output;
use crate::table_dir::{Bar, file_bytes, size_text, table_dir};

/// Installs the small tables of `method` (`two-phase`, `thistlethwaite`, `cross`) from the table directory,
/// once per run: each file that is missing, stale or corrupt is built and rewritten. Caching only
/// saves time, so when the directory cannot be found or written the solver simply builds its
/// tables in memory, as it would without a cache.
pub fn install(global: &Global, method: &str) {
    static DONE: [OnceLock<()>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let sets = cube_solvers::small_tables();
    let Some(index) = sets.iter().position(|set| set.method == method) else {
        return;
    };
    let set = sets[index];
    DONE[index].get_or_init(|| {
        if let Ok(dir) = table_dir(global) {
            // The big two-phase tables take seconds to build: say why the wait.
            let tell = global.notes() && set.specs.iter().any(|spec| !spec.path_in(&dir).exists());
            if tell {
                let bytes = set.specs.iter().map(file_bytes).sum();
                output::note(format_args!(
                    "cube-cli: building the {method} tables (once; {} in {})",
                    size_text(bytes),
                    dir.display()
                ));
            }
            // A spinner on a terminal while they build (seconds for two-phase).
            let bar = Bar::new(tell);
            bar.start(&format!("{method} tables"), None);
            // Caching only saves time: on an error the solver builds its tables in memory.
            let loaded = set.load_or_build(&dir);
            bar.finish();
            if let Ok(outcome) = loaded
                && tell
                && outcome.built > 0
            {
                match outcome.not_written {
                    None => output::note(format_args!(
                        "cube-cli: cached the {method} tables in {}",
                        dir.display()
                    )),
                    Some(e) => output::note_warning(format_args!(
                        "the {method} tables are not cached, they will be built again next time: {e}"
                    )),
                }
            }
        }
    });
}
