// mpiwrite_manual OUT_DIR: the man pages and bash completions of mpiwrite and mpiwrite-compare,
// made at build time from the same CLI11 apps the programs parse with (cli.hpp,
// compare_cli.hpp), so an option added to either program is in its page and its completion.
// Writes OUT_DIR/man/{mpiwrite,mpiwrite-compare}.1 and OUT_DIR/completion/{same names}.
// The text here is what surrounds the options: name line, synopsis, exit status, see also.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "mpiwrite/compare/compare_cli.hpp"
#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/version.hpp"
#include "mpiwrite/manual/bash_completion.hpp"
#include "mpiwrite/manual/man_page.hpp"

namespace {

using mpiwrite::ManPage;

ManPage mpiwrite_page() {
  ManPage page;
  page.program = "mpiwrite";
  page.version = std::string("mpiwrite ") + mpiwrite::kVersion;
  page.summary = "create many small files from MPI ranks and threads, and time it";
  page.synopsis = "mpirun [mpirun options] mpiwrite [options]\nmpiwrite [options]";
  page.sections = {
      {"EXIT STATUS",
       "0 the run completed.\n\n"
       "1 an I/O failure on any rank; standard error names every failing rank's path and "
       "error.\n\n"
       "2 bad options or values: one line \"mpiwrite: error: ...\" on standard error, and "
       "nothing was created or deleted.\n\n"
       "124 a rank's phase outran --timeout and the job was aborted.\n\n"
       "128+N interrupted by signal N (130 for SIGINT, 143 for SIGTERM); the files this run "
       "created are removed."},
      {"EXAMPLES",
       " mpirun -np 4 mpiwrite\n"
       " mpirun -np 4 mpiwrite -t 4 -n 100000 --dir /scratch/$USER/mw --format json -o run.json\n"
       " mpirun -np 2 mpiwrite --compare -r 5 --json compare.json\n"
       " mpiwrite-compare old.json new.json --fail-on slower"},
      {"FILES",
       "/usr/share/mpiwrite/ holds the Slurm and PBS job scripts (slurm/, pbs/), run.sh, "
       "plot.py (plots sweep and compare reports), job_summary.py, mpiwrite_report.py, the "
       "JSON report's schema (report.schema.json) and example hostfiles.\n\n"
       "/usr/share/doc/mpiwrite/ holds README.md and docs/: metrics.md says what every figure "
       "means, errors.md every error, cluster.md how to run on a cluster."},
      {"SEE ALSO", "mpiwrite-compare(1), mpirun(1)"},
  };
  return page;
}

ManPage compare_page() {
  ManPage page;
  page.program = "mpiwrite-compare";
  page.version = std::string("mpiwrite ") + mpiwrite::kVersion;
  page.summary = "tell whether one mpiwrite JSON report is faster than another";
  page.synopsis = "mpiwrite-compare [options] OLD NEW";
  page.footer_section = "DETAILS";
  page.sections = {{"SEE ALSO", "mpiwrite(1)"}};
  return page;
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::cerr << "mpiwrite_manual: error: cannot write " << path.string() << '\n';
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mpiwrite_manual OUT_DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code error;
  std::filesystem::create_directories(dir / "man", error);
  std::filesystem::create_directories(dir / "completion", error);
  bool ok = true;
  mpiwrite::describe_command_line([&](const CLI::App& app) {
    ok = write_file(dir / "man" / "mpiwrite.1", mpiwrite::man_page(app, mpiwrite_page())) && ok;
    ok = write_file(dir / "completion" / "mpiwrite", mpiwrite::bash_completion(app, "mpiwrite")) &&
         ok;
  });
  mpiwrite::describe_compare_command_line([&](const CLI::App& app) {
    ok = write_file(dir / "man" / "mpiwrite-compare.1", mpiwrite::man_page(app, compare_page())) &&
         ok;
    ok = write_file(dir / "completion" / "mpiwrite-compare",
                    mpiwrite::bash_completion(app, "mpiwrite-compare")) &&
         ok;
  });
  return ok ? 0 : 1;
}
