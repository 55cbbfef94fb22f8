// The documentation against the code it describes, so the two cannot drift apart unnoticed.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite {
namespace {

std::string read_doc(const std::string& name) {
  std::ifstream in(std::string(MPIWRITE_DOCS_DIR) + "/" + name);
  EXPECT_TRUE(in) << "cannot read docs/" << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// docs/metrics.md lists the CSV header as one code line after "## CSV columns".
TEST(CsvDoc, ListsExactlyTheColumnsOfTheHeader) {
  std::istringstream doc(read_doc("metrics.md"));
  std::string line;
  while (std::getline(doc, line) && line != "## CSV columns") {
  }
  ASSERT_EQ(line, "## CSV columns") << "docs/metrics.md has no CSV section";
  std::string listed;
  while (std::getline(doc, line) && listed.empty() && line.rfind("## ", 0) != 0) {
    if (line.size() > 2 && line.front() == '`' && line.back() == '`') {
      listed = line.substr(1, line.size() - 2);
    }
  }
  EXPECT_EQ(listed, kCsvHeader);
  const std::string header(kCsvHeader);
  const auto columns = std::count(header.begin(), header.end(), ',') + 1;
  std::ostringstream count;  // (GCC 12 warns falsely about "(" + std::to_string(...))
  count << "(" << columns << " columns";
  EXPECT_NE(read_doc("metrics.md").find(count.str()), std::string::npos)
      << "docs/metrics.md should say " << count.str();
}

}  // namespace
}  // namespace mpiwrite
