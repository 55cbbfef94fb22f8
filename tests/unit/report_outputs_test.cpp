// The report's files derived from the options (core/report_outputs.hpp), and -o's format from
// its extension through the command line (issue 24 §3).
#include "mpiwrite/core/report_outputs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

CliOutcome parse(std::vector<std::string> words) {
  words.insert(words.begin(), "mpiwrite");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

// The one-line message of a refused command line ("" when it runs).
std::string refusal(std::vector<std::string> words) {
  const CliOutcome out = parse(std::move(words));
  EXPECT_TRUE(out.run || out.exit_code == kExitUsage) << out.message;
  return out.run ? "" : out.message.substr(0, out.message.find('\n'));
}

TEST(FormatOfExtension, KnownExtensionsInAnyCase) {
  EXPECT_EQ(format_of_extension("r.json"), Format::Json);
  EXPECT_EQ(format_of_extension("dir.d/R.JSON"), Format::Json);
  EXPECT_EQ(format_of_extension("r.csv"), Format::Csv);
  EXPECT_EQ(format_of_extension("r.md"), Format::Markdown);
  EXPECT_EQ(format_of_extension("r.Markdown"), Format::Markdown);
  EXPECT_EQ(format_of_extension("r.txt"), Format::Table);
  EXPECT_EQ(format_of_extension("r.log"), std::nullopt);
  EXPECT_EQ(format_of_extension("report"), std::nullopt);
  EXPECT_EQ(format_of_extension("/dev/stdout"), std::nullopt);
  EXPECT_EQ(format_of_extension(".json"), std::nullopt);  // a dot file has no extension
  EXPECT_EQ(format_of_extension("x.json/report"), std::nullopt);  // the directory's is not
}

TEST(ReportFormat, FromTheExtensionWhenFormatIsNotGiven) {
  EXPECT_EQ(report_format(std::nullopt, ""), Format::Table);
  EXPECT_EQ(report_format(std::nullopt, "x.json"), Format::Json);
  EXPECT_EQ(report_format(std::nullopt, "x.csv"), Format::Csv);
  EXPECT_EQ(report_format(std::nullopt, "x.md"), Format::Markdown);
  EXPECT_EQ(report_format(std::nullopt, "x.out"), Format::Table);
  EXPECT_EQ(report_format(Format::Csv, "x.out"), Format::Csv);
  EXPECT_EQ(report_format(Format::Json, "x.json"), Format::Json);
  EXPECT_EQ(report_format(Format::Markdown, "x.txt"), Format::Markdown);  // .txt: any text
  EXPECT_THROW(report_format(Format::Json, "x.csv"), UsageError);
}

TEST(ReportOutputs, EveryFileInOrderWithItsFormat) {
  RunConfig c;
  EXPECT_TRUE(report_outputs(c).empty());
  c.format = Format::Markdown;
  c.output = "r.md";
  c.markdown_output = "m.md";
  c.csv_output = "r.csv";
  c.json_output = "r.json";
  const std::vector<ReportOutput> want{{Format::Markdown, "r.md", "--output"},
                                       {Format::Json, "r.json", "--json"},
                                       {Format::Csv, "r.csv", "--csv"},
                                       {Format::Markdown, "m.md", "--markdown"}};
  EXPECT_EQ(report_outputs(c), want);
}

TEST(ReportOutputs, RefusesWhatCannotBeMeant) {
  RunConfig c;
  c.json_output = "r.csv";
  EXPECT_THROW(report_outputs(c), UsageError);
  c.json_output = "r.txt";  // .txt contradicts nothing
  EXPECT_NO_THROW(report_outputs(c));
  c.json_output = "-";
  EXPECT_THROW(report_outputs(c), UsageError);
  c.json_output = "a/./r.json";
  c.output = "a/r.json";  // the same path spelled otherwise
  c.format = Format::Json;
  EXPECT_THROW(report_outputs(c), UsageError);
  c.output = "a/b/../r2.json";
  EXPECT_NO_THROW(report_outputs(c));
}

// Through the command line: what a user types, and the one line it gets back.
TEST(OutputOptions, OutputTakesItsFormatFromTheExtension) {
  EXPECT_EQ(parse({"-o", "x.json"}).config.format, Format::Json);
  EXPECT_EQ(parse({"-o", "x.CSV"}).config.format, Format::Csv);
  EXPECT_EQ(parse({"-o", "x.markdown"}).config.format, Format::Markdown);
  EXPECT_EQ(parse({"-o", "x.log"}).config.format, Format::Table);
  EXPECT_EQ(parse({"-o", "x.log", "--format", "csv"}).config.format, Format::Csv);
  EXPECT_EQ(parse({"-o", "x.json", "--format", "JSON"}).config.format, Format::Json);
  // The terminal's format is --format's; the extras do not change it.
  const CliOutcome extras = parse({"--json", "r.json", "--csv", "r.csv", "--markdown", "r.md"});
  ASSERT_TRUE(extras.run) << extras.message;
  EXPECT_EQ(extras.config.format, Format::Table);
  EXPECT_EQ(extras.config.json_output, "r.json");
  EXPECT_EQ(extras.config.csv_output, "r.csv");
  EXPECT_EQ(extras.config.markdown_output, "r.md");
}

TEST(OutputOptions, ContradictionsAreOneClearLine) {
  EXPECT_EQ(refusal({"-o", "x.csv", "--format", "json"}),
            "mpiwrite: error: --output x.csv: the extension .csv names the csv format, not "
            "json; give the file a name ending as its format, or another --format");
  EXPECT_EQ(refusal({"--json", "r.csv"}),
            "mpiwrite: error: --json r.csv: the extension .csv names the csv format, not json; "
            "give the file a name ending as its format");
  EXPECT_EQ(refusal({"--csv", "r.json", "--json", "r.json"}).substr(0, 50),
            "mpiwrite: error: --csv r.json: the extension .json");
  EXPECT_EQ(refusal({"-o", "r.json", "--json", "./r.json"}),
            "mpiwrite: error: --output r.json and --json ./r.json name the same file; give "
            "each output a file of its own");
  EXPECT_EQ(refusal({"--csv", "-"}),
            "mpiwrite: error: --csv -: standard output always gets the report in --format's "
            "format (table); for csv there, give --format csv");
  EXPECT_EQ(refusal({"-o", "-"}),
            "mpiwrite: error: --output -: standard output always gets the report; -o names a "
            "file for a copy of it");
  EXPECT_EQ(refusal({"--markdown", ""}), "mpiwrite: error: --markdown: must not be empty");
  EXPECT_EQ(refusal({"--dry-run", "--csv", "r.csv"}),
            "mpiwrite: error: --dry-run and --csv cannot be combined (a dry run writes no "
            "report)");
  EXPECT_EQ(refusal({"--per-rank", "-o", "r.json"}).substr(0, 43),
            "mpiwrite: error: --per-rank needs --format ");
}

}  // namespace
}  // namespace mpiwrite
