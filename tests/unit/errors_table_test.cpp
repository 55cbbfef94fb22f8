// docs/errors.md's bad-input table, read here as the one source: every row that the options
// alone decide (its "checked by" cell says `unit`) is refused by what rank 0 runs before MPI
// matters — parse_command_line (CLI11, validate, the option dependencies) and
// resolve_for_world — with the row's exit code and a message containing the row's text, in
// milliseconds and without a process. Rows that need the file system or the job (`e2e` only)
// stay with tests/e2e/errors_table.sh under mpiexec, which also runs the `unit, e2e` sample
// for what only a real job shows: printed once, by rank 0, exit 2, nothing created.
#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {
namespace {

// The e2e script's rank count: validate_for_world sees the world it would see there.
constexpr int kRanks = 4;
// Placeholders stand for paths of a scratch directory; the options alone never touch them.
const std::string kRoot = "/nonexistent-errors-table-row";

struct Row {
  int line = 0;  // in docs/errors.md, for the failure message
  std::string name, arguments, message, checked_by;
  int exit = 0;
  bool unit() const { return checked_by.find("unit") != std::string::npos; }
  bool e2e() const { return checked_by.find("e2e") != std::string::npos; }
};

// The cells of a table line, split at '|' not escaped as "\|"; none if it is no table line.
std::vector<std::string> cells(const std::string& line) {
  const auto first = line.find_first_not_of(' ');
  const auto last = line.find_last_not_of(' ');
  if (first == std::string::npos || line[first] != '|' || line[last] != '|' || first == last) {
    return {};
  }
  std::vector<std::string> out(1);
  for (std::size_t i = first + 1; i < last; ++i) {
    if (line[i] == '\\' && i + 1 < last && line[i + 1] == '|') {
      out.back() += '|';
      ++i;
    } else if (line[i] == '|') {
      out.emplace_back();
    } else {
      out.back() += line[i];
    }
  }
  for (std::string& cell : out) {
    const auto a = cell.find_first_not_of(' ');
    cell = a == std::string::npos ? "" : cell.substr(a, cell.find_last_not_of(' ') - a + 1);
  }
  return out;
}

// `text` -> text
std::string code(const std::string& cell) {
  const bool quoted = cell.size() >= 2 && cell.front() == '`' && cell.back() == '`';
  return quoted ? cell.substr(1, cell.size() - 2) : cell;
}

// The rows of the first table headed | case | arguments | exit | message contains | checked by |.
std::vector<Row> read_table() {
  const std::string path = std::string(MPIWRITE_DOCS_DIR) + "/errors.md";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  const std::vector<std::string> header = {"case", "arguments", "exit", "message contains",
                                           "checked by"};
  std::vector<Row> rows;
  std::string line;
  int number = 0;
  bool inside = false;
  while (std::getline(in, line)) {
    ++number;
    const std::vector<std::string> c = cells(line);
    if (!inside) {
      inside = c == header;
      if (inside) std::getline(in, line), ++number;  // the separator line
      continue;
    }
    if (c.empty()) break;
    EXPECT_EQ(c.size(), header.size()) << path << ":" << number;
    if (c.size() != header.size()) continue;
    rows.push_back({number, c[0], code(c[1]), code(c[3]), c[4], std::stoi(c[2])});
  }
  EXPECT_FALSE(rows.empty()) << path << " has no table headed | case | ... | checked by |";
  return rows;
}

// A command line split like POSIX sh (Python's shlex.split, which errors_table.sh uses):
// single quotes literal, double quotes with backslash escapes, a backslash escapes outside.
std::vector<std::string> shell_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ' ' || ch == '\t') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
      continue;
    }
    in_word = true;
    if (ch == '\'') {
      const auto end = text.find('\'', i + 1);
      word += text.substr(i + 1, end - i - 1);
      i = end;
    } else if (ch == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string("\\\"$`").find(text[i + 1]) != std::string::npos) {
          ++i;
        }
        word += text[i];
      }
    } else if (ch == '\\' && i + 1 < text.size()) {
      word += text[++i];
    } else {
      word += ch;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// errors_table.sh's placeholders: paths under kRoot, {nl} a newline, {xN} N letters x.
std::string expand(std::string s) {
  static const std::vector<std::pair<std::string, std::string>> paths = {
      {"{dir}", "/fresh"},
      {"{file}", "/file"},
      {"{dangling}", "/dangling"},
      {"{missing}", "/no-such-parent/dir"},
      {"{taken}", "/taken"},
      {"{linked}", "/linked"},
      {"{fifo}", "/fifo"},
      {"{hardlinked}", "/hardlinked"},
      {"{subdir}", "/subdir"},
      {"{takenlink}", "/takenlink"},
      {"{layouts}", "/layouts"},
      {"{layoutlink}", "/layoutlink"},
      {"{nl}", ""}};
  for (const auto& [name, path] : paths) {
    const std::string value = name == "{nl}" ? "\n" : kRoot + path;
    for (auto at = s.find(name); at != std::string::npos; at = s.find(name, at + value.size())) {
      s.replace(at, name.size(), value);
    }
  }
  for (auto at = s.find("{x"); at != std::string::npos; at = s.find("{x", at)) {
    const auto end = s.find('}', at);
    const std::string digits = s.substr(at + 2, end - at - 2);
    if (end == std::string::npos || digits.empty() ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      ++at;  // not a placeholder
      continue;
    }
    s.replace(at, end - at + 1, std::string(std::stoul(digits), 'x'));
  }
  return s;
}

// What rank 0 prints and returns for the row's command line before anything else runs
// (app.cpp, configure): parse_command_line, then resolve_for_world (--files-per-rank, then
// validate_for_world). Exit 0: accepted.
CliOutcome decide(const Row& row) {
  std::vector<std::string> words = {"mpiwrite"};
  bool has_dir = false;
  for (const std::string& word : shell_words(row.arguments)) {
    has_dir = has_dir || word == "-d" || word == "--dir" || word.rfind("--dir=", 0) == 0;
    words.push_back(expand(word));
  }
  if (!has_dir) words.insert(words.begin() + 1, {"-d", expand("{dir}")});
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  CliOutcome cli = parse_command_line(static_cast<int>(argv.size()), argv.data());
  if (!cli.run) return cli;
  try {
    resolve_for_world(cli.config, kRanks);
  } catch (const UsageError& e) {
    return {false, cli.config, kExitUsage, "mpiwrite: error: " + printable(e.what()) + "\n"};
  }
  return cli;
}

std::string where(const Row& row) {
  return "docs/errors.md:" + std::to_string(row.line) + " \"" + row.name + "\": " + row.arguments;
}

TEST(ErrorsTable, EveryRowIsCheckedSomewhere) {
  for (const Row& row : read_table()) {
    EXPECT_TRUE(row.unit() || row.e2e())
        << where(row) << ": checked by '" << row.checked_by << "', expected unit, e2e or both";
  }
}

// The rows marked unit: exit code, exactly one "mpiwrite: error:" line, the row's text in it.
TEST(ErrorsTable, TheOptionsAloneRefuseEveryUnitRowWithItsMessage) {
  int checked = 0;
  for (const Row& row : read_table()) {
    if (!row.unit()) continue;
    ++checked;
    const CliOutcome cli = decide(row);
    EXPECT_FALSE(cli.run) << where(row) << ": accepted by the options alone; mark it e2e";
    if (cli.run) continue;
    EXPECT_EQ(cli.exit_code, row.exit) << where(row) << "\n" << cli.message;
    std::istringstream lines(cli.message);
    std::string line;
    int errors = 0;
    bool found = false;
    while (std::getline(lines, line)) {
      if (line.rfind("mpiwrite: error:", 0) != 0) continue;
      ++errors;
      found = found || line.find(expand(row.message)) != std::string::npos;
    }
    EXPECT_EQ(errors, 1) << where(row) << "\n" << cli.message;
    EXPECT_TRUE(found) << where(row) << ": no error line contains: " << expand(row.message) << "\n"
                       << cli.message;
  }
  EXPECT_GT(checked, 100) << "most rows are decided by the options alone";
}

// A row marked e2e only is one the options accept: otherwise it belongs to the unit test, and
// mpiexec would spend seconds on what takes microseconds here.
TEST(ErrorsTable, TheOptionsAloneAcceptEveryRowLeftToTheSystem) {
  for (const Row& row : read_table()) {
    if (row.unit()) continue;
    const CliOutcome cli = decide(row);
    EXPECT_TRUE(cli.run) << where(row) << ": refused by the options alone (mark it unit, "
                         << "and unit, e2e only as a sample of the path under mpiexec): "
                         << cli.message;
  }
}

// The sample under mpiexec covers each way rank 0 refuses before the run: a CLI11 error (with
// its --help line), a check of validate or the option table, and one that needs the ranks.
TEST(ErrorsTable, TheSampleUnderMpiexecHasEachKindOfRefusal) {
  bool parser = false, validation = false, world = false;
  for (const Row& row : read_table()) {
    if (!row.unit() || !row.e2e()) continue;
    const std::string message = decide(row).message;
    parser = parser || message.find("Run 'mpiwrite --help'") != std::string::npos;
    validation = validation || message.find("needs") != std::string::npos;
    world = world || message.find("does not exist") != std::string::npos;
  }
  EXPECT_TRUE(parser) << "no row marked unit, e2e is a command-line (CLI11) error";
  EXPECT_TRUE(validation) << "no row marked unit, e2e is an option dependency";
  EXPECT_TRUE(world) << "no row marked unit, e2e needs the ranks (--slow-rank 1000)";
}

TEST(ErrorsTable, ArgumentsSplitLikeTheShell) {
  EXPECT_EQ(shell_words("--text '' -n 5"), (std::vector<std::string>{"--text", "", "-n", "5"}));
  EXPECT_EQ(shell_words(R"(a\ b "c \"d\"" 'e f')"),
            (std::vector<std::string>{"a b", "c \"d\"", "e f"}));
  EXPECT_EQ(expand("{x3}{nl}{dir}"), "xxx\n" + kRoot + "/fresh");
}

}  // namespace
}  // namespace mpiwrite
